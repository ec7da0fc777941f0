#!/bin/sh
# Recipe for captures/http/serve-session.pcapng (see README.md). Run as root from the repository
# root after building: BIN=build/release/bin sh captures/http/record-sessions.sh
# It records the loopback interface with netlab-record while curl talks to lab-http serve:
# a page and two objects on one connection, a conditional GET (304), a range (206), a HEAD,
# Basic auth (401 then 200) and the cookie page twice (Set-Cookie, then Cookie).
set -eu
BIN=${BIN:-build/release/bin}
OUT=${OUT:-captures/http}
PORT=18081
www=$(mktemp -d)
trap 'rm -rf "$www"' EXIT
mkdir -p "$www/site/private"
printf '<html><link rel="stylesheet" href="style.css"><img src="a.txt"></html>\n' > "$www/site/index.html"
printf 'body { color: black; }\n' > "$www/site/style.css"
seq 1 1000 > "$www/site/a.txt"
printf 'secret page\n' > "$www/site/private/index.html"
printf 'alice:wonderland\n' > "$www/users.txt"
touch -d '2026-01-01 00:00:00 UTC' "$www/site/style.css"

"$BIN/lab-http" serve --root "$www/site" --listen 127.0.0.1:$PORT --cookies \
  --auth-dir private --auth-users "$www/users.txt" > "$www/serve.out" &
srv=$!
"$BIN/netlab-record" --interface lo --filter "tcp port $PORT" --output "$OUT/serve-session.pcapng" --seconds 4 &
rec=$!
sleep 1
U=http://127.0.0.1:$PORT
curl -s -o /dev/null -o /dev/null -o /dev/null "$U/" "$U/style.css" "$U/a.txt"             # conn 0: 3 x 200
etag=$(curl -s -D - -o /dev/null "$U/style.css" | sed -n 's/^ETag: \(.*\)\r$/\1/p')          # conn 1: 200
curl -s -o /dev/null -H "If-None-Match: $etag" "$U/style.css"                              # conn 2: 304
curl -s -o /dev/null -r 0-99 "$U/a.txt"                                                     # conn 3: 206, 100 B
curl -s -o /dev/null -I "$U/a.txt"                                                          # conn 4: HEAD 200
curl -s -o /dev/null "$U/private/"                                                          # conn 5: 401
curl -s -o /dev/null -u alice:wonderland "$U/private/"                                      # conn 6: 200
curl -s -o /dev/null -c "$www/jar" -b "$www/jar" "$U/visits"                                # conn 7: Set-Cookie sid
curl -s -o /dev/null -c "$www/jar" -b "$www/jar" "$U/visits"                                # conn 8: Cookie sid
wait $rec
kill $srv
