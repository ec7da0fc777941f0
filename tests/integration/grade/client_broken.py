#!/usr/bin/python3
"""A deliberately broken client for netlab-grade --client tests: each mode plants one known bug.

  http HOST PORT PATH                  GET without a Host field (RFC 9112 §3.2)
  smtp HOST PORT FROM RCPT MESSAGE     sends the message without dot-stuffing (RFC 5321 §4.5.2)
  pop3 HOST PORT USER PASS             retrieves every message but never sends QUIT (RFC 1939 §6)
  ftp HOST PORT USER PASS FILE OUT     downloads in the default TYPE A (RFC 959 §3.1.1.3)
Every socket has a 10 s timeout; the script exits 0 when its own dialogue went through.
"""
import socket
import sys


def connect(host, port):
    s = socket.create_connection((host, int(port)), timeout=10)
    return s, s.makefile("rb")


def reply(f):
    """One SMTP/FTP reply (multi-line aware); returns its code."""
    line = f.readline()
    code = line[:3]
    if line[3:4] == b"-":
        while not line.startswith(code + b" "):
            line = f.readline()
    return int(code)


def http(host, port, path):
    s, f = connect(host, port)
    s.sendall(b"GET " + path.encode() + b" HTTP/1.1\r\nConnection: close\r\n\r\n")
    data = f.read()
    sys.stdout.buffer.write(data.split(b"\r\n\r\n", 1)[-1])


def smtp(host, port, sender, rcpt, message):
    s, f = connect(host, port)
    reply(f)
    for line in (b"EHLO broken.test", b"MAIL FROM:<" + sender.encode() + b">", b"RCPT TO:<" + rcpt.encode() + b">",
                 b"DATA"):
        s.sendall(line + b"\r\n")
        reply(f)
    with open(message, "rb") as m:
        s.sendall(m.read() + b".\r\n")  # the bug: lines starting with "." are sent as they are
    reply(f)
    s.sendall(b"QUIT\r\n")
    reply(f)


def pop3(host, port, user, password):
    s, f = connect(host, port)
    f.readline()
    for line in (b"USER " + user.encode(), b"PASS " + password.encode()):
        s.sendall(line + b"\r\n")
        f.readline()
    s.sendall(b"STAT\r\n")
    count = int(f.readline().split()[1])
    for n in range(1, count + 1):
        s.sendall(b"RETR %d\r\n" % n)
        f.readline()
        for line in iter(f.readline, b".\r\n"):
            sys.stdout.buffer.write(line[1:] if line.startswith(b".") else line)
    s.close()  # the bug: no QUIT


def ftp(host, port, user, password, name, out):
    s, f = connect(host, port)
    reply(f)
    for line in (b"USER " + user.encode(), b"PASS " + password.encode()):
        s.sendall(line + b"\r\n")
        reply(f)
    s.sendall(b"PASV\r\n")  # the bug: no TYPE I, so the transfer is in ASCII
    line = f.readline().decode()
    nums = line[line.index("(") + 1:line.index(")")].split(",")
    data = socket.create_connection((".".join(nums[:4]), int(nums[4]) * 256 + int(nums[5])), timeout=10)
    s.sendall(b"RETR " + name.encode() + b"\r\n")
    reply(f)
    with open(out, "wb") as o:
        for chunk in iter(lambda: data.recv(65536), b""):
            o.write(chunk)
    data.close()
    reply(f)
    s.sendall(b"QUIT\r\n")
    reply(f)


if __name__ == "__main__":
    {"http": http, "smtp": smtp, "pop3": pop3, "ftp": ftp}[sys.argv[1]](*sys.argv[2:])
