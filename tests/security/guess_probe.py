#!/usr/bin/python3
"""Password guessing against the netlab servers, started by tests/security/auth_guessing_test.cpp.

Speaks each protocol with Python's standard clients (smtplib with STARTTLS, poplib, ftplib,
http.client), on 127.0.0.1 only, and prints one JSON object.

  guess_probe.py rate PROTO PORT SECONDS SESSIONS
      First a control: bob logs in with his right password (the detector must see a success).
      Then SESSIONS parallel sessions guess alice's password for SECONDS seconds. A guess is an
      attempt the server answered as a wrong password (SMTP 535, POP3 -ERR [AUTH] invalid,
      FTP 530, HTTP 401); a refusal is an answer that it did not look at the password (locked
      out: SMTP 454, POP3 -ERR [AUTH] too many, FTP 421 try again, HTTP 429).
      {"guesses", "refused", "seconds", "guesses_per_second", "control_ok", "wrong_accepted"}
  guess_probe.py recover PROTO PORT
      Three wrong passwords for alice, then her right one (must be refused: locked out), then the
      right one every 0.2 s until it is accepted (at most 20 s).
      {"guesses", "right_refused_while_locked", "recovered", "recovered_after_seconds"}

Every socket has a timeout and every loop is bounded in count and time.
"""
import base64
import ftplib
import http.client
import json
import poplib
import smtplib
import socket
import ssl
import sys
import threading
import time

HOST = "127.0.0.1"
USERS = {"alice": "secret", "bob": "hunter2"}

GUESS, REFUSED, OK, CLOSED = "guess", "refused", "ok", "closed"


def tls_context():
    ctx = ssl.create_default_context()
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    return ctx


class smtp_session:
    def __init__(self, port, timeout):
        self.c = smtplib.SMTP(HOST, port, timeout=timeout)
        self.c.ehlo("probe.example")
        self.c.starttls(context=tls_context())
        self.c.ehlo("probe.example")

    def attempt(self, user, password):
        token = base64.b64encode(b"\0" + user.encode() + b"\0" + password.encode()).decode()
        code, _ = self.c.docmd("AUTH", "PLAIN " + token)
        if code == 235:
            return OK
        if code == 535:
            return GUESS
        if code == 454:
            return REFUSED
        return CLOSED  # 421 after too many errors, or anything else: start a new session

    def set_timeout(self, t):
        self.c.sock.settimeout(t)

    def close(self):
        try:
            self.c.close()
        except Exception:
            pass


class pop3_session:
    def __init__(self, port, timeout):
        self.c = poplib.POP3(HOST, port, timeout=timeout)

    def attempt(self, user, password):
        try:
            self.c.user(user)
            self.c.pass_(password)
            return OK
        except poplib.error_proto as e:
            text = e.args[0] if e.args else b""
            if b"[AUTH] invalid" in text:
                return GUESS
            if b"[AUTH] too many" in text:
                return REFUSED
            return CLOSED

    def set_timeout(self, t):
        self.c.sock.settimeout(t)

    def close(self):
        try:
            self.c.close()
        except Exception:
            pass


class ftp_session:
    def __init__(self, port, timeout):
        self.c = ftplib.FTP(timeout=timeout)
        self.c.connect(HOST, port)

    def attempt(self, user, password):
        try:
            self.c.login(user, password)
            return OK
        except ftplib.error_perm as e:
            return GUESS if str(e).startswith("530") else CLOSED
        except ftplib.error_temp as e:
            if "try again" in str(e):
                return REFUSED
            # 421 after the connection's own limit of failed logins: the answer to a guess
            return GUESS if "Too many failed logins" in str(e) else CLOSED

    def set_timeout(self, t):
        self.c.sock.settimeout(t)

    def close(self):
        try:
            self.c.close()
        except Exception:
            pass


