#!/usr/bin/python3
"""Attack probes against the netlab servers, started by tests/security/*_test.cpp.

Each suite makes many attempts over raw sockets (no client library normalises the attack away),
decides for each whether it SUCCEEDED (the server did what an attacker wanted), and prints one
JSON object: {"suite", "attempts", "succeeded", "successes": [first few successful attempts],
"control_ok"}. The control is a legitimate request judged by the same detector (e.g. a file
inside the root holding the secret text): it must succeed, so a blind detector fails the test.
Every socket has a timeout; every loop is bounded. Loopback only.

  security_probe.py http-traversal PORT SECRET           (SECRET: text of a file outside the root)
  security_probe.py ftp-traversal PORT SECRET OUTSIDE_DIR (user probe:probe, --write)
  security_probe.py ftp-bounce PORT
  security_probe.py smtp-relay PORT
  security_probe.py smtp-starttls-injection PORT
  security_probe.py pop3-stls-injection PORT
  security_probe.py smtp-smuggling PORT MAILDIR
"""
import json
import os
import socket
import ssl
import sys

HOST = "127.0.0.1"
TIMEOUT = 10.0


class suite:
    def __init__(self, name):
        self.name, self.attempts, self.successes = name, 0, []
        self.control_ok = False  # a legitimate request the same detector must see succeed

    def record(self, label, succeeded):
        self.attempts += 1
        if succeeded:
            self.successes.append(label)

    def report(self):
        return {"suite": self.name, "attempts": self.attempts, "succeeded": len(self.successes),
                "successes": self.successes[:10], "control_ok": self.control_ok}


def recv_all(sock, limit=1 << 20):
    """Reads until the peer closes (bounded by the timeout and `limit` bytes)."""
    got = b""
    try:
        while len(got) < limit:
            b = sock.recv(65536)
            if not b:
                break
            got += b
    except (socket.timeout, ConnectionError):
        pass
    return got


class line_conn:
    """A text protocol connection: send lines, read one reply (SMTP multi-line aware)."""

    def __init__(self, port):
        self.sock = socket.create_connection((HOST, port), timeout=TIMEOUT)
        self.buf = b""

    def line(self):
        while b"\n" not in self.buf:
            b = self.sock.recv(65536)
            if not b:
                raise ConnectionError("closed")
            self.buf += b
        line, _, self.buf = self.buf.partition(b"\n")
        return line.decode("latin-1").rstrip("\r")

    def reply(self):
        """An SMTP/FTP reply: lines until 'NNN ' (a line with a space after the code)."""
        while True:
            line = self.line()
            if len(line) >= 4 and line[:3].isdigit() and line[3] == " ":
                return line
            if len(line) == 3 and line.isdigit():
                return line

    def send(self, text):
        self.sock.sendall(text.encode("latin-1") if isinstance(text, str) else text)

    def cmd(self, text):
        self.send(text + "\r\n")
        return self.reply()

    def close(self):
        self.sock.close()


# ---------------------------------------------------------------- HTTP path traversal
def traversal_paths(name):
    ups = ["../", "..%2f", "..%2F", "%2e%2e/", "%2e%2e%2f", "%2E%2E%2F", ".%2e/", "%2e./", "..\\", "..%5c", "%2e%2e%5c",
           "%252e%252e%252f", "..%252f", "..%c0%af", "..%c1%9c", "%c0%ae%c0%ae/", "....//", "..;/", ".../", "..%00/",
           "%uff0e%uff0e/", "..%u2215", "./../", "../."]
    out = []
    for up in ups:
        for depth in (1, 2, 4):
            out.append("/" + up * depth + name)
            out.append("/img/" + up * depth + name)
    out += ["//" + name, "/." + "/../" + name, "/%2f..%2f" + name, "/" + name + "%00.html", "/..", "/../",
            "/.%2e", "/img/..%2f..%2f..%2f" + name]
    return out


