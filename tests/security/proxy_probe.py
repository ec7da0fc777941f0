#!/usr/bin/python3
"""Attacks on lab-http proxy, started by tests/security/proxy_security_test.cpp (issue 17, defects 1
and 9). Each mode runs its own hostile origin server on 127.0.0.1 port 0 inside this process,
drives the proxy with raw client sockets, stays within its own deadline (every wait is bounded)
and prints one JSON object on stdout. Loopback only.

  proxy_probe.py slow-origin PROXY_PORT NORMAL_URL FETCHES INTERVAL
      An origin that sends a valid response head one byte every INTERVAL seconds, never finishing
      it. FETCHES clients ask the proxy for it at once; while they wait, a normal client asks for
      NORMAL_URL (an ordinary origin) and is timed. Then the FETCHES clients leave, and the probe
      counts how many of the proxy's origin connections are still open after that.
  proxy_probe.py deadline PROXY_PORT INTERVAL
      One client fetches from the same trickling origin; the status and the seconds it took.
  proxy_probe.py slow-head PROXY_PORT INTERVAL LIMIT
      A client that sends its request head one byte every INTERVAL seconds (slowloris), for at
      most LIMIT seconds: whether the proxy closed the connection, and after how long.
  proxy_probe.py not-http PROXY_PORT greeting|reply
      An origin that speaks another protocol: an SSH-style greeting as soon as it accepts
      (greeting), or an SMTP-style line in answer to the request (reply), then it stays silent
      with the connection open. The status the client got and the seconds it took.
"""
import asyncio
import json
import sys
import time

HOST = "127.0.0.1"


class trickle_origin:
    """Accepts connections, reads the request head, then sends a response head one byte every
    `interval` seconds without ever ending it. Tracks the connections open right now."""

    def __init__(self, interval):
        self.interval = interval
        self.accepted = 0
        self.open = 0
        self.server = None
        self.port = 0
        self.accepted_event = asyncio.Event()
        self.wanted = 0

    async def start(self):
        self.server = await asyncio.start_server(self.handle, HOST, 0)
        self.port = self.server.sockets[0].getsockname()[1]

    async def handle(self, reader, writer):
        self.accepted += 1
        self.open += 1
        if self.accepted >= self.wanted:
            self.accepted_event.set()
        try:
            await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 60)
            head = b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nX-Slow: " + b"a" * 100000
            # The proxy leaving shows as end of stream on our side (or a failed write).
            gone = asyncio.ensure_future(reader.read(1))
            for i in range(len(head)):
                writer.write(head[i:i + 1])
                await writer.drain()
                done, _ = await asyncio.wait({gone}, timeout=self.interval)
                if done:
                    break
            gone.cancel()
        except (ConnectionError, asyncio.TimeoutError, asyncio.IncompleteReadError):
            pass
        finally:
            self.open -= 1
            writer.close()


async def read_status(reader, timeout):
    """The status code of the response head (0 when none came within `timeout`)."""
    try:
        line = await asyncio.wait_for(reader.readline(), timeout)
        parts = line.decode("latin-1").split(" ")
        return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0
    except (asyncio.TimeoutError, ConnectionError):
        return 0


async def proxy_get(proxy_port, url, timeout):
    """One GET through the proxy on a new connection: (status, milliseconds)."""
    start = time.monotonic()
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(HOST, proxy_port), timeout)
    except (asyncio.TimeoutError, ConnectionError):
        return 0, (time.monotonic() - start) * 1000
    writer.write(b"GET %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n" % url.encode())
    await writer.drain()
    status = await read_status(reader, timeout)
    ms = (time.monotonic() - start) * 1000
    writer.close()
    return status, ms


