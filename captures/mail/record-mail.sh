#!/bin/sh
# Recipe for the captures in captures/mail. Run as root from the repository root after building:
#   BIN=build/release/bin sh captures/mail/record-mail.sh
# It starts lab-smtp serve (with STARTTLS) and lab-pop3 serve on one Maildir, records the loopback
# interface with netlab-record, and runs the textbook's path: a user agent sends with SMTP
# (lab-smtp send, swaks with PIPELINING and a refused relay recipient, lab-smtp send --starttls),
# then the reader fetches with POP3 (Python poplib: STAT, LIST, UIDL, RETR, TOP, DELE, QUIT).
# The expected facts are in mail-path.facts.json (checked by tests/integration/mail).
set -eu
BIN=${BIN:-build/release/bin}
OUT=${OUT:-captures/mail}
work=$(mktemp -d)
pids=""
cleanup() { for p in $pids; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT
printf 'alice:secret\nbob:hunter2\n' > "$work/users.txt"
openssl req -x509 -newkey rsa:2048 -nodes -subj /CN=localhost -days 1 \
  -keyout "$work/key.pem" -out "$work/cert.pem" 2>/dev/null

"$BIN/lab-smtp" serve --maildir "$work/mail" --domain example.org --users "$work/users.txt" \
  --listen 127.0.0.1:2525 --tls-cert "$work/cert.pem" --tls-key "$work/key.pem" > "$work/smtp.out" &
pids="$pids $!"
"$BIN/lab-pop3" serve --maildir "$work/mail" --users "$work/users.txt" --listen 127.0.0.1:1110 > "$work/pop3.out" &
pids="$pids $!"
for i in $(seq 1 50); do
  grep -q listening "$work/smtp.out" && grep -q listening "$work/pop3.out" && break
  sleep 0.1
done

"$BIN/netlab-record" --interface lo --filter 'tcp port 2525 or tcp port 1110' \
  --output "$OUT/mail-path.pcapng" --seconds 8 &
rec=$!
sleep 1

# 1. lab-smtp send --raw: the message as typed, one line starting with a dot (stuffed on the wire).
printf 'From: alice@example.org\r\nTo: bob@example.org\r\nSubject: lab\r\n\r\nHello Bob.\r\n.A line with a leading dot\r\nBye\r\n' |
  "$BIN/lab-smtp" send --server 127.0.0.1:2525 --from alice@example.org --to bob@example.org --raw
# 2. swaks with PIPELINING: MAIL, RCPT, RCPT, DATA in one write; the remote recipient gets 554.
swaks --server 127.0.0.1:2525 --pipeline --from carol@other.org --to bob@example.org,victim@elsewhere.net \
  --header 'Subject: pipelined' --body 'pipelined body' > /dev/null || true
# 3. lab-smtp send --starttls: after "220 Ready to start TLS" the rest is encrypted.
printf 'secret body\n' | "$BIN/lab-smtp" send --server 127.0.0.1:2525 --from alice@example.org \
  --to bob@example.org --subject tls --starttls --insecure
sleep 0.5
# 4. The reader: POP3 with poplib.
/usr/bin/python3 - <<'PY'
import poplib
p = poplib.POP3("127.0.0.1", 1110)
p.user("bob"); p.pass_("hunter2")
p.stat(); p.list(); p.uidl(); p.retr(1); p.top(2, 0); p.dele(1)
p.quit()
PY
wait $rec
