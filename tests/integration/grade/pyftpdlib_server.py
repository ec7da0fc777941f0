#!/usr/bin/python3
"""pyftpdlib as a grading target: an FTP server on 127.0.0.1 port 0 serving ROOT (read-only) to
USER:PASSWORD. Prints "listening on 127.0.0.1:PORT" when ready.

  pyftpdlib_server.py ROOT USER:PASSWORD
"""
import logging
import sys

from pyftpdlib.authorizers import DummyAuthorizer
from pyftpdlib.handlers import FTPHandler
from pyftpdlib.servers import FTPServer


def main():
    root, account = sys.argv[1], sys.argv[2]
    user, password = account.split(":", 1)
    logging.disable(logging.CRITICAL)
    authorizer = DummyAuthorizer()
    authorizer.add_user(user, password, root, perm="elr")
    handler = FTPHandler
    handler.authorizer = authorizer
    server = FTPServer(("127.0.0.1", 0), handler)
    print("listening on 127.0.0.1:%d" % server.address[1], flush=True)
    server.serve_forever(handle_exit=True)


if __name__ == "__main__":
    sys.exit(main())
