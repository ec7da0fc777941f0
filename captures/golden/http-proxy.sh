#!/bin/sh
# Reference session of the golden capture http-proxy (see README.md). netlab-record --golden runs
# it while recording and sets BIN to the folder of the netlab binaries:
#   netlab-record --golden http-proxy --filter 'tcp port 18092 or tcp port 18093' -- sh captures/golden/http-proxy.sh
# lab-http serve is the origin on 127.0.0.1:18092, lab-http proxy listens on 127.0.0.1:18093, and
# curl goes through the proxy (curl -x, absolute-form request targets):
#   1. GET hello.txt: a miss, fetched from the origin (200, 24 bytes)
#   2. GET hello.txt again: the cached copy is stale at once (the origin sends no freshness
#      information and the file is brand new), so the proxy revalidates it with a conditional
#      GET (If-None-Match / If-Modified-Since): the origin answers 304, the client gets 200
#   3. GET numbers.txt: a miss, 8893 bytes
#   4. GET missing: the origin's 404, passed through
# Each client connection to the proxy (tcp.stream 0, 2, 4, 6) is followed by the proxy's own
# connection to the origin (1, 3, 5, 7).
# The servers are stopped (and waited for) before the script ends, so every connection's FIN is
# in the capture when netlab-record stops.
set -eu
BIN=${BIN:-build/release/bin}
work=$(mktemp -d)
pids=""
cleanup() {
  for p in $pids; do kill "$p" 2>/dev/null || true; done
  for p in $pids; do wait "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
mkdir "$work/site"
printf 'hello through the proxy\n' > "$work/site/hello.txt"
seq 1 2000 > "$work/site/numbers.txt"
"$BIN/lab-http" serve --root "$work/site" --listen 127.0.0.1:18092 > "$work/origin.out" &
pids="$pids $!"
"$BIN/lab-http" proxy --listen 127.0.0.1:18093 > "$work/proxy.out" &
pids="$pids $!"
# Wait (at most 5 s) for both readiness lines.
for i in $(seq 1 100); do
  grep -q '^listening on' "$work/origin.out" && grep -q '^listening on' "$work/proxy.out" && break
  sleep 0.05
done
P=http://127.0.0.1:18093
O=http://127.0.0.1:18092
curl -sS -o /dev/null -x "$P" "$O/hello.txt"
curl -sS -o /dev/null -x "$P" "$O/hello.txt"
curl -sS -o /dev/null -x "$P" "$O/numbers.txt"
curl -sS -o /dev/null -x "$P" "$O/missing"
