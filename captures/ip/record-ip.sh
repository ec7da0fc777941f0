#!/bin/sh
# Recipe for captures/ip (see README.md). Run as root from the repository root after building:
#   BIN=build/release/bin sh captures/ip/record-ip.sh
# It builds five network namespaces, a host, three routers and a server, joined by veth links of
# different MTUs (IPv4 10.28.N.0/24 and IPv6 fd28:N::/64 on link N):
#
#   host 10.28.1.2 --1500-- r1 --1400-- r2 --1280-- r3 --1500-- server 10.28.4.2
#
# and records the host's interface with netlab-record while Debian's own ping, traceroute and
# tracepath run on it:
#   ipv4-path.pcapng  ping -s 3000 (each echo request cut into three fragments at the host, the
#                     replies into fragments of at most 1280 bytes on the way back), ping -M do
#                     -s 1400 (DF set: r1 answers "fragmentation needed", MTU 1400), traceroute
#                     (UDP probes, three per TTL), traceroute -I (ICMP echo probes, as Windows'
#                     tracert), traceroute with 2000-byte probes (each probe in two fragments), and
#                     tracepath (which finds the path MTU: 1400, then 1280);
#   ipv6-path.pcapng  ping -6 (small, then 2000 bytes: r1 and r2 answer "packet too big", the host
#                     then fragments at 1400 and at 1280), traceroute -6, tracepath -6.
# Routers answer every probe (net.ipv4.icmp_ratelimit and net.ipv6.icmp.ratelimit are 0 in the
# namespaces, so no answer is lost to ICMP rate limiting) and nothing else runs in the
# namespaces, so the addresses, the hops, the MTUs and the fragments are the same on every run;
# times, ports and identifiers are not. With netem in the kernel each router link also gets a
# few milliseconds of delay (different per link, so the per-hop RTTs grow along the path); without
# it (`tc qdisc add ... netem` fails: this kernel has no sch_netem) the links have no added delay.
# Then it writes each capture's stable facts from tshark (captures/make-facts.sh).
# Environment: BIN (the netlab programs), OUT (where the captures go, default captures/ip).
set -eu
BIN=${BIN:-build/release/bin}
OUT=${OUT:-captures/ip}
RECORD=$(cd "$(dirname "$BIN/netlab-record")" && pwd)/netlab-record
p=nl28ip$$
work=$(mktemp -d)
rec=""
cleanup() {
  [ -n "$rec" ] && kill "$rec" 2>/dev/null || true
  for n in h r1 r2 r3 s; do ip netns del "$p-$n" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

for n in h r1 r2 r3 s; do
  ip netns add "$p-$n"
  ip -n "$p-$n" link set lo up
  ip netns exec "$p-$n" sysctl -qw net.ipv4.icmp_ratelimit=0 net.ipv6.icmp.ratelimit=0 \
    net.ipv6.conf.all.accept_dad=0 net.ipv6.conf.default.accept_dad=0
done
for n in r1 r2 r3; do ip netns exec "$p-$n" sysctl -qw net.ipv4.ip_forward=1 net.ipv6.conf.all.forwarding=1; done
link() {  # link N A IFA B IFB MTU: link N between namespaces A and B
  ip link add "$3" netns "$p-$2" type veth peer name "$5" netns "$p-$4"
  ip -n "$p-$2" link set "$3" mtu "$6" up
  ip -n "$p-$4" link set "$5" mtu "$6" up
  ip -n "$p-$2" addr add "10.28.$1.$7/24" dev "$3"
  ip -n "$p-$4" addr add "10.28.$1.$8/24" dev "$5"
  ip -n "$p-$2" addr add "fd28:$1::$7/64" dev "$3" nodad
  ip -n "$p-$4" addr add "fd28:$1::$8/64" dev "$5" nodad
}
link 1 h eth0 r1 west 1500 2 1
link 2 r1 east r2 west 1400 1 2
link 3 r2 east r3 west 1280 1 2
link 4 r3 east s eth0 1500 1 2
ip -n "$p-h" route add default via 10.28.1.1
ip -n "$p-h" -6 route add default via fd28:1::1
ip -n "$p-r1" route add default via 10.28.2.2
ip -n "$p-r1" -6 route add default via fd28:2::2
ip -n "$p-r2" route add 10.28.1.0/24 via 10.28.2.1
ip -n "$p-r2" route add 10.28.4.0/24 via 10.28.3.2
ip -n "$p-r2" -6 route add fd28:1::/64 via fd28:2::1
ip -n "$p-r2" -6 route add fd28:4::/64 via fd28:3::2
ip -n "$p-r3" route add default via 10.28.3.1
ip -n "$p-r3" -6 route add default via fd28:3::1
ip -n "$p-s" route add default via 10.28.4.1
ip -n "$p-s" -6 route add default via fd28:4::1
# Delay on the router links, both ways, when the kernel has netem: 2, 5 and 1 ms.
if tc -n "$p-r1" qdisc add dev east root netem delay 2ms 2>/dev/null; then
  tc -n "$p-r2" qdisc add dev west root netem delay 2ms
  tc -n "$p-r2" qdisc add dev east root netem delay 5ms
  tc -n "$p-r3" qdisc add dev west root netem delay 5ms
  tc -n "$p-r3" qdisc add dev east root netem delay 1ms
  tc -n "$p-s" qdisc add dev eth0 root netem delay 1ms
  echo "links delayed with netem (2, 5, 1 ms each way)"
else
  echo "no netem in this kernel: the links have no added delay"
fi

in_host() { ip netns exec "$p-h" "$@"; }
# record FILE FILTER: starts netlab-record on the host's interface and waits for it to capture.
# (ip netns exec runs netlab-record itself, so $! is its process; SIGTERM stops it: a background
# process of a script ignores SIGINT.)
record() {
  ip netns exec "$p-h" "$RECORD" --interface eth0 --filter "$2" --output "$OUT/$1" --seconds 120 > "$work/record.out" &
  rec=$!
  for i in $(seq 1 100); do grep -q '^capturing on' "$work/record.out" && return 0; sleep 0.05; done
  echo "netlab-record did not start" >&2
  exit 1
}
stop_recording() {
  sleep 0.3  # the last answers are on their way back through the namespaces
  kill -TERM "$rec"
  wait "$rec"
  rec=""
  cat "$work/record.out"
}

mkdir -p "$OUT"
record ipv4-path.pcapng 'ip or arp'
in_host ping -n -c 3 -i 0.2 -s 3000 10.28.4.2
in_host ping -n -c 1 -M do -s 1400 10.28.4.2 || true   # fragmentation needed: "Frag needed and DF set (mtu = 1400)"
in_host traceroute -n -q 3 10.28.4.2
in_host traceroute -n -I -q 3 10.28.4.2
in_host traceroute -n -q 1 -N 1 10.28.4.2 2000
in_host tracepath -n 10.28.4.2
stop_recording

record ipv6-path.pcapng 'ip6'
in_host ping -6 -n -c 2 -i 0.2 fd28:4::2
in_host ping -6 -n -c 5 -i 0.2 -s 2000 fd28:4::2 || true  # two packets too big, one reply lost (see README.md)
in_host traceroute -6 -n -q 3 fd28:4::2
in_host tracepath -6 -n fd28:4::2
stop_recording

sh "$(dirname "$0")/../make-facts.sh" ip "$OUT/ipv4-path.pcapng" "$OUT/ipv6-path.pcapng"
