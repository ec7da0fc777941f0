#!/usr/bin/python3
"""Bounded load and fault clients for the netlab servers, started by tests/load/*_test.cpp.

Each mode runs to completion within its own deadline (every socket has a timeout, every loop is
bounded) and prints one JSON object on stdout; the C++ test checks the figures and the server
process (/proc/PID/fd, VmRSS). Loopback only.

  load_driver.py http-keepalive PORT CONNECTIONS
  load_driver.py slowloris PORT SLOW_CONNECTIONS NORMAL_REQUESTS
  load_driver.py http-vanish PORT URL_PATH FILE VANISHING COMPLETE
  load_driver.py ftp-transfers PORT FILE TRANSFERS VANISHING      (FILE is data.bin of the FTP root)
  load_driver.py smtp-senders PORT SENDERS VANISHING TAG
"""
import asyncio
import ftplib
import hashlib
import io
import json
import resource
import smtplib
import socket
import struct
import sys
import threading
import time

HOST = "127.0.0.1"
STEP_TIMEOUT = 30.0  # seconds any one read, write or connect may take


def raise_fd_limit():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def abort(sock):
    """Closes with RST (SO_LINGER 0): the peer sees the connection vanish, not a clean close."""
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()


def read_file(path):
    with open(path, "rb") as f:
        return f.read()


# ---------------------------------------------------------------- HTTP
async def read_response(reader):
    """Reads one HTTP/1.1 response with Content-Length; returns (status, body)."""
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), STEP_TIMEOUT)
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ")[1])
    length = 0
    for line in lines[1:]:
        name, _, value = line.partition(":")
        if name.strip().lower() == "content-length":
            length = int(value.strip())
    body = await asyncio.wait_for(reader.readexactly(length), STEP_TIMEOUT) if length else b""
    return status, body


async def connect(port, gate):
    async with gate:  # bounded connects in flight, so the listen backlog never overflows
        return await asyncio.wait_for(asyncio.open_connection(HOST, port), STEP_TIMEOUT)


async def http_keepalive(port, count):
    """Opens COUNT connections, all held open at once; two requests on each (keep-alive)."""
    gate = asyncio.Semaphore(256)
    all_open = asyncio.Event()
    opened = 0
    result = {"connections": count, "opened": 0, "first_answered": 0, "second_answered": 0, "errors": []}

    async def one(i):
        nonlocal opened
        try:
            reader, writer = await connect(port, gate)
        except Exception as e:  # noqa: BLE001 - reported, the test fails on it
            result["errors"].append(f"connect {i}: {e!r}")
            return
        opened += 1
        if opened == count:
            all_open.set()
        try:
            for round_key in ("first_answered", "second_answered"):
                writer.write(b"GET /index.html HTTP/1.1\r\nHost: load\r\n\r\n")
                status, body = await read_response(reader)
                if status == 200 and body:
                    result[round_key] += 1
                if round_key == "first_answered":
                    # hold every connection open until all COUNT are open at the same time
                    await asyncio.wait_for(all_open.wait(), STEP_TIMEOUT * 4)
        except Exception as e:  # noqa: BLE001
            result["errors"].append(f"conn {i}: {e!r}")
        finally:
            writer.close()

    started = time.monotonic()
    await asyncio.gather(*(one(i) for i in range(count)))
    result["opened"] = opened
    result["seconds"] = round(time.monotonic() - started, 3)
    result["errors"] = result["errors"][:5]
    return result


