#!/usr/bin/python3
"""A deliberately broken server for netlab-grade's tests (tests/integration/grade).

  broken_server.py http --root DIR
  broken_server.py smtp --domain DOMAIN --users NAME,NAME...
  broken_server.py pop3 --user NAME:PASSWORD

Listens on 127.0.0.1 port 0 and prints "listening on 127.0.0.1:PORT" (flushed), like the lab
servers. It is a small, otherwise correct HTTP/1.1 server (persistent connections, pipelining,
Host required, 400/505 for bad request lines, 404, Last-Modified and If-Modified-Since, byte
ranges with 206/416) with four planted bugs, each meant to fail exactly one netlab-grade check:

  no Date field                          -> date_header
  HEAD answers with the body             -> head_matches_get
  unknown methods get 405, not 501       -> unknown_method_501
  the target is joined to the root as is -> path_traversal_refused (serves /etc/passwd)

In smtp mode it is a small, otherwise correct SMTP server (greeting, EHLO/HELO, NOOP, RSET, MAIL
syntax 501, DATA without recipients 503, unknown local users 550, no relaying, 512-octet command
lines, DATA with dot-stuffing) with three planted bugs:

  RCPT before MAIL is accepted with 250   -> rcpt_before_mail_503 and rset_clears_transaction
  unknown commands are answered 250       -> unknown_command_500
  QUIT is answered 221 but never closes   -> quit_221_closes

In pop3 mode it serves one account holding one message, otherwise correctly (USER/PASS, -ERR for
a wrong password, STAT/LIST/RETR with byte-stuffing, -ERR for missing messages, QUIT closes),
with three planted bugs:

  STAT before login answers +OK           -> stat_before_login_err
  unknown commands answer +OK             -> unknown_command_err
  RSET does not undelete                  -> dele_then_rset
"""
import email.utils
import os
import re
import socketserver
import sys
import urllib.parse


def response(status, reason, fields, body=b""):
    head = "HTTP/1.1 %d %s\r\n" % (status, reason)
    for name, value in fields:
        head += "%s: %s\r\n" % (name, value)
    return head.encode() + b"\r\n" + body


class http_handler(socketserver.StreamRequestHandler):
    root = "."

    def handle(self):
        for _ in range(1000):
            head = self.read_head()
            if head is None:
                return
            keep = self.answer(head)
            self.wfile.flush()
            if not keep:
                return

    def read_head(self):
        lines = []
        while len(lines) < 100:
            line = self.rfile.readline(8192)
            if not line:
                return None
            if line in (b"\r\n", b"\n"):
                return lines
            lines.append(line.decode("latin-1").rstrip("\r\n"))
        return None

    def answer(self, head):
        parts = head[0].split(" ") if head else []
        fields = {}
        for line in head[1:]:
            name, _, value = line.partition(":")
            fields[name.strip().lower()] = value.strip()
        if len(parts) != 3:
            return self.send(400, "Bad Request", False)
        method, target, version = parts
        if not re.fullmatch(r"HTTP/\d\.\d", version):
            return self.send(400, "Bad Request", False)
        if not version.startswith("HTTP/1."):
            return self.send(505, "HTTP Version Not Supported", False)
        if version == "HTTP/1.1" and "host" not in fields:
            return self.send(400, "Bad Request", False)
        keep = "close" not in fields.get("connection", "").lower()
        if method not in ("GET", "HEAD"):
            return self.send(405, "Method Not Allowed", keep)  # planted bug: should be 501
        # planted bug: no normalisation, so /../ and %2e%2e climb out of the root
        path = os.path.join(self.root, urllib.parse.unquote(target.split("?")[0]).lstrip("/"))
        if not os.path.isfile(path):
            return self.send(404, "Not Found", keep)
        return self.send_file(method, path, fields, keep)

    def send_file(self, method, path, fields, keep):
        with open(path, "rb") as f:
            body = f.read()
        mtime = int(os.path.getmtime(path))
        common = [("Content-Type", "text/html"), ("Last-Modified", email.utils.formatdate(mtime, usegmt=True))]
        ims = fields.get("if-modified-since")
        if ims:
            try:
                if email.utils.parsedate_to_datetime(ims).timestamp() >= mtime:
                    return self.send(304, "Not Modified", keep, common, b"", no_length=True)
            except (TypeError, ValueError):
                pass
        status, reason = 200, "OK"
        m = re.fullmatch(r"bytes=(\d+)-(\d*)", fields.get("range", ""))
        if m:
            first = int(m.group(1))
            last = min(int(m.group(2)) if m.group(2) else len(body) - 1, len(body) - 1)
            if first >= len(body):
                return self.send(416, "Range Not Satisfiable", keep, [("Content-Range", "bytes */%d" % len(body))])
            common.append(("Content-Range", "bytes %d-%d/%d" % (first, last, len(body))))
            body, status, reason = body[first:last + 1], 206, "Partial Content"
        # planted bug: HEAD sends the body too
        return self.send(status, reason, keep, common, body)

    def send(self, status, reason, keep, fields=(), body=None, no_length=False):
        if body is None:
            body = ("%d %s\n" % (status, reason)).encode()
        fields = list(fields)
        if not no_length:
            fields.append(("Content-Length", str(len(body))))
        if not keep:
            fields.append(("Connection", "close"))
        # planted bug: no Date field
        self.wfile.write(response(status, reason, fields, body))
        return keep


