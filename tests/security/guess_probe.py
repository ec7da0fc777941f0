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

  guess_probe.py owner PROTO PORT
      Issue 31: a stranger at 127.0.0.2 sends 20 wrong passwords for alice in parallel, then 20
      more (each waiting at most 5 s for its answer); the owner then logs in from 127.1.0.1, an
      address that never failed.
      {"stranger": {outcome: n}, "owner": outcome, "owner_seconds"}
  guess_probe.py held PROTO PORT
      Issue 31: from 127.0.0.5 one wrong password (answered), then, on a new connection, another
      one, which waits for its turn longer than the server's --idle-timeout (the test sets both).
      {"first", "second", "second_seconds"}: "closed" means no answer came.
  guess_probe.py spray PROTO PORT SECONDS SESSIONS NETWORKS
      Issue 31: one password sprayed over accounts user0, user1, ... from rotating addresses of
      NETWORKS /24 networks (127.0.10.0/24 and up), SESSIONS at a time, for SECONDS.
      {"guesses", "refused", "closed", "guesses_per_second"}
  guess_probe.py proxy PROXY_PORT ORIGIN_PORT
      Issue 31: through lab-http proxy, a guesser at 127.0.0.2 sends 12 wrong passwords for alice,
      then bob asks from 127.0.0.3 with his right one. {"guesser": [status...], "bob_status"}

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
    def __init__(self, port, timeout, source=None):
        self.c = smtplib.SMTP(HOST, port, timeout=timeout, source_address=(source, 0) if source else None)
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


class pop3_from(poplib.POP3):
    """poplib has no source address: the socket is made here."""

    def __init__(self, host, port, timeout, source):
        self.source = source
        super().__init__(host, port, timeout=timeout)

    def _create_socket(self, timeout):
        return socket.create_connection((self.host, self.port), timeout,
                                        source_address=(self.source, 0) if self.source else None)


class pop3_session:
    def __init__(self, port, timeout, source=None):
        self.c = pop3_from(HOST, port, timeout, source)

    def attempt(self, user, password):
        try:
            self.c.user(user)
            self.c.pass_(password)
            return OK
        except poplib.error_proto as e:
            text = e.args[0] if e.args else b""
            if isinstance(text, str):  # poplib's own "-ERR EOF" when the server closed
                text = text.encode()
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
    def __init__(self, port, timeout, source=None):
        self.c = ftplib.FTP(timeout=timeout)
        self.c.connect(HOST, port, source_address=(source, 0) if source else None)

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
    def __init__(self, port, timeout, source=None):
        self.c = http.client.HTTPConnection(HOST, port, timeout=timeout, source_address=(source, 0) if source else None)
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


def one_attempt(proto, port, user, password, timeout=20.0, source=None):
    s = SESSIONS[proto](port, timeout, source)
    try:
        return s.attempt(user, password)
    finally:
        s.close()


def attempt_outcome(proto, port, user, password, source, timeout=40.0):
    """One attempt on a new session; CLOSED when no answer came (the server closed, or timed out)."""
    try:
        return one_attempt(proto, port, user, password, timeout, source)
    except (OSError, EOFError, smtplib.SMTPException, poplib.error_proto, ftplib.Error, http.client.HTTPException):
        return CLOSED


def parallel(count, work):
    """Runs work(k) for k in range(count) on threads; returns the results in order."""
    results = [None] * count

    def run(k):
        results[k] = work(k)

    threads = [threading.Thread(target=run, args=(k,)) for k in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    return results


def owner(proto, port):
    stranger = {}
    for _ in range(2):
        # A guesser does not wait long for a held answer: it leaves after 5 s (which the server
        # counts as a failure) and tries again.
        for outcome in parallel(20, lambda k: attempt_outcome(proto, port, "alice", "guess-%d" % k, "127.0.0.2", 5.0)):
            stranger[outcome] = stranger.get(outcome, 0) + 1
    started = time.monotonic()
    outcome = attempt_outcome(proto, port, "alice", USERS["alice"], "127.1.0.1")
    return {"protocol": proto, "stranger": stranger, "owner": outcome,
            "owner_seconds": round(time.monotonic() - started, 3)}


def held(proto, port):
    first = attempt_outcome(proto, port, "alice", "wrong-1", "127.0.0.5")
    started = time.monotonic()
    second = attempt_outcome(proto, port, "alice", "wrong-2", "127.0.0.5")
    return {"protocol": proto, "first": first, "second": second,
            "second_seconds": round(time.monotonic() - started, 3)}


def spray(proto, port, seconds, sessions, networks):
    lock = threading.Lock()
    counts = {GUESS: 0, REFUSED: 0, OK: 0, CLOSED: 0}
    state = {"k": 0}
    deadline = time.monotonic() + seconds

    def sprayer(_):
        for _ in range(100000):
            if time.monotonic() >= deadline:
                return
            with lock:
                k = state["k"]
                state["k"] += 1
            source = "127.0.%d.%d" % (10 + k % networks, 1 + (k // networks) % 254)
            outcome = attempt_outcome(proto, port, "user%d" % k, "Winter2026!", source,
                                      max(deadline - time.monotonic(), 0.05))
            if time.monotonic() > deadline:
                return  # answered after the window: not counted
            with lock:
                counts[outcome] += 1

    started = time.monotonic()
    parallel(sessions, sprayer)
    elapsed = min(time.monotonic() - started, float(seconds))
    return {"protocol": proto, "seconds": round(elapsed, 3), "networks": networks, "guesses": counts[GUESS],
            "refused": counts[REFUSED], "closed": counts[CLOSED], "wrong_accepted": counts[OK],
            "guesses_per_second": round(counts[GUESS] / elapsed, 3)}


def proxied(proxy_port, origin_port):
    def get(user, password, source):
        c = http.client.HTTPConnection(HOST, proxy_port, timeout=30, source_address=(source, 0))
        token = base64.b64encode((user + ":" + password).encode()).decode()
        c.request("GET", "http://%s:%d/private/secret.txt" % (HOST, origin_port),
                  headers={"Authorization": "Basic " + token})
        r = c.getresponse()
        r.read()
        c.close()
        return r.status

    guesser = [get("alice", "guess-%d" % i, "127.0.0.2") for i in range(12)]
    return {"guesser": guesser, "bob_status": get("bob", USERS["bob"], "127.0.0.3")}


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
    mode = sys.argv[1]
    if mode == "proxy":
        print(json.dumps(proxied(int(sys.argv[2]), int(sys.argv[3]))))
        return
    proto, port = sys.argv[2], int(sys.argv[3])
    if mode == "rate":
        out = rate(proto, port, float(sys.argv[4]), int(sys.argv[5]))
    elif mode == "owner":
        out = owner(proto, port)
    elif mode == "held":
        out = held(proto, port)
    elif mode == "spray":
        out = spray(proto, port, float(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]))
    else:
        out = recover(proto, port)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