class http_session:
    def __init__(self, port, timeout):
        self.c = http.client.HTTPConnection(HOST, port, timeout=timeout)
        self.c.connect()

    def set_timeout(self, t):
        self.c.timeout = t
        if self.c.sock:
            self.c.sock.settimeout(t)

    def attempt(self, user, password):
        token = base64.b64encode((user + ":" + password).encode()).decode()
        self.c.request("GET", "/private/secret.txt", headers={"Authorization": "Basic " + token})
        r = self.c.getresponse()
        r.read()
        if r.status == 200:
            return OK
        if r.status == 401:
            return GUESS
        if r.status == 429:
            return REFUSED
        return CLOSED

    def close(self):
        self.c.close()


SESSIONS = {"smtp": smtp_session, "pop3": pop3_session, "ftp": ftp_session, "http": http_session}


def one_attempt(proto, port, user, password, timeout=20.0):
    s = SESSIONS[proto](port, timeout)
    try:
        return s.attempt(user, password)
    finally:
        s.close()


def rate(proto, port, seconds, sessions):
    """The sessions are set up first (TLS handshakes take a while on a loaded machine), then all
    guess at once for `seconds`; a session the server closes is replaced within the window."""
    control_ok = one_attempt(proto, port, "bob", USERS["bob"]) == OK
    lock = threading.Lock()
    counts = {GUESS: 0, REFUSED: 0, OK: 0, CLOSED: 0, "errors": 0}
    window = {"deadline": None}
    ready = threading.Barrier(sessions + 1, timeout=120)
    go = threading.Event()

    def open_session():
        try:
            return SESSIONS[proto](port, 60.0)
        except (OSError, EOFError, smtplib.SMTPException, poplib.error_proto, ftplib.Error):
            with lock:
                counts["errors"] += 1
            return None

    def guesser(k):
        s = open_session()
        ready.wait()
        go.wait(120)
        deadline = window["deadline"]
        n = 0
        while time.monotonic() < deadline and n < 100000:
            if s is None:
                s = open_session()
                if s is None:
                    continue
            try:
                while time.monotonic() < deadline and n < 100000:
                    n += 1
                    s.set_timeout(max(deadline - time.monotonic(), 0.05))  # a held answer ends at the deadline
                    outcome = s.attempt("alice", "guess-%d-%d" % (k, n))
                    if time.monotonic() > deadline:
                        break  # answered after the window: not counted
                    with lock:
                        counts[outcome] += 1
                    if outcome == CLOSED:
                        break
            except (OSError, EOFError, smtplib.SMTPException, poplib.error_proto, ftplib.Error,
                    http.client.HTTPException):
                pass  # a held answer still pending at the deadline, or the server closed
            s.close()
            s = None

    threads = [threading.Thread(target=guesser, args=(k,)) for k in range(sessions)]
    for t in threads:
        t.start()
    ready.wait()  # every session is set up
    started = time.monotonic()
    window["deadline"] = started + seconds
    go.set()
    for t in threads:
        t.join(seconds + 90)
    elapsed = min(time.monotonic() - started, float(seconds))
    return {"protocol": proto, "sessions": sessions, "seconds": round(elapsed, 3), "guesses": counts[GUESS],
            "refused": counts[REFUSED], "wrong_accepted": counts[OK], "closed": counts[CLOSED],
            "connect_errors": counts["errors"], "guesses_per_second": round(counts[GUESS] / elapsed, 3),
            "control_ok": control_ok}


def recover(proto, port):
    guesses = sum(one_attempt(proto, port, "alice", "wrong-%d" % i) == GUESS for i in range(3))
    right_refused = one_attempt(proto, port, "alice", USERS["alice"]) == REFUSED
    started = time.monotonic()
    recovered, after = False, None
    for _ in range(100):
        if time.monotonic() - started > 20:
            break
        if one_attempt(proto, port, "alice", USERS["alice"]) == OK:
            recovered, after = True, round(time.monotonic() - started, 3)
            break
        time.sleep(0.2)
    return {"protocol": proto, "guesses": guesses, "right_refused_while_locked": right_refused,
            "recovered": recovered, "recovered_after_seconds": after}


def main():
    mode, proto, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    if mode == "rate":
        out = rate(proto, port, float(sys.argv[4]), int(sys.argv[5]))
    else:
        out = recover(proto, port)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