async def slow_origin(proxy_port, normal_url, fetches, interval):
    origin = trickle_origin(interval)
    origin.wanted = fetches
    await origin.start()
    clients = []
    for i in range(fetches):
        reader, writer = await asyncio.open_connection(HOST, proxy_port)
        writer.write(b"GET http://%s:%d/slow/%d HTTP/1.1\r\nHost: %s:%d\r\n\r\n" %
                     (HOST.encode(), origin.port, i, HOST.encode(), origin.port))
        await writer.drain()
        clients.append((reader, writer))
    try:  # every fetch reached the origin (a proxy with a fixed pool gets only its pool's worth)
        await asyncio.wait_for(origin.accepted_event.wait(), 20)
    except asyncio.TimeoutError:
        pass
    accepted = origin.accepted
    status, ms = await proxy_get(proxy_port, normal_url, 10)
    for _, writer in clients:
        writer.close()
    left = time.monotonic()
    while origin.open > 0 and time.monotonic() - left < 15:
        await asyncio.sleep(0.05)
    return {"mode": "slow-origin", "fetches": fetches, "origin_accepted": accepted,
            "normal_status": status, "normal_ms": round(ms, 1), "origin_open_after_leave": origin.open,
            "seconds_to_close": round(time.monotonic() - left, 2)}


async def deadline(proxy_port, interval):
    origin = trickle_origin(interval)
    origin.wanted = 1
    await origin.start()
    status, ms = await proxy_get(proxy_port, "http://%s:%d/slow" % (HOST, origin.port), 20)
    left = time.monotonic()
    while origin.open > 0 and time.monotonic() - left < 10:
        await asyncio.sleep(0.05)
    return {"mode": "deadline", "status": status, "seconds": round(ms / 1000, 2), "origin_open_after": origin.open}


async def slow_head(proxy_port, interval, limit):
    reader, writer = await asyncio.open_connection(HOST, proxy_port)
    start = time.monotonic()
    head = b"GET http://127.0.0.1:8080/ HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nX-Slow: " + b"a" * 100000
    gone = asyncio.ensure_future(reader.read())  # ends at the proxy's end of stream
    closed = False
    for i in range(len(head)):
        if time.monotonic() - start > limit:
            break
        try:
            writer.write(head[i:i + 1])
            await writer.drain()
        except ConnectionError:
            closed = True
            break
        done, _ = await asyncio.wait({gone}, timeout=interval)
        if done:
            closed = True
            break
    seconds = time.monotonic() - start
    if gone.done():
        gone.exception()  # retrieved: a reset is an answer too
    else:
        gone.cancel()
    writer.close()
    return {"mode": "slow-head", "closed_by_proxy": closed, "seconds": round(seconds, 2)}


async def not_http(proxy_port, how):
    async def handle(reader, writer):
        try:
            if how == "greeting":
                writer.write(b"SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u1\r\n")
            else:
                await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 20)
                writer.write(b"500 5.5.1 Command unrecognized: \"GET / HTTP/1.1\"\r\n")
            await writer.drain()
            await asyncio.wait_for(reader.read(), 30)  # silent, open until the proxy leaves
        except (ConnectionError, asyncio.TimeoutError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.close()

    server = await asyncio.start_server(handle, HOST, 0)
    port = server.sockets[0].getsockname()[1]
    status, ms = await proxy_get(proxy_port, "http://%s:%d/" % (HOST, port), 30)
    return {"mode": "not-http", "how": how, "status": status, "seconds": round(ms / 1000, 2)}


def main(argv):
    mode = argv[1] if len(argv) > 1 else ""
    if mode == "slow-origin" and len(argv) == 6:
        result = asyncio.run(slow_origin(int(argv[2]), argv[3], int(argv[4]), float(argv[5])))
    elif mode == "deadline" and len(argv) == 4:
        result = asyncio.run(deadline(int(argv[2]), float(argv[3])))
    elif mode == "slow-head" and len(argv) == 5:
        result = asyncio.run(slow_head(int(argv[2]), float(argv[3]), float(argv[4])))
    elif mode == "not-http" and len(argv) == 4 and argv[3] in ("greeting", "reply"):
        result = asyncio.run(not_http(int(argv[2]), argv[3]))
    else:
        sys.stderr.write(__doc__)
        return 2
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
