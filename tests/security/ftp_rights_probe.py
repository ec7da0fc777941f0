#!/usr/bin/python3
"""FTP client steps for tests/security/ftp_rights_test.cpp, with Python's ftplib as the real client.

  ftp_rights_probe.py ops PORT USER PASSWORD [--tls [--reuse]] OP...
      Runs each OP in order on one logged-in session and prints a JSON list of
      {"op": OP, "reply": "NNN ...", "data": TEXT} (data: what RETR received).
      OP: STOR:NAME:TEXT  APPE:NAME:TEXT  RETR:NAME  DELE:NAME  MKD:NAME  RMD:NAME
          RNFR:FROM:TO (RNFR then RNTO)  RAW:LINE (a raw command line, \\r and \\n escapes allowed)
      --tls: AUTH TLS and PROT P (explicit FTPS, RFC 4217); --reuse: the data connections
      resume the control connection's TLS session (what curl and lftp do; ftplib does not
      unless asked, which is what plain --tls tests: a fresh handshake per data connection).
  ftp_rights_probe.py hijack PORT USER PASSWORD NAME
      The attack of issue 17 (defect 6): a victim with PROT P opens a passive data port; another
      client from the same address connects to it first with a fresh TLS handshake; the victim
      asks for NAME. Prints {"victim_replies": [...], "attacker_got": TEXT}.
Every socket has a timeout; loopback only.
"""
import ftplib
import json
import socket
import ssl
import sys
import threading

HOST = "127.0.0.1"
TIMEOUT = 15.0


def putline_as_sent(self, line):
    """ftplib refuses CR and LF inside a command; an attacker's client does not."""
    self.sock.sendall((line + "\r\n").encode(self.encoding))


ftplib.FTP.putline = putline_as_sent


class reusing_ftp_tls(ftplib.FTP_TLS):
    """FTP_TLS whose data connections resume the control connection's TLS session."""

    def ntransfercmd(self, cmd, rest=None):
        conn, size = ftplib.FTP.ntransfercmd(self, cmd, rest)
        if self._prot_p:
            conn = self.context.wrap_socket(conn, server_hostname=self.host, session=self.sock.session)
        return conn, size


def unescape(text):
    return text.replace("\\r", "\r").replace("\\n", "\n")


def client_context():
    ctx = ssl.create_default_context()
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    return ctx


def login(port, user, password, tls, reuse):
    if tls:
        f = (reusing_ftp_tls if reuse else ftplib.FTP_TLS)(context=client_context(), timeout=TIMEOUT)
    else:
        f = ftplib.FTP(timeout=TIMEOUT)
    f.connect(HOST, port)
    f.login(user, password)
    if tls:
        f.prot_p()
    return f


def run_op(f, op):
    kind, _, rest = op.partition(":")
    data = None
    if kind in ("STOR", "APPE"):
        name, _, text = rest.partition(":")
        import io
        reply = f.storbinary(f"{kind} {name}", io.BytesIO(text.encode()))
    elif kind == "RETR":
        chunks = []
        reply = f.retrbinary(f"RETR {rest}", chunks.append)
        data = b"".join(chunks).decode(errors="replace")
    elif kind == "RNFR":
        old, _, new = rest.partition(":")
        f.sendcmd(f"RNFR {old}")
        reply = f.sendcmd(f"RNTO {new}")
    elif kind == "RAW":
        f.putline(unescape(rest))
        reply = f.getresp()
    else:
        reply = f.sendcmd(f"{kind} {rest}")
    return reply, data


def ops(port, user, password, args):
    tls = "--tls" in args
    reuse = "--reuse" in args
    steps = [a for a in args if not a.startswith("--")]
    f = login(port, user, password, tls, reuse)
    out = []
    for op in steps:
        try:
            reply, data = run_op(f, op)
        except ftplib.all_errors as e:
            reply, data = str(e), None
            if isinstance(e, (OSError, EOFError)) and not isinstance(e, ftplib.Error):
                # the data side failed: read the final reply of the control side
                try:
                    reply = f.getresp()
                except ftplib.all_errors as e2:
                    reply = str(e2)
        out.append({"op": op, "reply": reply.splitlines()[-1] if reply else "", "data": data})
    try:
        f.quit()
    except ftplib.all_errors:
        pass
    print(json.dumps(out))


def hijack(port, user, password, name):
    f = login(port, user, password, True, True)
    reply = f.sendcmd("PASV")
    nums = reply[reply.index("(") + 1:reply.index(")")].split(",")
    data_port = int(nums[4]) * 256 + int(nums[5])
    got = []
    ready = threading.Event()

    def attacker():
        try:
            raw = socket.create_connection((HOST, data_port), timeout=TIMEOUT)
            ready.set()
            s = client_context().wrap_socket(raw)  # a fresh handshake: no session to resume
            while True:
                b = s.recv(65536)
                if not b:
                    break
                got.append(b)
        except (OSError, ssl.SSLError):
            pass
        finally:
            ready.set()

    t = threading.Thread(target=attacker)
    t.start()
    ready.wait(TIMEOUT)
    replies = []
    f.putcmd(f"RETR {name}")
    try:
        replies.append(f.getresp())
        replies.append(f.getresp())
    except ftplib.all_errors as e:
        replies.append(str(e))
    t.join(TIMEOUT)
    try:
        f.quit()
    except ftplib.all_errors:
        pass
    print(json.dumps({"victim_replies": replies, "attacker_got": b"".join(got).decode(errors="replace")}))


def main(argv):
    if len(argv) >= 5 and argv[1] == "ops":
        ops(int(argv[2]), argv[3], argv[4], argv[5:])
    elif len(argv) == 6 and argv[1] == "hijack":
        hijack(int(argv[2]), argv[3], argv[4], argv[5])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
