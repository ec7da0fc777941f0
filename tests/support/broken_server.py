#!/usr/bin/python3
"""A deliberately broken server for netlab-grade's tests (tests/integration/grade).

  broken_server.py http --root DIR

Listens on 127.0.0.1 port 0 and prints "listening on 127.0.0.1:PORT" (flushed), like the lab
servers. It is a small, otherwise correct HTTP/1.1 server (persistent connections, pipelining,
Host required, 400/505 for bad request lines, 404, Last-Modified and If-Modified-Since, byte
ranges with 206/416) with four planted bugs, each meant to fail exactly one netlab-grade check:

  no Date field                          -> date_header
  HEAD answers with the body             -> head_matches_get
  unknown methods get 405, not 501       -> unknown_method_501
  the target is joined to the root as is -> path_traversal_refused (serves /etc/passwd)
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


class server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    if len(sys.argv) != 4 or sys.argv[1] != "http" or sys.argv[2] != "--root":
        print("usage: broken_server.py http --root DIR", file=sys.stderr)
        return 2
    http_handler.root = sys.argv[3]
    with server(("127.0.0.1", 0), http_handler) as s:
        print("listening on 127.0.0.1:%d" % s.server_address[1], flush=True)
        try:
            s.serve_forever()
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
