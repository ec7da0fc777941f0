#!/bin/sh
# Recipe for captures/nat/inside.pcapng and captures/nat/outside.pcapng (see README.md). Run as
# root from the repository root after building (it needs ip(8), ethtool, nft (nftables), curl,
# dig and dnsmasq):
#   BIN=build/release/bin sh captures/nat/record-nat.sh
# Four network namespaces: two hosts on a home LAN (h1 10.0.1.10 and h2 10.0.1.11), a router
# ("router": its LAN bridge br-lan 10.0.1.1/24, its WAN interface wan0 198.51.100.1/24, nftables
# masquerading every packet that leaves by wan0) and a server on the WAN side (198.51.100.80:
# lab-http serve on port 80, dnsmasq answering DNS on port 53); the server has no route to the LAN,
# so only translated packets can reach it and be answered. Two netlab-record processes record the
# router's two sides at the same time, br-lan (inside.pcapng) and wan0 (outside.pcapng), while
#   1. h1 fetches index.html with curl from local port 40000;
#   2. h2 does the same from its own port 40000: the router has that port in use for h1 (its
#      connection tracking entry outlives the connection), so it translates h2 to another port;
#   3. h1 and h2 each ask the server's DNS for www.example.test with dig from UDP port 5300 (the
#      same clash, over UDP);
#   4. h1 fetches index.html again, from local port 41000 (free on the router: kept).
# Namespace names start with NETNS_PREFIX (default nlnat<pid>); everything is removed at the end.
set -eu
BIN=${BIN:-build/release/bin}
OUT=${OUT:-captures/nat}
P=${NETNS_PREFIX:-nlnat$$}
work=$(mktemp -d)
pids=""
cleanup() {
  for p in $pids; do kill "$p" 2>/dev/null || true; done
  for p in $pids; do wait "$p" 2>/dev/null || true; done
  for n in h1 h2 server router; do ip netns del "$P-$n" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

wait_for() {  # wait_for FILE TEXT: until FILE holds TEXT (at most 10 s)
  for i in $(seq 1 200); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.05; done
  echo "record-nat.sh: timed out waiting for '$2' in $1:" >&2
  cat "$1" >&2
  return 1
}

for n in router h1 h2 server; do
  ip netns add "$P-$n"
  ip netns exec "$P-$n" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
  ip -n "$P-$n" link set lo up
done
R="$P-router"
ip -n "$R" link add br-lan type bridge
ip -n "$R" link set br-lan address 02:00:0a:00:01:01
ip -n "$R" addr add 10.0.1.1/24 dev br-lan
ip -n "$R" link set br-lan up
lan_host() {  # lan_host NAME ADDRESS MAC
  ip -n "$R" link add "lan-$1" type veth peer name eth0 netns "$P-$1"
  ip -n "$R" link set "lan-$1" master br-lan up
  ip -n "$P-$1" link set eth0 address "$3"
  ip -n "$P-$1" addr add "$2/24" dev eth0
  ip -n "$P-$1" link set eth0 up
  ip -n "$P-$1" route add default via 10.0.1.1
}
lan_host h1 10.0.1.10 02:00:0a:00:01:0a
lan_host h2 10.0.1.11 02:00:0a:00:01:0b
ip -n "$R" link add wan0 type veth peer name eth0 netns "$P-server"
ip -n "$R" link set wan0 address 02:00:c6:33:64:01
ip -n "$R" addr add 198.51.100.1/24 dev wan0
ip -n "$R" link set wan0 up
ip -n "$P-server" link set eth0 address 02:00:c6:33:64:50
ip -n "$P-server" addr add 198.51.100.80/24 dev eth0
ip -n "$P-server" link set eth0 up
# Checksums computed by the kernel, not left to an offload veth never does (see ../dns/record-dns.sh):
# the checksums in the captures are the ones on the wire, before and after the router rewrote them.
for i in br-lan wan0; do ip netns exec "$R" ethtool -K "$i" tx off > /dev/null; done
for n in h1 h2 server; do ip netns exec "$P-$n" ethtool -K eth0 tx off > /dev/null; done
ip netns exec "$R" sysctl -qw net.ipv4.ip_forward=1
ip netns exec "$R" nft -f - <<'NFT'
table ip nat {
  chain postrouting {
    type nat hook postrouting priority srcnat; policy accept;
    oifname "wan0" masquerade
  }
}
NFT

mkdir "$work/site"
printf '<html><body>behind a NAT</body></html>\n' > "$work/site/index.html"
ip netns exec "$P-server" "$BIN/lab-http" serve --root "$work/site" --listen 198.51.100.80:80 > "$work/http.out" 2>&1 &
pids="$pids $!"
ip netns exec "$P-server" dnsmasq --no-daemon --conf-file=/dev/null --no-hosts --no-resolv \
  --listen-address=198.51.100.80 --bind-interfaces --user=root --group=root --pid-file="$work/dnsmasq.pid" \
  --log-facility=- --address=/www.example.test/198.51.100.80 > "$work/dnsmasq.log" 2>&1 &
pids="$pids $!"
wait_for "$work/http.out" '^listening on'
wait_for "$work/dnsmasq.log" 'started'

ip netns exec "$R" "$BIN/netlab-record" --interface br-lan --filter 'tcp or udp' \
  --output "$OUT/inside.pcapng" > "$work/inside.out" &
inside=$!
ip netns exec "$R" "$BIN/netlab-record" --interface wan0 --filter 'tcp or udp' \
  --output "$OUT/outside.pcapng" > "$work/outside.out" &
outside=$!
pids="$pids $inside $outside"
wait_for "$work/inside.out" 'capturing on'
wait_for "$work/outside.out" 'capturing on'
on() { n=$1; shift; ip netns exec "$P-$n" "$@" > /dev/null; }
on h1 curl -sS --local-port 40000 http://198.51.100.80/index.html
on h2 curl -sS --local-port 40000 http://198.51.100.80/index.html
on h1 dig -b 10.0.1.10#5300 @198.51.100.80 www.example.test
on h2 dig -b 10.0.1.11#5300 @198.51.100.80 www.example.test
on h1 curl -sS --local-port 41000 http://198.51.100.80/index.html
sleep 0.3
kill -INT "$inside" "$outside"
wait "$inside"
wait "$outside"
cat "$work/inside.out" "$work/outside.out"