def http_traversal(port, secret):
    s = suite("http path traversal")
    # the file outside the root is SECRET's file: its name is secret.txt one level above the root
    targets = traversal_paths("secret.txt") + traversal_paths("../secret.txt") + ["/escape.txt", "/./escape.txt"]
    sock = socket.create_connection((HOST, port), timeout=TIMEOUT)
    sock.sendall(b"GET /control.txt HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    s.control_ok = secret.encode() in recv_all(sock)  # control.txt inside the root holds the secret text
    sock.close()
    for path in targets:
        for form in ("origin", "absolute"):
            target = path if form == "origin" else "http://127.0.0.1" + path
            sock = socket.create_connection((HOST, port), timeout=TIMEOUT)
            sock.sendall(f"GET {target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode("latin-1"))
            got = recv_all(sock)
            sock.close()
            s.record(f"GET {target}", secret.encode() in got)
    return s.report()


# ---------------------------------------------------------------- FTP
def ftp_login(port):
    c = line_conn(port)
    c.reply()
    c.cmd("USER probe")
    if not c.cmd("PASS probe").startswith("230"):
        raise RuntimeError("login failed")
    return c


def ftp_pasv(c):
    r = c.cmd("PASV")
    if not r.startswith("227"):
        return None
    nums = r[r.index("(") + 1:r.index(")")].split(",")
    return socket.create_connection((".".join(nums[:4]), int(nums[4]) * 256 + int(nums[5])), timeout=TIMEOUT)


def ftp_retr(c, path):
    """RETR path over PASV; returns the bytes received when the server said 150/125, else None."""
    data = ftp_pasv(c)
    if data is None:
        return None
    r = c.cmd("RETR " + path)
    if not r.startswith(("150", "125")):
        data.close()
        return None
    got = recv_all(data)
    data.close()
    c.reply()
    return got


def ftp_traversal(port, secret, outside_dir):
    s = suite("ftp path traversal")
    before = set(os.listdir(outside_dir))
    names = ["../secret.txt", "/../secret.txt", "..\\secret.txt", "pub/../../secret.txt", "/pub/../../secret.txt",
             "./../secret.txt", "....//secret.txt", "../../../../secret.txt", "~/../secret.txt", "%2e%2e/secret.txt",
             "..%2fsecret.txt", "/..//secret.txt", "pub/../../../secret.txt", "escape.txt", "pub/../escape.txt",
             "../" + os.path.basename(outside_dir) + "/secret.txt", outside_dir + "/secret.txt",
             "/" + outside_dir + "/secret.txt", "..", "../", "/.."]
    c = ftp_login(port)
    c.cmd("TYPE I")
    got = ftp_retr(c, "control.txt")  # inside the root, holding the secret text
    s.control_ok = got is not None and secret.encode() in got
    for name in names:
        got = ftp_retr(c, name)
        s.record(f"RETR {name}", got is not None and secret.encode() in got)
        r = c.cmd("SIZE " + name)
        s.record(f"SIZE {name}", r.startswith("213") and r.split()[-1] == str(len(secret)))
        data = ftp_pasv(c)
        if data is not None:
            r = c.cmd("LIST " + name)
            listing = recv_all(data) if r.startswith(("150", "125")) else b""
            data.close()
            if r.startswith(("150", "125")):
                c.reply()
            s.record(f"LIST {name}", b"secret.txt" in listing)
    # CWD out of the root, then look for the secret by its bare name
    for up in ("..", "../..", "/..", "pub/../..", "..\\..", "/../../..", "~", outside_dir):
        c.cmd("CWD /")
        c.cmd("CWD " + up)
        got = ftp_retr(c, "secret.txt")
        pwd = c.cmd("PWD")
        s.record(f"CWD {up} then RETR secret.txt", got is not None and secret.encode() in got)
        s.record(f"CWD {up} then PWD outside /", not pwd.startswith('257 "/') or ".." in pwd)
    # writes aimed outside the root: STOR, MKD, RNFR/RNTO, DELE
    for name in ("../planted.txt", "/../planted.txt", "pub/../../planted.txt", "../../planted.txt"):
        data = ftp_pasv(c)
        if data is not None:
            r = c.cmd("STOR " + name)
            if r.startswith(("150", "125")):
                data.sendall(b"planted")
                data.close()
                c.reply()
            else:
                data.close()
        c.cmd("MKD " + name.replace(".txt", "-dir"))
        c.cmd("RNFR pub")
        c.cmd("RNTO " + name.replace(".txt", "-renamed"))
        s.record(f"STOR/MKD/RNTO {name}", False)  # judged below by the outside folder's contents
    r = c.cmd("DELE ../secret.txt")
    s.record("DELE ../secret.txt", r.startswith("250") or not os.path.exists(os.path.join(outside_dir, "secret.txt")))
    after = set(os.listdir(outside_dir))
    planted = sorted(after - before)
    if planted:  # any new file or folder outside the root is a success of the write probes
        s.successes.append(f"created outside the root: {planted}")
    c.cmd("QUIT")
    c.close()
    return s.report()


def ftp_bounce(port):
    """PORT/EPRT naming another host or a privileged port; a listener on 127.0.0.2 notices if the
    server connects there anyway."""
    s = suite("ftp bounce")
    trap = socket.socket()
    trap.bind(("127.0.0.2", 0))
    trap.listen(16)
    trap.settimeout(0.3)
    tp = trap.getsockname()[1]
    targets = [("PORT", f"127,0,0,2,{tp >> 8},{tp & 255}"), ("PORT", "10,0,0,1,31,144"), ("PORT", "192,168,1,1,0,80"),
               ("PORT", "8,8,8,8,0,53"), ("PORT", "127,0,0,1,0,25"), ("PORT", "127,0,0,1,0,22"), ("PORT", "127,0,0,1,3,255"),
               ("PORT", "127,0,0,1,0,21"), ("PORT", "127,0,0,1,0,0"), ("PORT", "0,0,0,0,31,144"),
               ("PORT", "255,255,255,255,31,144"), ("PORT", "127,0,0,1,256,1"), ("PORT", "127,0,0,01,31,144,1"),
               ("EPRT", f"|1|127.0.0.2|{tp}|"), ("EPRT", "|1|10.0.0.1|8080|"), ("EPRT", "|1|127.0.0.1|25|"),
               ("EPRT", "|1|127.0.0.1|1023|"), ("EPRT", "|2|::1|8080|"), ("EPRT", "|2|::ffff:10.0.0.1|8080|"),
               ("EPRT", "|1|127.0.0.1|0|"), ("EPRT", "|1|127.0.0.1|70000|"), ("EPRT", "!1!127.0.0.2!8080!"),
               ("EPRT", "|1|0x7f.0.0.2|8080|"), ("EPRT", "|1|2130706434|8080|"), ("EPRT", "|1|127.1|25|")]
    c = ftp_login(port)
    own = socket.socket()  # control: the client's own address and an unprivileged port is accepted
    own.bind((HOST, 0))
    own.listen(1)
    own.settimeout(2)
    op = own.getsockname()[1]
    if c.cmd(f"PORT 127,0,0,1,{op >> 8},{op & 255}").startswith("200"):
        c.cmd("LIST")
        try:
            conn, _ = own.accept()
            recv_all(conn)
            conn.close()
            s.control_ok = True
            c.reply()
        except socket.timeout:
            pass
    own.close()
    for verb, arg in targets:
        r = c.cmd(f"{verb} {arg}")
        connected = False
        if r.startswith("200"):
            c.cmd("LIST")  # ask the server to use the data address it accepted
            try:
                conn, _ = trap.accept()
                conn.close()
                connected = True
            except socket.timeout:
                pass
        s.record(f"{verb} {arg} -> {r[:3]}", r.startswith("200") or connected)
    c.cmd("QUIT")
    c.close()
    trap.close()
    return s.report()


# ---------------------------------------------------------------- SMTP and POP3
def smtp_relay(port):
    """Unauthenticated mail to non-local recipients, in every address trick we know."""
    s = suite("smtp open relay")
    rcpts = ["victim@gmail.example", "victim@gmail.example.", "VICTIM@GMAIL.EXAMPLE", "victim%gmail.example@example.org",
             "@example.org:victim@gmail.example", "@example.org,@relay.example:victim@gmail.example",
             "victim@gmail.example@example.org", "\"victim@gmail.example\"@example.org", "gmail.example!victim@example.org",
             "victim@gmail.example%example.org", "victim@example.org.gmail.example", "victim@sub.example.org",
             "alice@example.org@gmail.example", "victim@[8.8.8.8]", "victim@[IPv6:2001:db8::1]", "victim@gmail.example>",
             "victim@gmail.example> NOTIFY=NEVER", "alice@example.org>,<victim@gmail.example",
             "victim@[127.0.0.2]", "victim(comment)@gmail.example", "<victim@gmail.example>"]
    froms = ["spam@evil.example", "alice@example.org", "", "postmaster@example.org"]
    def rcpt_reply(frm, rcpt):  # one connection per attempt: the server may close after errors
        c = line_conn(port)
        try:
            c.reply()
            c.cmd("EHLO evil.example")
            c.cmd(f"MAIL FROM:<{frm}>")
            return c.cmd(f"RCPT TO:<{rcpt}>")
        except ConnectionError:
            return "closed"
        finally:
            c.close()

    s.control_ok = rcpt_reply("someone@other.org", "alice@example.org").startswith("250")
    for frm in froms:
        for rcpt in rcpts:
            r = rcpt_reply(frm, rcpt)
            s.record(f"MAIL FROM:<{frm}> RCPT TO:<{rcpt}> -> {r[:3]}", r.startswith("2"))
    return s.report()


def count_status_lines(data, codes):
    return sum(1 for line in data.decode("latin-1").split("\r\n") if line[:1] in codes and (line[3:4] == " " or line[:3] in ("+OK", "-ER")))


def tls_injection(port, greeting_cmds, start_cmd, go_ahead, injected, after_tls, expected_after, status):
    """Sends START + INJECTED in one write; the server must answer only the go-ahead in plain
    text, start TLS, and answer nothing but AFTER_TLS inside TLS. Returns (label, succeeded)."""
    c = line_conn(port)
    c.line() if status == "pop3" else c.reply()
    for g in greeting_cmds:  # SMTP only (EHLO)
        c.cmd(g)
    c.send((start_cmd + "\r\n" + injected).encode("latin-1"))
    plain = c.line() if status == "pop3" else c.reply()
    if not plain.startswith(go_ahead):
        c.close()
        return f"{start_cmd} refused: {plain}", False
    if c.buf:  # a reply to an injected command arrived in plain text before the handshake
        c.close()
        return f"plain-text reply to injected {injected!r}: {c.buf!r}", True
    ctx = ssl.create_default_context()
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    try:
        tls = ctx.wrap_socket(c.sock, server_hostname="localhost")
    except (ssl.SSLError, OSError) as e:
        return f"handshake failed after {injected!r}: {e}", False  # the server dropped it: attack failed
    tls.settimeout(TIMEOUT)
    tls.sendall(after_tls.encode())
    got = recv_all(tls)
    tls.close()
    replies = count_status_lines(got, "2345" if status == "smtp" else "+-")
    if not injected:  # the control: no injection, and the detector counts AFTER_TLS's replies right
        return "control", replies == expected_after
    return f"{start_cmd}+{injected!r} -> {replies} replies inside TLS: {got[:200]!r}", replies != expected_after


INJECTIONS = ["NOOP\r\n", "RSET\r\n", "HELP\r\n", "MAIL FROM:<a@other.org>\r\n", "EHLO injected\r\n",
              "MAIL FROM:<a@other.org>\r\nRCPT TO:<alice@example.org>\r\n", "QUIT\r\n", "NOOP", "\r\nNOOP\r\n",
              "\nNOOP\n", "NOOP\r", " \r\n", "X" * 100 + "\r\n"]
POP3_INJECTIONS = ["USER alice\r\n", "USER alice\r\nPASS secret\r\n", "CAPA\r\n", "NOOP\r\n", "QUIT\r\n", "STAT\r\n",
                   "USER alice", "\r\nUSER alice\r\n", "\nCAPA\n", "CAPA\r", "X" * 100 + "\r\n"]


def smtp_starttls_injection(port):
    s = suite("smtp starttls injection")
    s.control_ok = tls_injection(port, ["EHLO x"], "STARTTLS", "220", "", "NOOP\r\nQUIT\r\n", 2, "smtp")[1]
    for inj in INJECTIONS:
        label, ok = tls_injection(port, ["EHLO x"], "STARTTLS", "220", inj, "QUIT\r\n", 1, "smtp")
        s.record(label, ok)
    return s.report()


def pop3_stls_injection(port):
    s = suite("pop3 stls injection")
    s.control_ok = tls_injection(port, [], "STLS", "+OK", "", "NOOP\r\nQUIT\r\n", 2, "pop3")[1]
    for inj in POP3_INJECTIONS:
        label, ok = tls_injection(port, [], "STLS", "+OK", inj, "QUIT\r\n", 1, "pop3")
        s.record(label, ok)
    return s.report()


SMUGGLE_ENDS = ["\n.\n", "\n.\r\n", "\r\n.\n", "\r.\r\n", "\r.\n", "\r\n.\r", "\n.\r", "\r.\r", "\r\n.\r\r\n",
                "\r\n\x00.\r\n", "\r\n.\x00\r\n", "\r\n .\r\n", "\r\n.\t\r\n", "\r\n..\r\n.\n"]


def smtp_smuggling(port, maildir):
    """A message whose body holds a bogus end-of-data followed by a second, forged transaction
    to bob; the attack succeeds if anything reaches bob's Maildir or the server queues twice."""
    s = suite("smtp smuggling")
    bob_new = os.path.join(maildir, "bob", "new")
    for end in SMUGGLE_ENDS + ["\r\n.\r\n"]:  # the last is the real end of data: the control
        for pipelined in (False, True):
            c = line_conn(port)
            c.reply()
            c.cmd("EHLO x")
            c.cmd("MAIL FROM:<a@other.org>")
            c.cmd("RCPT TO:<alice@example.org>")
            c.cmd("DATA")
            forged = "MAIL FROM:<admin@example.org>\r\nRCPT TO:<bob@example.org>\r\nDATA\r\nforged\r\n.\r\n"
            body = "Subject: smuggle\r\n\r\nhello" + end + forged
            if pipelined:
                c.send(body + "QUIT\r\n")
            else:
                c.send(body)
                c.send("QUIT\r\n")
            got = recv_all(c.sock).decode("latin-1")
            c.close()
            queued = got.count(" queued")
            stored = len(os.listdir(bob_new)) if os.path.isdir(bob_new) else 0
            if end == "\r\n.\r\n":
                s.control_ok = queued == 2 and stored > 0  # two real transactions: the detector sees both
                break
            s.record(f"end {end!r} pipelined={pipelined}: {queued} queued, bob has {stored}", queued > 1 or stored > 0)
    return s.report()


def main(argv):
    mode, port = argv[1], int(argv[2])
    rest = argv[3:]
    suites = {
        "http-traversal": lambda: http_traversal(port, rest[0]),
        "ftp-traversal": lambda: ftp_traversal(port, rest[0], rest[1]),
        "ftp-bounce": lambda: ftp_bounce(port),
        "smtp-relay": lambda: smtp_relay(port),
        "smtp-starttls-injection": lambda: smtp_starttls_injection(port),
        "pop3-stls-injection": lambda: pop3_stls_injection(port),
        "smtp-smuggling": lambda: smtp_smuggling(port, rest[0]),
    }
    if mode not in suites:
        print(f"unknown suite {mode}", file=sys.stderr)
        return 2
    print(json.dumps(suites[mode]()), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
