#!/bin/sh
# Reference session of the golden capture mail-recipients (see README.md). netlab-record --golden
# runs it while recording and sets BIN to the folder of the netlab binaries:
#   netlab-record --golden mail-recipients --filter 'tcp port 2526 or tcp port 1111' -- sh captures/golden/mail-recipients.sh
# lab-smtp serve (127.0.0.1:2526) and lab-pop3 serve (127.0.0.1:1111) share one Maildir:
#   1. Python smtplib sends one message from carol@other.org to alice, bob and dave@example.org:
#      RCPT alice and bob are accepted (250), dave is not a local user (550), DATA goes to two;
#   2. Python poplib reads alice's maildrop: STAT, RETR 1, QUIT;
#   3. Python poplib reads bob's maildrop: STAT, LIST, RETR 1, DELE 1, QUIT.
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
printf 'alice:secret\nbob:hunter2\n' > "$work/users.txt"
"$BIN/lab-smtp" serve --maildir "$work/mail" --domain example.org --users "$work/users.txt" \
  --listen 127.0.0.1:2526 > "$work/smtp.out" &
pids="$pids $!"
"$BIN/lab-pop3" serve --maildir "$work/mail" --users "$work/users.txt" --listen 127.0.0.1:1111 > "$work/pop3.out" &
pids="$pids $!"
# Wait (at most 5 s) for both readiness lines.
for i in $(seq 1 100); do
  grep -q '^listening on' "$work/smtp.out" && grep -q '^listening on' "$work/pop3.out" && break
  sleep 0.05
done
/usr/bin/python3 - <<'PY'
import poplib, smtplib
msg = ("From: carol@other.org\r\nTo: alice@example.org, bob@example.org, dave@example.org\r\n"
       "Subject: lab meeting\r\n\r\nThe lab meets on Friday.\r\n")
with smtplib.SMTP("127.0.0.1", 2526) as s:
    refused = s.sendmail("carol@other.org", ["alice@example.org", "bob@example.org", "dave@example.org"], msg)
    assert list(refused) == ["dave@example.org"], refused
p = poplib.POP3("127.0.0.1", 1111)
p.user("alice"); p.pass_("secret"); p.stat(); p.retr(1); p.quit()
p = poplib.POP3("127.0.0.1", 1111)
p.user("bob"); p.pass_("hunter2"); p.stat(); p.list(); p.retr(1); p.dele(1); p.quit()
PY
