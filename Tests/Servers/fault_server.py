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
  /many-headers?kib=N        N header lines of 1 KiB each (default 400: a head past 300 KiB)
  /endless-headers           a status line and one header field, then nothing (the head never ends)
  /drip?interval=S           Content-Length: 1000, one byte every S seconds (default 0.5)
  /gzip-bomb                 Content-Encoding: gzip; 128 MiB of zeros in about 128 KiB on the wire
  /bomb/CODING               the same 128 MiB of zeros in br or zstd (a few KiB on the wire), or in
                             deflate blocks that decode to nothing, without end (CODING=empty-deflate)
  /encoded?coding=LIST&bytes=N&cut=K&trailing=TEXT&corrupt=1&chunked=1
                             N bytes of text (default 100000; /encoded?bytes=N alone is the plain
                             reference) in the content codings LIST names, applied left to right,
                             each written by its own reference encoder (Python's gzip and zlib,
                             Google's Brotli, python-zstandard): gzip, x-gzip, deflate (zlib),
                             deflate-raw (raw deflate, labelled deflate), gzip-members (two gzip
                             members, labelled gzip), zstd-wide (a frame with a 16 MiB window,
                             labelled zstd), identity, or any other token, left as it is; cut drops
                             the coded body's last K bytes, trailing appends TEXT after it, corrupt
                             flips a byte in its middle, chunked sends it chunked
  /slow/KEY?ms=N             200 after N milliseconds (default 200), one at a time per connection;
                             /slow-stats/KEY gives {"requests": answered, "most-at-once": the most in
                             progress at once} for KEY: what a server sees of a client's concurrency
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
import json
import socket
import struct
import sys
import zlib
from urllib.parse import parse_qs, urlsplit

import brotli
import zstandard

BOMB_SIZE = 128 * 1024 * 1024
GZIP_BOMB = gzip.compress(bytes(BOMB_SIZE), compresslevel=9)
# A TLS alert record: level fatal (2), description handshake_failure (40).
HANDSHAKE_FAILURE_ALERT = bytes([0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x28])

busy_counts = {}
slow_stats = {}
encoded_bodies = {}


def text_body(size):
    """The plain bytes /encoded codes: numbered lines of text, cut to `size`."""
    line_count = size // 40 + 1
    text = "".join(f"line {i:07d} of the content-coding body.\n" for i in range(line_count))
    return text.encode()[:size]


def encode(body, coding):
    """`body` in one coding, by its reference encoder; returns (bytes, the label it goes by)."""
    if coding in ("gzip", "x-gzip"):
        return gzip.compress(body, mtime=0), coding
    if coding == "gzip-members":
        half = len(body) // 2
        return gzip.compress(body[:half], mtime=0) + gzip.compress(body[half:], mtime=0), "gzip"
    if coding == "deflate":
        return zlib.compress(body), "deflate"
    if coding == "deflate-raw":
        compressor = zlib.compressobj(wbits=-15)
        return compressor.compress(body) + compressor.flush(), "deflate"
    if coding == "br":
        # Quality 5, not 11: the same format, made fast enough not to hold up the other faults.
        return brotli.compress(body, quality=5), "br"
    if coding == "zstd":
        return zstandard.ZstdCompressor().compress(body), "zstd"
    if coding == "zstd-wide":
        parameters = zstandard.ZstdCompressionParameters(window_log=24, write_content_size=False)
        # Streamed, so the encoder does not know the size and shrink the window to it.
        compressor = zstandard.ZstdCompressor(compression_params=parameters).compressobj()
        return compressor.compress(body) + compressor.flush(), "zstd"
    return body, coding


BOMBS = {
    "br": brotli.compress(bytes(BOMB_SIZE), quality=5),
    "zstd": zstandard.ZstdCompressor(level=3).compress(bytes(BOMB_SIZE)),
}


def encoded_body(size, codings):
    """The /encoded body of `size` in `codings` and their labels, made once per pair: the server
    is one thread, and every fault waits while it compresses."""
    key = (size, codings)
    if key not in encoded_bodies:
        body = text_body(size)
        labels = []
        for coding in codings:
            body, label = encode(body, coding)
            labels.append(label)
        encoded_bodies[key] = (body, labels)
    return encoded_bodies[key]


def chunked(body):
    """`body` in chunks of 4 KiB, with the last chunk."""
    out = b""
    for start in range(0, len(body), 4096):
        piece = body[start:start + 4096]
        out += f"{len(piece):x}\r\n".encode() + piece + b"\r\n"
    return out + b"0\r\n\r\n"


async def encoded(query, writer):
    codings = tuple(coding.strip() for coding in query.get("coding", [""])[0].split(",") if coding.strip())
    body, labels = encoded_body(int(query.get("bytes", ["100000"])[0]), codings)
    cut = int(query.get("cut", ["0"])[0])
    if cut:
        body = body[:-cut]
    if "corrupt" in query:
        middle = len(body) // 2
        body = body[:middle] + bytes([body[middle] ^ 0xFF]) + body[middle + 1:]
    body += query.get("trailing", [""])[0].encode()
    fields = [("Content-Type", "text/plain")]
    if labels:
        fields.append(("Content-Encoding", ", ".join(labels)))
    if "chunked" in query:
        writer.write(head("200 OK", fields + [("Transfer-Encoding", "chunked")]) + chunked(body))
    else:
        writer.write(head("200 OK", fields, len(body)) + body)


async def endless_empty_deflate(writer):
    """A zlib header, then empty stored blocks, one every millisecond, until the client leaves."""
    writer.write(head("200 OK", [("Content-Encoding", "deflate"), ("Transfer-Encoding", "chunked")]))
    writer.write(b"2\r\n\x78\x9c\r\n")
    block = b"\x00\x00\x00\xff\xff" * 800
    while True:
        writer.write(f"{len(block):x}\r\n".encode() + block + b"\r\n")
        await writer.drain()
        await asyncio.sleep(0.001)


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
    if path == "/latin1-headers":
        # Field values in ISO-8859-1 (RFC 9110 section 5.5's obs-text), beside the same text in UTF-8.
        writer.write(
            b"HTTP/1.1 200 Caf\xe9\r\nX-Latin1: caf\xe9\r\nX-UTF8: caf\xc3\xa9\r\nX-Mixed: \xc3\xa9 \xe9\r\n"
            b"Content-Disposition: attachment; filename=\"r\xe9sum\xe9.txt\"\r\nContent-Length: 2\r\n\r\nok"
        )
        return True
    if path == "/many-headers":
        lines = b"".join(b"X-Line-%d: %s\r\n" % (number, b"b" * 1000) for number in range(int(query.get("kib", ["400"])[0])))
        writer.write(b"HTTP/1.1 200 OK\r\n" + lines + b"Content-Length: 0\r\n\r\n")
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
    if path.startswith("/bomb/"):
        coding = path[len("/bomb/"):]
        if coding == "empty-deflate":
            await endless_empty_deflate(writer)
        coded = BOMBS[coding]
        fields = [("Content-Type", "application/octet-stream"), ("Content-Encoding", coding)]
        writer.write(head("200 OK", fields, len(coded)) + coded)
        return True
    if path.startswith("/slow/"):
        stats = slow_stats.setdefault(path[len("/slow/"):], {"requests": 0, "now": 0, "most-at-once": 0})
        stats["now"] += 1
        stats["most-at-once"] = max(stats["most-at-once"], stats["now"])
        await asyncio.sleep(int(query.get("ms", ["200"])[0]) / 1000)
        stats["now"] -= 1
        stats["requests"] += 1
        writer.write(head("200 OK", [("Content-Type", "text/plain")], 2) + b"ok")
        return True
    if path.startswith("/slow-stats/"):
        stats = slow_stats.get(path[len("/slow-stats/"):], {"requests": 0, "most-at-once": 0})
        body = json.dumps({"requests": stats["requests"], "most-at-once": stats["most-at-once"]}).encode()
        writer.write(head("200 OK", [("Content-Type", "application/json")], len(body)) + body)
        return True
    if path == "/encoded":
        await encoded(query, writer)
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
