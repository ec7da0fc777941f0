#!/usr/bin/python3
"""aiosmtpd as a grading target: an SMTP server on 127.0.0.1 port 0 with aiosmtpd's Sink handler
(accepts every message and drops it). Prints "listening on 127.0.0.1:PORT" when ready."""
import asyncio

from aiosmtpd.handlers import Sink
from aiosmtpd.smtp import SMTP


async def main():
    loop = asyncio.get_running_loop()
    server = await loop.create_server(lambda: SMTP(Sink(), hostname="aiosmtpd.test"), "127.0.0.1", 0)
    print("listening on 127.0.0.1:%d" % server.sockets[0].getsockname()[1], flush=True)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main())
