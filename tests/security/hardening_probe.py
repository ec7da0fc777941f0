#!/usr/bin/python3
"""Attacks of issue 31 that need a real client library or a hostile peer, started by the C++
tests in tests/security. Loopback only; every socket has a timeout and every loop is bounded in
count and time. Each mode prints one JSON object.

  hardening_probe.py ftps-silent-data PORT USER PASSWORD LIMIT
      Logs in over FTPS (ftplib.FTP_TLS, PROT P), asks for a passive RETR of file.txt, connects to
      the data port and never starts the TLS handshake. {"reply", "seconds"}: the control
      connection's answer to the transfer and how long it took (at most LIMIT seconds).
  hardening_probe.py chunked-origin PROXY_PORT BYTES
      An origin that answers with BYTES of body in chunks (Transfer-Encoding: chunked); a client
      fetches it through the proxy. {"status", "received", "complete", "sha_ok"}.
  hardening_probe.py head-and-broken-body PROXY_PORT
      An origin that sends a valid response head and a malformed chunked body in one write. The
      client's status line ("" when the proxy sent nothing). {"status", "raw"}.
"""
import asyncio
import ftplib
import hashlib
import json
import socket
import ssl
import sys
import time

HOST = "127.0.0.1"


def tls_context():
    ctx = ssl.create_default_context()
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    return ctx


def ftps_silent_data(port, user, password, limit):
    ftp = ftplib.FTP_TLS(context=tls_context(), timeout=limit)
    ftp.connect(HOST, port)
    ftp.login(user, password)
    ftp.prot_p()
    host, data_port = ftp.makepasv()
    ftp.putcmd("RETR file.txt")
    data = socket.create_connection((HOST, data_port), timeout=limit)  # and never a handshake
    started = time.monotonic()
    reply = ""
    try:
        reply = ftp.getline()
        if reply.startswith("150"):
            reply = ftp.getline()
    except (OSError, EOFError) as e:
        reply = "closed: %s" % e
    seconds = time.monotonic() - started
    data.close()
    try:
        ftp.close()
    except Exception:
        pass
    return {"reply": reply, "seconds": round(seconds, 3)}


async def serve_once(handler):
    server = await asyncio.start_server(handler, HOST, 0)
    return server, server.sockets[0].getsockname()[1]


async def fetch_through(proxy_port, origin_port, limit=60):
    reader, writer = await asyncio.wait_for(asyncio.open_connection(HOST, proxy_port), limit)
    writer.write(("GET http://%s:%d/x HTTP/1.1\r\nHost: %s:%d\r\nConnection: close\r\n\r\n"
                  % (HOST, origin_port, HOST, origin_port)).encode())
    await writer.drain()
    raw = bytearray()
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        try:
            piece = await asyncio.wait_for(reader.read(1 << 20), max(deadline - time.monotonic(), 0.01))
        except asyncio.TimeoutError:
            break
        if not piece:
            break
        raw += piece
    writer.close()
    return bytes(raw)


def dechunk(body):
    """The data of a chunked body and whether its last chunk came."""
    out = bytearray()
    pos = 0
    for _ in range(10_000_000):
        lf = body.find(b"\r\n", pos)
        if lf < 0:
            return bytes(out), False
        size = int(body[pos:lf].split(b";")[0], 16)
        if size == 0:
            return bytes(out), True
        start = lf + 2
        if start + size + 2 > len(body):
            out += body[start:start + size]
            return bytes(out), False
        out += body[start:start + size]
        pos = start + size + 2
    return bytes(out), False


def pattern(n):
    block = bytes(range(256)) * 256  # 64 KiB
    reps, rest = divmod(n, len(block))
    return block * reps + block[:rest]


async def chunked_origin(proxy_port, size):
    body = pattern(size)

    async def handle(reader, writer):
        await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 30)
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n"
                     b"Cache-Control: no-store\r\nTransfer-Encoding: chunked\r\n\r\n")
        step = 1 << 20
        for i in range(0, len(body), step):
            piece = body[i:i + step]
            writer.write(b"%x\r\n" % len(piece) + piece + b"\r\n")
            await writer.drain()
        writer.write(b"0\r\n\r\n")
        await writer.drain()
        writer.close()

    server, port = await serve_once(handle)
    raw = await fetch_through(proxy_port, port, 120)
    server.close()
    head, _, rest = raw.partition(b"\r\n\r\n")
    status = int(head.split(b" ")[1]) if head.startswith(b"HTTP/") else 0
    chunked = b"transfer-encoding: chunked" in head.lower()
    data, complete = dechunk(rest) if chunked else (rest, None)
    return {"status": status, "received": len(data), "complete": bool(complete),
            "sha_ok": hashlib.sha256(data).digest() == hashlib.sha256(body).digest()}


async def head_and_broken_body(proxy_port):
    async def handle(reader, writer):
        await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 30)
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n"
                     b"ZZZ-not-a-chunk-size\r\nhello\r\n")
        await writer.drain()
        await asyncio.sleep(2)
        writer.close()

    server, port = await serve_once(handle)
    raw = await fetch_through(proxy_port, port, 20)
    server.close()
    status = int(raw.split(b" ")[1]) if raw.startswith(b"HTTP/") else 0
    return {"status": status, "raw": raw[:200].decode("latin-1")}


def main():
    mode = sys.argv[1]
    if mode == "ftps-silent-data":
        out = ftps_silent_data(int(sys.argv[2]), sys.argv[3], sys.argv[4], float(sys.argv[5]))
    elif mode == "chunked-origin":
        out = asyncio.run(chunked_origin(int(sys.argv[2]), int(sys.argv[3])))
    elif mode == "head-and-broken-body":
        out = asyncio.run(head_and_broken_body(int(sys.argv[2])))
    else:
        raise SystemExit("unknown mode " + mode)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