async def slowloris(port, slow, normal):
    """SLOW connections dribble header lines one small piece at a time while NORMAL ordinary
    requests (each on a new connection) are timed; reports the slowest normal request and how
    many slow connections the server closed (its head timeout) while they were still dribbling."""
    gate = asyncio.Semaphore(256)
    closed_by_server = 0
    result = {"slow": slow, "slow_opened": 0, "normal": normal, "normal_ok": 0, "max_normal_ms": 0.0, "errors": []}

    async def dribbler(i):
        nonlocal closed_by_server
        try:
            reader, writer = await connect(port, gate)
        except Exception as e:  # noqa: BLE001
            result["errors"].append(f"slow connect {i}: {e!r}")
            return
        result["slow_opened"] += 1
        try:
            writer.write(b"GET /index.html HTTP/1.1\r\nHost: load\r\n")
            for n in range(100):  # bounded: 100 pieces, 0.2 s apart (the server should close first)
                writer.write(f"X-{n}: a\r\n".encode())
                await writer.drain()
                try:
                    data = await asyncio.wait_for(reader.read(4096), 0.2)
                    if not data or data.startswith(b"HTTP/1.1 408"):
                        closed_by_server += 1
                        break
                except asyncio.TimeoutError:
                    pass
        except (ConnectionError, OSError):
            closed_by_server += 1
        finally:
            writer.close()

    async def normal_client():
        for _ in range(normal):
            t0 = time.monotonic()
            try:
                reader, writer = await asyncio.wait_for(asyncio.open_connection(HOST, port), STEP_TIMEOUT)
                writer.write(b"GET /index.html HTTP/1.1\r\nHost: load\r\nConnection: close\r\n\r\n")
                status, _ = await read_response(reader)
                writer.close()
                if status == 200:
                    result["normal_ok"] += 1
            except Exception as e:  # noqa: BLE001
                result["errors"].append(f"normal: {e!r}")
            result["max_normal_ms"] = max(result["max_normal_ms"], (time.monotonic() - t0) * 1000)
            await asyncio.sleep(0.02)  # spread the normal requests over the slowloris period

    tasks = [asyncio.ensure_future(dribbler(i)) for i in range(slow)]
    while result["slow_opened"] + len(result["errors"]) < slow and not all(t.done() for t in tasks):
        await asyncio.sleep(0.05)  # all dribblers connected before the normal clients start
    await normal_client()
    await asyncio.wait_for(asyncio.gather(*tasks), STEP_TIMEOUT)
    result["closed_by_server"] = closed_by_server
    result["max_normal_ms"] = round(result["max_normal_ms"], 1)
    result["errors"] = result["errors"][:5]
    return result


async def http_vanish(port, path, file, vanishing, complete):
    """VANISHING clients read a few KB of a large response then reset the connection, while
    COMPLETE clients download it whole on the same server; reports how many complete bodies match."""
    gate = asyncio.Semaphore(128)
    expected = hashlib.sha256(read_file(file)).hexdigest()
    result = {"vanished": 0, "complete": 0, "identical": 0, "errors": []}

    async def vanisher():
        reader, writer = await connect(port, gate)
        writer.write(f"GET {path} HTTP/1.1\r\nHost: load\r\n\r\n".encode())
        await asyncio.wait_for(reader.readexactly(8192), STEP_TIMEOUT)
        writer.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        writer.transport.abort()  # RST: the server sees the client vanish mid-response
        result["vanished"] += 1

    async def completer():
        reader, writer = await connect(port, gate)
        writer.write(f"GET {path} HTTP/1.1\r\nHost: load\r\nConnection: close\r\n\r\n".encode())
        status, body = await read_response(reader)
        writer.close()
        result["complete"] += 1
        if status == 200 and hashlib.sha256(body).hexdigest() == expected:
            result["identical"] += 1

    jobs = [vanisher() for _ in range(vanishing)] + [completer() for _ in range(complete)]
    for outcome in await asyncio.gather(*jobs, return_exceptions=True):
        if isinstance(outcome, Exception):
            result["errors"].append(repr(outcome))
    result["errors"] = result["errors"][:5]
    return result


# ---------------------------------------------------------------- FTP
def run_threads(target, count):
    errors = []

    def guarded(i):
        try:
            target(i)
        except Exception as e:  # noqa: BLE001
            errors.append(f"{i}: {e!r}")

    threads = [threading.Thread(target=guarded, args=(i,), daemon=True) for i in range(count)]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 120
    for t in threads:
        t.join(max(0.0, deadline - time.monotonic()))
    hung = sum(t.is_alive() for t in threads)
    if hung:
        errors.append(f"{hung} threads still running at the deadline")
    return errors


