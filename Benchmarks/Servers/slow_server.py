"""A slow HTTP/1.1 endpoint for the in-flight memory benchmark.

Every request is answered after DELAY seconds with a small JSON body; connections are kept alive.
asyncio holds any number of connections in one thread, so ten thousand waiting clients cost it
little. Usage: slow_server.py PORT [DELAY]
"""

import asyncio
import sys

BODY = b'{"slow":true}\n'


async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, delay: float) -> None:
    try:
        while True:
            head = await reader.readuntil(b"\r\n\r\n")
            length = 0
            for line in head.split(b"\r\n"):
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value.strip())
            if length:
                await reader.readexactly(length)
            await asyncio.sleep(delay)
            writer.write(
                b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s"
                % (len(BODY), BODY)
            )
            await writer.drain()
    except (asyncio.IncompleteReadError, ConnectionError, asyncio.LimitOverrunError):
        pass
    finally:
        writer.close()


async def main(port: int, delay: float) -> None:
    server = await asyncio.start_server(
        lambda r, w: serve(r, w, delay), "127.0.0.1", port, backlog=16384
    )
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), float(sys.argv[2]) if len(sys.argv) > 2 else 30.0))
