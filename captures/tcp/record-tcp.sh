#!/bin/sh
# Recipe for captures/tcp/bulk-upload.pcapng (see README.md). Run as root from the repository root
# after building:
#   BIN=build/release/bin sh captures/tcp/record-tcp.sh
# The textbook's TCP lab, made here: a host uploads a 250,000-byte text file with an HTTP POST
# (curl --data-binary) to a server through a router whose link to the server is the bottleneck:
#
#   host 10.28.5.2 --- router (10.28.5.1 | 10.28.6.1) ==4 Mbit/s==> server 10.28.6.2:8080
#
# in network namespaces of its own. The router's link toward the server is shaped with tc: tbf at
# 4 Mbit/s with a 60,000-byte queue, under netem delay 20 ms when the kernel has sch_netem
# (`tc qdisc add ... netem` fails otherwise: then the rate limit alone, and the RTT is the time
# the queue holds a segment). The host runs TCP Reno (net.ipv4.tcp_congestion_control in its own
# namespace; the textbook's algorithm, without CUBIC's HyStart, which may leave slow start before
# any loss), and sends one segment per packet (gso_max_segs 1 on its interface, so the capture
# shows the segments TCP sends, not 64 KB offload super-packets). Slow start overflows the
# router's queue: segments are lost, retransmitted, and the transfer goes on in congestion
# avoidance. The server is Python's http.server (/usr/bin/python3) reading the body and answering
# 200. netlab-record records the host's interface.
# Stable on every run: a loss and its recovery, the segment sizes, the server's answer; the times,
# the window and the exact losses move with the machine's timing.
# Environment: BIN (the netlab programs), OUT (default captures/tcp), SIZE (bytes, default 250000).
set -eu
BIN=${BIN:-build/release/bin}
OUT=${OUT:-captures/tcp}
SIZE=${SIZE:-250000}
BIN=$(cd "$BIN" && pwd)
p=nl28tcp$$
work=$(mktemp -d)
pids=""
cleanup() {
  for pid in $pids; do kill "$pid" 2>/dev/null || true; done
  for pid in $pids; do wait "$pid" 2>/dev/null || true; done
  for n in h r s; do ip netns del "$p-$n" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT INT TERM
wait_for() {  # wait_for FILE PATTERN: at most 10 s
  for i in $(seq 1 200); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.05; done
  echo "timed out waiting for '$2' in $1" >&2
  cat "$1" >&2
  exit 1
}

for n in h r s; do
  ip netns add "$p-$n"
  ip -n "$p-$n" link set lo up
done
ip link add eth0 netns "$p-h" type veth peer name west netns "$p-r"
ip link add east netns "$p-r" type veth peer name eth0 netns "$p-s"
ip -n "$p-h" link set eth0 up gso_max_segs 1
ip -n "$p-r" link set west up
ip -n "$p-r" link set east up
ip -n "$p-s" link set eth0 up
ip -n "$p-h" addr add 10.28.5.2/24 dev eth0
ip -n "$p-r" addr add 10.28.5.1/24 dev west
ip -n "$p-r" addr add 10.28.6.1/24 dev east
ip -n "$p-s" addr add 10.28.6.2/24 dev eth0
ip -n "$p-h" route add default via 10.28.5.1
ip -n "$p-s" route add default via 10.28.6.1
ip netns exec "$p-r" sysctl -qw net.ipv4.ip_forward=1
ip netns exec "$p-h" sysctl -qw net.ipv4.tcp_congestion_control=reno
# The bottleneck: netem's delay (when the kernel has it) with tbf's rate under it, else tbf alone.
tbf="tbf rate 4mbit burst 1514 limit 60000"
if tc -n "$p-r" qdisc add dev east root handle 1: netem delay 20ms 2>/dev/null; then
  tc -n "$p-r" qdisc add dev east parent 1:1 handle 10: $tbf
  echo "bottleneck: netem delay 20 ms, tbf 4 Mbit/s"
else
  tc -n "$p-r" qdisc add dev east root $tbf
  echo "bottleneck: tbf 4 Mbit/s (this kernel has no sch_netem: no added delay)"
fi

# The file: numbered lines of text (deterministic), SIZE bytes.
/usr/bin/python3 - "$work/alice.txt" "$SIZE" <<'PY'
import sys
path, size = sys.argv[1], int(sys.argv[2])
text, n = [], 0
while sum(len(l) for l in text) < size:
    n += 1
    text.append("line %06d: down the rabbit hole, one segment after another, until the window fills\n" % n)
open(path, "w").write("".join(text)[:size])
PY

ip netns exec "$p-s" /usr/bin/python3 -u -c '
import http.server, sys
class Upload(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        n = int(self.headers["Content-Length"])
        got = len(self.rfile.read(n))
        body = ("received %d bytes\n" % got).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *args):
        pass
server = http.server.HTTPServer(("10.28.6.2", 8080), Upload)
print("listening on 10.28.6.2:8080", flush=True)
server.serve_forever()
' > "$work/server.out" 2>&1 &
pids="$pids $!"
wait_for "$work/server.out" '^listening on'

mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
ip netns exec "$p-h" "$BIN/netlab-record" --interface eth0 --filter 'tcp port 8080' \
  --output "$OUT/bulk-upload.pcapng" --seconds 120 > "$work/record.out" &
rec=$!
wait_for "$work/record.out" '^capturing on'
ip netns exec "$p-h" curl -sS --data-binary "@$work/alice.txt" -H 'Content-Type: text/plain' \
  http://10.28.6.2:8080/upload
sleep 0.3  # the last ACK and the FINs on their way back
kill -TERM "$rec"
wait "$rec"
cat "$work/record.out"
sh "$(dirname "$0")/../make-facts.sh" tcp "$OUT/bulk-upload.pcapng"
