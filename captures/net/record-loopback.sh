#!/bin/sh
# Recipe for the captures in captures/net (see captures/README.md). Run as root from the repository
# root after building: BIN=build/release/bin sh captures/net/record-loopback.sh
# It records the loopback interface with netlab-record while curl fetches a small file from
# Python's http.server, once over IPv4 (pcapng) and once over IPv6 (pcap).
set -eu
BIN=${BIN:-build/release/bin}
OUT=${OUT:-captures/net}
www=$(mktemp -d)
trap 'rm -rf "$www"' EXIT
printf 'hello from netlab\n' > "$www/hello.txt"
seq 1 2000 > "$www/numbers.txt"

record() { # record NAME FILTER BIND URL...
  name=$1 filter=$2 bind=$3; shift 3
  "$BIN/netlab-record" --interface lo --filter "$filter" --output "$OUT/$name" --seconds 4 &
  rec=$!
  /usr/bin/python3 -m http.server --bind "$bind" --directory "$www" 18080 >/dev/null 2>&1 &
  srv=$!
  sleep 1
  for url in "$@"; do curl -s -o /dev/null "$url"; done
  wait $rec
  kill $srv
}

record loopback-http.pcapng 'tcp port 18080' 127.0.0.1 \
  http://127.0.0.1:18080/hello.txt http://127.0.0.1:18080/numbers.txt http://127.0.0.1:18080/missing
record loopback-http-ipv6.pcap 'tcp port 18080' ::1 'http://[::1]:18080/hello.txt'
