#!/bin/sh
# Recipe for smtp-session.pcapng (run as root from the repository root after building):
#   BIN=build/release/bin sh tests/integration/replay/data/record-smtp-session.sh
# lab-smtp serves example.org for alice and bob; netlab-record records the loopback while Python's
# smtplib sends one message to alice and bob, then RCPT without MAIL (503), RSET and QUIT.
set -eu
BIN=${BIN:-build/release/bin}
OUT=${OUT:-tests/integration/replay/data/smtp-session.pcapng}
work=$(mktemp -d)
trap 'kill $srv 2>/dev/null; rm -rf "$work"' EXIT
printf 'alice:secret\nbob:hunter2\n' > "$work/users.txt"
"$BIN/lab-smtp" serve --maildir "$work/mail" --domain example.org --users "$work/users.txt" \
  --listen 127.0.0.1:0 > "$work/server.log" &
srv=$!
until grep -qs '^listening on' "$work/server.log"; do sleep 0.1; done
port=$(sed -n 's/^listening on 127.0.0.1://p' "$work/server.log")
"$BIN/netlab-record" --interface lo --filter "tcp port $port" --output "$OUT" --seconds 3 > "$work/rec.log" &
rec=$!
until grep -qs '^capturing on' "$work/rec.log"; do sleep 0.1; done
/usr/bin/python3 - "$port" <<'PY'
import smtplib, sys
s = smtplib.SMTP("127.0.0.1", int(sys.argv[1]))
s.ehlo("client.test")
s.sendmail("carol@example.net", ["alice@example.org", "bob@example.org"], "Subject: hi\r\n\r\nHello.\r\n.dot\r\n")
print(s.rcpt("nobody@example.org"))
s.rset()
s.quit()
PY
wait $rec
