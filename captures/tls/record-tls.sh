#!/bin/sh
# Recipe for captures/tls/tls-handshakes.pcapng (see README.md). Run as root from the repository
# root after building:
#   BIN=build/release/bin sh captures/tls/record-tls.sh
# In a network namespace of its own (only its loopback, so nothing else is recorded), it starts
# two TLS servers with the same certificate chain (a leaf for lab.example signed by a CA made for
# the run):
#   lab-http serve --tls-cert --tls-key on 127.0.0.1:8443 (netlab's own server, OpenSSL)
#   openssl s_server -www -alpn http/1.1 on 127.0.0.1:9443
# records the loopback with netlab-record, and connects to each with curl and openssl s_client,
# once with TLS 1.3 and once with TLS 1.2 (8 connections, in this order: curl 1.3 and 1.2 to
# lab-http, to s_server; s_client 1.3 and 1.2 to lab-http, to s_server). Every client sends the
# server name lab.example (SNI); curl offers ALPN h2 and http/1.1, s_client http/1.1; s_server
# chooses http/1.1, lab-http serve chooses none. Versions, cipher suites, SNI, ALPN, groups and the
# number of certificates are the same on every run with the same OpenSSL and curl; ports, random
# values and the encrypted bytes are not.
# Then it writes the capture's stable facts from tshark (captures/make-facts.sh).
# Environment: BIN (the netlab programs), OUT (default captures/tls).
set -eu
BIN=${BIN:-build/release/bin}
OUT=${OUT:-captures/tls}
BIN=$(cd "$BIN" && pwd)
ns=nl28tls$$
work=$(mktemp -d)
pids=""
cleanup() {
  for p in $pids; do kill "$p" 2>/dev/null || true; done
  for p in $pids; do wait "$p" 2>/dev/null || true; done
  ip netns del "$ns" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT INT TERM
ip netns add "$ns"
ip -n "$ns" link set lo up
run() { ip netns exec "$ns" "$@"; }
wait_for() {  # wait_for FILE PATTERN: at most 10 s
  for i in $(seq 1 200); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.05; done
  echo "timed out waiting for '$2' in $1" >&2
  cat "$1" >&2
  exit 1
}

# A CA and a leaf for lab.example (EC P-256: small certificates, small records).
cd "$work"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj /CN=netlab-lab-ca \
  -keyout ca.key -out ca.pem 2>/dev/null
openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj /CN=lab.example \
  -keyout leaf.key -out leaf.csr 2>/dev/null
printf 'subjectAltName=DNS:lab.example\n' > ext.cnf
openssl x509 -req -in leaf.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 -extfile ext.cnf \
  -out leaf.pem 2>/dev/null
cat leaf.pem ca.pem > chain.pem
mkdir www
printf 'hello over TLS\n' > www/hello.txt
cd - > /dev/null

# Background programs are started with ip netns exec itself (not a shell function), so that $! is
# the program: a function would run in a subshell that inherits the trap.
ip netns exec "$ns" "$BIN/lab-http" serve --root "$work/www" --listen 127.0.0.1:8443 --tls-cert "$work/chain.pem" \
  --tls-key "$work/leaf.key" > "$work/http.out" 2>&1 &
pids="$pids $!"
ip netns exec "$ns" openssl s_server -accept 127.0.0.1:9443 -cert "$work/leaf.pem" -key "$work/leaf.key" \
  -cert_chain "$work/ca.pem" -www -alpn http/1.1 > "$work/s_server.out" 2>&1 &
pids="$pids $!"
wait_for "$work/http.out" '^listening on'
wait_for "$work/s_server.out" '^ACCEPT'

mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
ip netns exec "$ns" "$BIN/netlab-record" --interface lo --filter tcp --output "$OUT/tls-handshakes.pcapng" --seconds 120 \
  > "$work/record.out" &
rec=$!
wait_for "$work/record.out" '^capturing on'

for port in 8443 9443; do
  path=/; [ "$port" = 8443 ] && path=/hello.txt
  run curl -sS -o /dev/null --cacert "$work/ca.pem" --resolve "lab.example:$port:127.0.0.1" \
    --tlsv1.3 "https://lab.example:$port$path"
  run curl -sS -o /dev/null --cacert "$work/ca.pem" --resolve "lab.example:$port:127.0.0.1" \
    --tlsv1.2 --tls-max 1.2 "https://lab.example:$port$path"
done
for port in 8443 9443; do
  for version in -tls1_3 -tls1_2; do
    printf 'GET / HTTP/1.0\r\nHost: lab.example\r\n\r\n' |
      run openssl s_client -connect "127.0.0.1:$port" -servername lab.example -alpn http/1.1 $version \
        -CAfile "$work/ca.pem" -quiet -ign_eof > /dev/null 2>&1 || true
    # (s_client exits 1 when the server closes without close_notify: OpenSSL 3 calls it an
    # unexpected EOF. The handshake and the exchange are in the capture all the same.)
  done
done
# Stop the servers (and wait for them) so every connection's FIN is in the capture.
for p in $pids; do kill "$p" 2>/dev/null || true; done
for p in $pids; do wait "$p" 2>/dev/null || true; done
pids=""
sleep 0.2
kill -TERM "$rec"
wait "$rec"
cat "$work/record.out"
sh "$(dirname "$0")/../make-facts.sh" tls "$OUT/tls-handshakes.pcapng"