def ftp_login(port):
    ftp = ftplib.FTP()
    ftp.connect(HOST, port, timeout=STEP_TIMEOUT)
    ftp.login("load", "loadpass")
    return ftp


def ftp_transfers(port, file, transfers, vanishing):
    """TRANSFERS clients at once: each downloads data.bin (RETR) and uploads its own copy
    (STOR up-N.bin); VANISHING clients drop the control and data connections mid-RETR or
    mid-STOR. The test compares the uploaded files on disk."""
    data = read_file(file)
    size = len(data)
    digest = hashlib.sha256(data).hexdigest()
    lock = threading.Lock()
    result = {"transfers": transfers, "retr_identical": 0, "stor_done": 0, "vanished": 0}

    def client(i):
        ftp = ftp_login(port)
        got = io.BytesIO()
        ftp.retrbinary("RETR data.bin", got.write, blocksize=65536)
        ftp.storbinary(f"STOR up-{i}.bin", io.BytesIO(data), blocksize=65536)
        ftp.quit()
        with lock:
            result["stor_done"] += 1
            if hashlib.sha256(got.getvalue()).hexdigest() == digest:
                result["retr_identical"] += 1

    def vanisher(i):
        ftp = ftp_login(port)
        if i % 2 == 0:
            conn = ftp.transfercmd("RETR data.bin")
            conn.recv(4096)
        else:
            conn = ftp.transfercmd(f"STOR gone-{i}.bin")
            conn.sendall(data[: size // 3])
        abort(conn)
        abort(ftp.sock)
        with lock:
            result["vanished"] += 1

    errors = run_threads(lambda i: vanisher(i) if i < vanishing else client(i - vanishing), transfers + vanishing)
    result["errors"] = errors[:5]
    return result


# ---------------------------------------------------------------- SMTP
def smtp_senders(port, senders, vanishing, tag):
    """SENDERS clients at once each send one message carrying a unique token; VANISHING clients
    reset the connection in the middle of DATA. The test counts Maildir new/ and the tokens."""
    lock = threading.Lock()
    result = {"senders": senders, "accepted": 0, "vanished": 0}

    def sender(i):
        with smtplib.SMTP(HOST, port, timeout=STEP_TIMEOUT) as s:
            s.sendmail("load@other.org", ["alice@example.org"],
                       f"Subject: load {i}\r\n\r\ntoken {tag}-{i} end\r\n")
        with lock:
            result["accepted"] += 1

    def vanisher(i):
        s = socket.create_connection((HOST, port), timeout=STEP_TIMEOUT)
        f = s.makefile("rb")
        f.readline()
        s.sendall(b"HELO x\r\nMAIL FROM:<v@other.org>\r\nRCPT TO:<alice@example.org>\r\nDATA\r\n")
        for _ in range(8):  # greeting answered; 250 250 250 354 follow
            if f.readline().startswith(b"354"):
                break
        s.sendall(f"Subject: vanish\r\n\r\ntoken {tag}-gone-{i}\r\n".encode())
        abort(s)
        with lock:
            result["vanished"] += 1

    errors = run_threads(lambda i: vanisher(i) if i < vanishing else sender(i - vanishing), senders + vanishing)
    result["errors"] = errors[:5]
    return result


def main(argv):
    result = {"fd_limit": raise_fd_limit()}
    mode, args = argv[1], argv[2:]
    port = int(args[0])
    if mode == "http-keepalive":
        result.update(asyncio.run(http_keepalive(port, int(args[1]))))
    elif mode == "slowloris":
        result.update(asyncio.run(slowloris(port, int(args[1]), int(args[2]))))
    elif mode == "http-vanish":
        result.update(asyncio.run(http_vanish(port, args[1], args[2], int(args[3]), int(args[4]))))
    elif mode == "ftp-transfers":
        result.update(ftp_transfers(port, args[1], int(args[2]), int(args[3])))
    elif mode == "smtp-senders":
        result.update(smtp_senders(port, int(args[1]), int(args[2]), args[3]))
    else:
        print(f"unknown mode {mode}", file=sys.stderr)
        return 2
    print(json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
