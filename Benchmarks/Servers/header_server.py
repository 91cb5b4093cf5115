"""An HTTP/1.1 endpoint with large response heads, for the scale benchmarks.

- `/headers/N`: a 200 with N distinct header fields, `X-H-0001: value-0001` to `X-H-N: value-N`,
  and a small JSON body;
- `/big-header/SIZE`: a 200 with one header field, `X-Big`, whose value is SIZE bytes of `a`.

Each response is built once and kept, so the server's share of a request is one write of bytes
already made; connections are kept alive, one thread each. A client that refuses a head and
closes its connection mid-response is no error. Usage: header_server.py PORT
"""

import http.server
import re
import sys
from functools import lru_cache

BODY = b'{"id":42,"name":"sluice"}\n'
# A bound on the response heads the server builds (the largest is 16 MiB).
MOST_FIELDS = 100_000
MOST_BYTES = 16 << 20


@lru_cache(maxsize=64)
def response(path: str) -> bytes | None:
    """The whole response for `path`, head and body; `None` for a path the server does not know."""
    if match := re.fullmatch(r"/headers/(\d+)", path):
        count = int(match.group(1))
        if count > MOST_FIELDS:
            return None
        fields = b"".join(b"X-H-%04d: value-%04d\r\n" % (i, i) for i in range(1, count + 1))
    elif match := re.fullmatch(r"/big-header/(\d+)", path):
        size = int(match.group(1))
        if size > MOST_BYTES:
            return None
        fields = b"X-Big: " + b"a" * size + b"\r\n"
    else:
        return None
    return (
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n" % len(BODY)
        + fields
        + b"\r\n"
        + BODY
    )


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        data = response(self.path)
        if data is None:
            self.send_error(404)
            return
        try:
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    def log_message(self, format: str, *args) -> None:
        pass


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 1024

    def handle_error(self, request, client_address) -> None:
        pass  # a client that went away mid-response


if __name__ == "__main__":
    Server(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