class smtp_handler(socketserver.StreamRequestHandler):
    domain = "example.org"
    users = set()

    def reply(self, text):
        self.wfile.write((text + "\r\n").encode())
        self.wfile.flush()

    def handle(self):
        self.reply("220 %s broken ESMTP" % self.domain)
        self.sender, self.rcpts, self.greeted = None, [], False
        for _ in range(1000):
            line = self.rfile.readline(4096)
            if not line:
                return
            if len(line) > 512:
                self.reply("500 5.5.2 Line too long")
                continue
            self.command(line.decode("latin-1").rstrip("\r\n"))

    def command(self, line):
        verb, _, arg = line.partition(" ")
        verb = verb.upper()
        if verb in ("EHLO", "HELO"):
            self.greeted, self.sender, self.rcpts = True, None, []
            self.reply("250-%s\r\n250 8BITMIME" % self.domain if verb == "EHLO" else "250 %s" % self.domain)
        elif verb == "NOOP":
            self.reply("250 OK")
        elif verb == "RSET":
            self.sender, self.rcpts = None, []
            self.reply("250 OK")
        elif verb == "QUIT":
            self.reply("221 Bye")  # planted bug: the connection stays open
        elif verb == "MAIL":
            self.mail(arg)
        elif verb == "RCPT":
            self.rcpt(arg)
        elif verb == "DATA":
            self.data()
        else:
            self.reply("250 OK")  # planted bug: should be 500

    def mail(self, arg):
        m = re.fullmatch(r"(?i)FROM:<([^<>]*)>.*", arg)
        if not self.greeted:
            return self.reply("503 5.5.1 EHLO first")
        if not m:
            return self.reply("501 5.5.4 Syntax: MAIL FROM:<address>")
        self.sender, self.rcpts = m.group(1), []
        self.reply("250 OK")

    def rcpt(self, arg):
        # planted bug: no check that MAIL came first
        m = re.fullmatch(r"(?i)TO:<([^<>@]+)@([^<>]+)>", arg)
        if not m:
            return self.reply("501 5.5.4 Syntax: RCPT TO:<address>")
        if m.group(2).lower() != self.domain:
            return self.reply("550 5.7.1 Relaying denied")
        if m.group(1) not in self.users:
            return self.reply("550 5.1.1 No such user")
        self.rcpts.append(m.group(1))
        self.reply("250 OK")

    def data(self):
        if self.sender is None or not self.rcpts:
            return self.reply("503 5.5.1 Need MAIL and RCPT first")
        self.reply("354 End data with <CR><LF>.<CR><LF>")
        for _ in range(100000):
            line = self.rfile.readline(4096)
            if not line or line == b".\r\n":
                break
        self.sender, self.rcpts = None, []
        self.reply("250 OK: queued")


class pop3_handler(socketserver.StreamRequestHandler):
    user, password = "alice", "secret"
    message = b"From: bob@example.org\r\nSubject: hi\r\n\r\nHello.\r\n.a line with a dot\r\n"

    def reply(self, text):
        self.wfile.write(text.encode() + b"\r\n")
        self.wfile.flush()

    def handle(self):
        self.reply("+OK broken POP3 ready")
        self.name, self.logged_in, self.deleted = None, False, False
        for _ in range(1000):
            line = self.rfile.readline(512)
            if not line:
                return
            verb, _, arg = line.decode("latin-1").strip().partition(" ")
            if verb.upper() == "QUIT":
                self.reply("+OK bye")
                return
            self.command(verb.upper(), arg)

    def command(self, verb, arg):
        if verb == "USER":
            self.name = arg
            return self.reply("+OK")
        if verb == "PASS":
            self.logged_in = self.name == self.user and arg == self.password
            return self.reply("+OK logged in" if self.logged_in else "-ERR wrong user or password")
        if verb == "STAT":  # planted bug: also answered before login
            return self.reply("+OK %d %d" % ((0, 0) if self.deleted else (1, len(self.message))))
        if not self.logged_in and verb in ("LIST", "RETR", "DELE", "RSET", "NOOP"):
            return self.reply("-ERR log in first")
        if verb == "NOOP":
            return self.reply("+OK")
        if verb == "RSET":
            return self.reply("+OK")  # planted bug: the deleted message stays deleted
        if verb in ("LIST", "RETR", "DELE"):
            return self.transaction(verb, arg)
        return self.reply("+OK")  # planted bug: should be -ERR

    def transaction(self, verb, arg):
        if verb == "LIST" and not arg:
            body = "" if self.deleted else "1 %d\r\n" % len(self.message)
            return self.reply("+OK\r\n%s." % body)
        if arg != "1" or self.deleted:
            return self.reply("-ERR no such message")
        if verb == "LIST":
            return self.reply("+OK 1 %d" % len(self.message))
        if verb == "DELE":
            self.deleted = True
            return self.reply("+OK deleted")
        stuffed = b"".join(b"." + l if l.startswith(b".") else l for l in self.message.splitlines(True))
        self.wfile.write(b"+OK\r\n" + stuffed + b".\r\n")
        self.wfile.flush()


class server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    args = sys.argv[1:]
    if args[:2] == ["http", "--root"] and len(args) == 3:
        http_handler.root = args[2]
        handler = http_handler
    elif args[:2] == ["smtp", "--domain"] and len(args) == 5 and args[3] == "--users":
        smtp_handler.domain = args[2].lower()
        smtp_handler.users = set(args[4].split(","))
        handler = smtp_handler
    elif args[:2] == ["pop3", "--user"] and len(args) == 3 and ":" in args[2]:
        pop3_handler.user, pop3_handler.password = args[2].split(":", 1)
        handler = pop3_handler
    else:
        print("usage: broken_server.py http --root DIR | smtp --domain DOMAIN --users NAME,NAME | pop3 --user NAME:PASSWORD",
              file=sys.stderr)
        return 2
    with server(("127.0.0.1", 0), handler) as s:
        print("listening on 127.0.0.1:%d" % s.server_address[1], flush=True)
        try:
            s.serve_forever()
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
