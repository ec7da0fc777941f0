#!/bin/sh
# Recipe for captures/dhcp/client.pcapng (see README.md). Run as root from the repository root
# after building (it needs ip(8), ethtool, dnsmasq and busybox):
#   BIN=build/release/bin sh captures/dhcp/record-dhcp.sh
# Two network namespaces joined by a veth pair: "server" (10.67.0.1/24) runs dnsmasq as the DHCP
# server of 10.67.0.50-99 (2-minute leases, router 10.67.0.1, DNS server 10.67.0.1, domain
# campus.test), "client" (no address, MAC 02:67:00:00:00:42) runs busybox udhcpc. netlab-record
# records the client's interface while udhcpc gets an address (DISCOVER, OFFER, REQUEST, ACK:
# broadcast, as the client has no address yet), renews it (SIGUSR1: a REQUEST sent to the server,
# its ACK) and releases it (SIGUSR2: a RELEASE): 7 messages.
# Namespace names start with NETNS_PREFIX (default nldhcp<pid>); everything is removed at the end.
set -eu
BIN=${BIN:-build/release/bin}
OUT=${OUT:-captures/dhcp}
P=${NETNS_PREFIX:-nldhcp$$}
work=$(mktemp -d)
pids=""
cleanup() {
  for p in $pids; do kill "$p" 2>/dev/null || true; done
  for p in $pids; do wait "$p" 2>/dev/null || true; done
  for n in client server; do ip netns del "$P-$n" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

wait_for() {  # wait_for FILE TEXT: until FILE holds TEXT (at most 10 s)
  for i in $(seq 1 200); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.05; done
  echo "record-dhcp.sh: timed out waiting for '$2' in $1:" >&2
  cat "$1" >&2
  return 1
}

for n in client server; do
  ip netns add "$P-$n"
  ip netns exec "$P-$n" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
  ip -n "$P-$n" link set lo up
done
ip -n "$P-server" link add eth0 type veth peer name eth0 netns "$P-client"
ip -n "$P-server" link set eth0 address 02:67:00:00:00:01
ip -n "$P-client" link set eth0 address 02:67:00:00:00:42
ip -n "$P-server" addr add 10.67.0.1/24 dev eth0
ip -n "$P-server" link set eth0 up
ip -n "$P-client" link set eth0 up
# Checksums computed by the kernel, not left to an offload veth never does (see ../dns/record-dns.sh).
for n in client server; do ip netns exec "$P-$n" ethtool -K eth0 tx off > /dev/null; done

ip netns exec "$P-server" dnsmasq --no-daemon --conf-file=/dev/null --no-hosts --no-resolv --port=0 \
  --interface=eth0 --bind-interfaces --user=root --group=root --pid-file="$work/dnsmasq.pid" \
  --dhcp-leasefile="$work/leases" --log-facility=- --log-dhcp --no-ping \
  --dhcp-range=10.67.0.50,10.67.0.99,255.255.255.0,2m \
  --dhcp-option=option:router,10.67.0.1 --dhcp-option=option:dns-server,10.67.0.1 \
  --domain=campus.test > "$work/dnsmasq.log" 2>&1 &
pids="$pids $!"
wait_for "$work/dnsmasq.log" 'DHCP, IP range'

# udhcpc calls this at each state change; it configures the interface as a real client does.
cat > "$work/script" <<SCRIPT
#!/bin/sh
case "\$1" in
  deconfig) ip addr flush dev "\$interface" ;;
  bound|renew)
    ip addr flush dev "\$interface"
    ip addr add "\$ip/\$mask" dev "\$interface"
    [ -z "\$router" ] || ip route replace default via "\$router" dev "\$interface" ;;
esac
echo "\$1 \$ip" >> "$work/events"
SCRIPT
chmod +x "$work/script"

# One recording: get, renew, release. busybox udhcpc sometimes misses the server's answer to its
# unicast renewal on a busy machine (the answer is in the capture, the client had not opened its
# socket yet) and then asks again by broadcast (RFC 2131 §4.4.5 REBINDING): a capture of that is
# real but not the lab's, so the recipe records again, at most five times in all, and says what
# each failed attempt recorded (with tshark, when installed) and what udhcpc logged.
record_once() {
  : > "$work/events"
  ip netns exec "$P-client" "$BIN/netlab-record" --interface eth0 --filter 'udp port 67 or udp port 68' \
    --output "$OUT/client.pcapng" > "$work/record.out" &
  rec=$!
  pids="$pids $rec"
  wait_for "$work/record.out" 'capturing on'
  ip netns exec "$P-client" busybox udhcpc -f -i eth0 -s "$work/script" -x hostname:student -V netlab-lab \
    -t 5 > "$work/udhcpc.log" 2>&1 &
  client=$!
  pids="$pids $client"
  wait_for "$work/events" '^bound'
  kill -USR1 "$client"
  wait_for "$work/events" '^renew'
  kill -USR2 "$client"
  wait_for "$work/udhcpc.log" 'entering released state'
  kill "$client"
  wait "$client" || true
  sleep 0.3
  kill -INT "$rec"
  wait "$rec"
  cat "$work/record.out"
}
for attempt in 1 2 3 4 5; do
  record_once
  # DISCOVER, OFFER, REQUEST, ACK, then REQUEST and ACK (the renewal), then RELEASE.
  grep -q '^wrote 7 packets' "$work/record.out" && exit 0
  echo "record-dhcp.sh: attempt $attempt: not the 7 messages of one exchange each; recording again" >&2
  # What went otherwise, for whoever reads the log: the messages recorded and the client's account.
  if command -v tshark > /dev/null; then
    tshark -r "$OUT/client.pcapng" -T fields -E separator=' ' -e frame.time_relative -e ip.src -e ip.dst \
      -e dhcp.option.dhcp -e dhcp.id 2>/dev/null | sed 's/^/  /' >&2 || true
  fi
  sed 's/^/  /' "$work/udhcpc.log" >&2
done
echo "record-dhcp.sh: no clean recording in 5 attempts" >&2
exit 1
