#!/usr/bin/python3
"""A pyftpdlib server for the lab client's tests: serves ROOT on 127.0.0.1:0 to anonymous (read
and write) and prints `listening on 127.0.0.1:PORT` when ready. --no-extended removes EPSV and
EPRT, so the client's fallback to PASV and PORT is exercised."""
import sys

from pyftpdlib.authorizers import DummyAuthorizer
from pyftpdlib.handlers import FTPHandler
from pyftpdlib.servers import FTPServer


def main():
    root = sys.argv[1]
    no_extended = "--no-extended" in sys.argv[2:]
    authorizer = DummyAuthorizer()
    authorizer.add_anonymous(root, perm="elradfmwMT")
    handler = type("Handler", (FTPHandler,), {})
    handler.authorizer = authorizer
    if no_extended:
        handler.proto_cmds = {k: v for k, v in FTPHandler.proto_cmds.items() if k not in ("EPSV", "EPRT")}
    server = FTPServer(("127.0.0.1", 0), handler)
    host, port = server.socket.getsockname()[:2]
    print(f"listening on {host}:{port}", flush=True)
    server.serve_forever(timeout=0.5)


if __name__ == "__main__":
    main()
