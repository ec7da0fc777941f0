#!/bin/sh
# Recipe for captures/ftp/ftp-sessions.pcapng. Run as root from the repository root after building:
#   BIN=build/release/bin sh captures/ftp/record-ftp.sh
# lab-ftp serve listens on 127.0.0.5:2121 (so the filter 'host 127.0.0.5' holds the control and
# every data connection, passive and active, and nothing else on lo). Four sessions:
#   1. lab-ftp get (passive: EPSV) of data.bin (100000 bytes, fixed pattern)
#   2. lab-ftp put --active (EPRT) of the same bytes to up.bin
#   3. Python ftplib passive (PASV): NLST, RETR notes.txt in TYPE A
#   4. Python ftplib active (PORT): LIST, STOR small.bin, bounce attempt PORT 127,0,0,2,... -> 504
# Then captures/ftp/make-facts.py writes ftp-sessions.facts.json from tshark's view.
set -eu
BIN=${BIN:-build/release/bin}
RECORD=${RECORD:-$BIN/netlab-record}
OUT=${OUT:-captures/ftp}
work=$(mktemp -d)
pids=""
cleanup() { for p in $pids; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT
mkdir -p "$work/root/pub"
/usr/bin/python3 -c "
import sys
data = bytes((i * 7 + i // 256) % 251 for i in range(100000))
open('$work/data.bin', 'wb').write(data)
open('$work/root/data.bin', 'wb').write(data)
open('$work/root/notes.txt', 'w').write('first line\nsecond line\n')
open('$work/small.bin', 'wb').write(bytes(range(256)) * 4)
"
"$BIN/lab-ftp" serve --root "$work/root" --anonymous --write --listen 127.0.0.5:2121 > "$work/serve.out" &
pids="$pids $!"
for i in $(seq 1 50); do grep -q listening "$work/serve.out" && break; sleep 0.1; done

"$RECORD" --interface lo --filter 'host 127.0.0.5' --output "$OUT/ftp-sessions.pcapng" --seconds 6 &
rec=$!
sleep 1
"$BIN/lab-ftp" get ftp://127.0.0.5:2121/data.bin -o "$work/got.bin"
"$BIN/lab-ftp" put --active "$work/data.bin" ftp://127.0.0.5:2121/pub/up.bin
/usr/bin/python3 - "$work" <<'PY'
import ftplib, io, sys
work = sys.argv[1]
f = ftplib.FTP(); f.connect("127.0.0.5", 2121); f.login()
f.nlst(); f.retrlines("RETR notes.txt", lambda l: None); f.quit()
f = ftplib.FTP(); f.connect("127.0.0.5", 2121); f.login(); f.set_pasv(False)
f.retrlines("LIST", lambda l: None)
f.storbinary("STOR pub/small.bin", open(work + "/small.bin", "rb"))
try:
    f.sendcmd("PORT 127,0,0,2,200,10")
except ftplib.error_perm:
    pass
f.quit()
PY
wait $rec
/usr/bin/python3 captures/ftp/make-facts.py "$OUT/ftp-sessions.pcapng"
