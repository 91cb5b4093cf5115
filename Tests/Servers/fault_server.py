"""A server that misbehaves on purpose, for the fault-injection tests.

Started on loopback by scripts/test-servers, which puts its two ports into servers.json as "fault"
(plain HTTP, one fault per path) and "faultTLS" (answers a TLS ClientHello with a handshake-failure
alert). Python's asyncio and standard library only; each connection is its own coroutine, so a
fault that never answers holds no other request up.

  /ok                        200 with a small body (the control)
  /reset-in-headers          reads the request line only, then resets the connection (RST) while the
                             client is still sending its header fields
  /short-body                Content-Length: 100000, then 1000 bytes, then close
  /truncated-chunked         chunked encoding: one chunk, then close with no last chunk
  /bad-status                a status line that is not HTTP ("HTTP/1.1 2OO OK")
  /huge-header               one header line of 200 KiB
  /endless-headers           a status line and one header field, then nothing (the head never ends)
  /drip?interval=S           Content-Length: 1000, one byte every S seconds (default 0.5)
  /gzip-bomb                 Content-Encoding: gzip; 128 MiB of zeros in about 128 KiB on the wire
  /redirect-loop             302 back to itself
  /redirect-cycle/a, /b      302 from a to b and from b to a
  /busy/KEY?failures=N&retry-after=S   503 with Retry-After: S (default 1) N times for KEY, then 200
  /silent                    reads the request and never answers; the connection stays open
  /stream?bytes=N            200 with N bytes (Content-Length set), written in 1 MiB blocks
  /answer?status=N&type=T&body=TEXT   status N (default 200) with that Content-Type (none when
                             absent) and body: the combinations clients must still judge, such as a
                             205 that carries a body
"""

import asyncio
import gzip
import socket
import struct
import sys
from urllib.parse import parse_qs, urlsplit

BOMB_SIZE = 128 * 1024 * 1024
GZIP_BOMB = gzip.compress(bytes(BOMB_SIZE), compresslevel=9)
# A TLS alert record: level fatal (2), description handshake_failure (40).
HANDSHAKE_FAILURE_ALERT = bytes([0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x28])

busy_counts = {}


def head(status, fields=(), length=None):
    lines = [f"HTTP/1.1 {status}"]
    lines += [f"{name}: {value}" for name, value in fields]
    if length is not None:
        lines.append(f"Content-Length: {length}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def reset(writer):
    """Closes with SO_LINGER 0, so the kernel sends RST instead of FIN."""
    sock = writer.get_extra_info("socket")
    if sock is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    writer.transport.abort()


async def skip_body(reader, fields):
    length = int(fields.get("content-length", "0") or 0)
    if length:
        await reader.readexactly(length)


async def answer(path, query, writer):
    """Plays the fault for `path`; returns True when the connection may carry another request."""
    if path == "/ok":
        body = b'{"ok": true}'
        writer.write(head("200 OK", [("Content-Type", "application/json")], len(body)) + body)
        return True
    if path == "/short-body":
        writer.write(head("200 OK", [("Content-Type", "application/octet-stream")], 100_000) + bytes(1000))
        return False
    if path == "/truncated-chunked":
        writer.write(head("200 OK", [("Transfer-Encoding", "chunked")]) + b"a\r\n0123456789\r\n")
        return False
    if path == "/bad-status":
        writer.write(b"HTTP/1.1 2OO OK\r\nContent-Length: 0\r\n\r\n")
        return False
    if path == "/huge-header":
        writer.write(b"HTTP/1.1 200 OK\r\nX-Huge: " + b"a" * (200 * 1024) + b"\r\nContent-Length: 0\r\n\r\n")
        return False
    if path == "/endless-headers":
        writer.write(b"HTTP/1.1 200 OK\r\nX-Started: yes\r\n")
        await writer.drain()
        await asyncio.Event().wait()
    if path == "/drip":
        interval = float(query.get("interval", ["0.5"])[0])
        writer.write(head("200 OK", [("Content-Type", "application/octet-stream")], 1000))
        for _ in range(1000):
            await writer.drain()
            await asyncio.sleep(interval)
            writer.write(b"x")
        return False
    if path == "/gzip-bomb":
        fields = [("Content-Type", "application/octet-stream"), ("Content-Encoding", "gzip")]
        writer.write(head("200 OK", fields, len(GZIP_BOMB)) + GZIP_BOMB)
        return True
    if path == "/redirect-loop":
        writer.write(head("302 Found", [("Location", "/redirect-loop")], 0))
        return True
    if path.startswith("/redirect-cycle/"):
        target = "/redirect-cycle/b" if path.endswith("/a") else "/redirect-cycle/a"
        writer.write(head("302 Found", [("Location", target)], 0))
        return True
    if path.startswith("/busy/"):
        key = path[len("/busy/"):]
        failures = int(query.get("failures", ["1"])[0])
        seen = busy_counts.get(key, 0)
        busy_counts[key] = seen + 1
        if seen < failures:
            retry_after = query.get("retry-after", ["1"])[0]
            writer.write(head("503 Service Unavailable", [("Retry-After", retry_after)], 0))
        else:
            body = f'{{"attempts": {seen + 1}}}'.encode()
            writer.write(head("200 OK", [("Content-Type", "application/json")], len(body)) + body)
        return True
    if path == "/silent":
        await asyncio.Event().wait()
    if path == "/stream":
        size = int(query.get("bytes", ["0"])[0])
        writer.write(head("200 OK", [("Content-Type", "application/octet-stream")], size))
        block = bytes(1 << 20)
        while size > 0:
            chunk = min(size, len(block))
            writer.write(block[:chunk] if chunk < len(block) else block)
            size -= chunk
            await writer.drain()
        return True
    if path == "/answer":
        status = int(query.get("status", ["200"])[0])
        body = query.get("body", [""])[0].encode()
        fields = [("Content-Type", query["type"][0])] if "type" in query else []
        writer.write(head(f"{status} Answer", fields, len(body)) + body)
        return True
    writer.write(head("404 Not Found", [], 0))
    return True


async def serve_http(reader, writer):
    try:
        while True:
            request_line = await reader.readline()
            if not request_line:
                return
            parts = request_line.decode("latin-1").split()
            target = urlsplit(parts[1] if len(parts) > 1 else "/")
            if target.path == "/reset-in-headers":
                reset(writer)
                return
            fields = {}
            while True:
                line = await reader.readline()
                if not line or line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("latin-1").partition(":")
                fields[name.strip().lower()] = value.strip()
            await skip_body(reader, fields)
            keep = await answer(target.path, parse_qs(target.query), writer)
            await writer.drain()
            if not keep:
                return
    except (ConnectionError, asyncio.IncompleteReadError):
        return
    finally:
        if not writer.transport.is_closing():
            writer.close()


async def serve_tls_alert(reader, writer):
    try:
        await reader.read(16 * 1024)
        writer.write(HANDSHAKE_FAILURE_ALERT)
        await writer.drain()
    except ConnectionError:
        pass
    finally:
        writer.close()


async def main(http_port, tls_port):
    http = await asyncio.start_server(serve_http, "127.0.0.1", http_port, backlog=1024)
    tls = await asyncio.start_server(serve_tls_alert, "127.0.0.1", tls_port, backlog=1024)
    async with http, tls:
        await asyncio.gather(http.serve_forever(), tls.serve_forever())


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), int(sys.argv[2])))
