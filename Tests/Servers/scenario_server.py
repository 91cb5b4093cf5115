"""A small HTTP server with state, for the scenarios httpbin and nginx cannot play.

Started on loopback by scripts/test-servers (its port goes into servers.json as "scenario").

  /flaky/KEY?failures=N&status=S&retry-after=V   of every N+1 requests for KEY, the first N answer S
                                                  (503 by default) with Retry-After V if given, the
                                                  last 200: a retry with N+1 attempts always passes
  /reset/KEY?failures=N                           the same, the failures being connection resets
  /count/KEY                                      {"count": requests seen for KEY}
  /oauth/REALM/token                              OAuth 2.0 client credentials (RFC 6749, 4.4): client
                                                  sluice-client / s3cr3t-value, by Basic or in the body
  /oauth/REALM/resource                           200 with the current token, 401 without it
  /oauth/REALM/revoke                             the current token stops working
  /oauth/REALM/config  {"expires_in": N, "delay": S}   tokens' lifetime, and how long issuing one takes
  /oauth/REALM/stats                              {"token_requests", "resource_requests", "unauthorized"}
  /aws/SERVICE/...                                checks AWS SigV4 with botocore's own signer (key
                                                  AKIDEXAMPLE, region us-east-1): 200 or 403
  /hmac/...                                       checks an X-Signature HMAC-SHA256 over method, path,
                                                  query and body digest with key hmac-test-secret
  /cache/KEY?cache-control=&etag=&last-modified=&expires=&vary=&age=&date=&status=&location=&set-cookie=&delay=
                                                  an HTTP cache's origin: 200 (or `status`) with each
                                                  given field and {"key", "n", "conditional", "echo"};
                                                  304 when If-None-Match holds the etag, or
                                                  If-Modified-Since equals last-modified (with
                                                  `etag-304` instead of the etag when given); every
                                                  request counted in /count/KEY, 304s in /count/KEY:304
  /cache-mode/KEY  {"status": S} or {"reset": true} or {}   later /cache/KEY requests answer S, or
                                                  reset the connection, or behave again
  /cache/KEY?...&held=1                           answers only once POST /cache-release/KEY came
                                                  (at most 60 s later): a request kept in flight for
                                                  as long as a test needs, whatever the machine's load
  /events/KEY?count=N&drop-after=K&retry=MS&type=T&padding=B
                                                  a text/event-stream of events with ids 1..N (data
                                                  "event I", type T if given, `retry` MS in the first
                                                  one), chunked; it resumes after the Last-Event-ID the
                                                  request carries, and breaks the connection (no last
                                                  chunk) after K events of one connection (with
                                                  `partial`, after half of the next event: its id
                                                  and data, no blank line). Once all N
                                                  are sent it ends the body; a request past the last id
                                                  gets 204, which ends an EventSource for good.
                                                  /events-log/KEY lists the Last-Event-ID of each request
  /sse-script/KEY  {"connections": [{"status", "contentType", "stream", "location"}, ...]}
                                                  what the next requests for /sse/KEY answer, one
                                                  connection each, in order (a 204 once they run out);
                                                  /sse-log/KEY lists the Last-Event-ID of each request
                                                  (null when it sent none)
  /raw/...                                         {"request_line", "headers": [[name, value], ...],
                                                  "body": base64}: the request as it came, its
                                                  fields in order and case as sent, its body
                                                  de-chunked (any method); any path answers so
                                                  for a request with X-Record-Request: 1
  /conformance/bytes/N?chunked=1                  N bytes of "abc...z" repeated, with Content-Length
                                                  (or chunked): the transport conformance suite's body
  /conformance/echo                               the request body back, de-chunked, as
                                                  application/octet-stream
  /conformance/status/S                           status S, an empty body
  /conformance/hold                               the head, one byte, then nothing for 60 s (or until
                                                  the client leaves): an exchange to cancel mid-body
  /cookie-check/KEY                               a site's cookie check: without the cookie
                                                  `check-KEY=1`, 302 to this same URL setting it
                                                  (Path=/); with it, 200 {"cookie": its value}
  /stall/KEY?after=MS&for=MS                      quick answers, but a pause: counted from KEY's first
                                                  request, every request that arrives between `after`
                                                  and `after`+`for` ms is held until that pause ends, as
                                                  a server stopped by a garbage collector holds them
"""

import base64
import hashlib
import hmac
import json
import socket
import struct
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

CLIENT_ID = "sluice-client"
CLIENT_SECRET = "s3cr3t-value"
AWS_KEY = ("AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY")
HMAC_KEY = b"hmac-test-secret"

lock = threading.Lock()
counts = {}
realms = {}
cache_modes = {}
# /cache/KEY?held=1 waits for its key's event, which POST /cache-release/KEY sets.
releases = {}
event_logs = {}
stall_starts = {}
sse_scripts = {}
sse_logs = {}


def realm(name):
    return realms.setdefault(name, {"serial": 0, "token": None, "expires_in": 3600, "delay": 0.0,
                                    "token_requests": 0, "resource_requests": 0, "unauthorized": 0})


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # The head and the body are written apart: without TCP_NODELAY, Nagle's algorithm holds the
    # body until the client's delayed ACK, 40 ms on Linux, and every answer would take that long.
    disable_nagle_algorithm = True

    def log_message(self, format, *args):
        pass

    def answer(self, status, document, headers=()):
        body = json.dumps(document).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def body(self):
        if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
            data = b""
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    return data
                data += self.rfile.read(size)
                self.rfile.readline()
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def __getattr__(self, name):
        # Any method reaches /raw/ (curl's -X takes any token); others get 501 as before.
        if name.startswith("do_"):
            return self.handle_any
        raise AttributeError(name)

    def handle_any(self):
        url = urlsplit(self.path)
        parts = url.path.strip("/").split("/")
        query = {name: values[-1] for name, values in parse_qs(url.query, keep_blank_values=True).items()}
        body = self.body()
        if parts[0] in ("flaky", "reset", "count") and len(parts) >= 2:
            key = parts[1]
            with lock:
                if parts[0] != "count":
                    counts[key] = counts.get(key, 0) + 1
                seen = counts.get(key, 0)
            if parts[0] == "count":
                return self.answer(200, {"count": seen})
            failures = int(query.get("failures", "0"))
            if seen % (failures + 1) != 0:
                if parts[0] == "reset":
                    self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                    self.close_connection = True
                    self.connection.close()
                    return
                headers = [("Retry-After", query["retry-after"])] if "retry-after" in query else []
                return self.answer(int(query.get("status", "503")), {"attempt": seen}, headers)
            return self.answer(200, {"attempt": seen})
        if parts[0] == "raw" or self.headers.get("X-Record-Request") == "1":
            return self.answer(200, {
                "request_line": self.raw_requestline.decode("latin-1").rstrip("\r\n"),
                "headers": [[name, value] for name, value in self.headers.raw_items()],
                "body": base64.b64encode(body).decode(),
            })
        if parts[0] == "conformance" and len(parts) >= 2:
            return self.conformance(parts[1:], query, body)
        if parts[0] == "stall" and len(parts) == 2:
            return self.stall(parts[1], query)
        if parts[0] == "cache" and len(parts) == 2:
            return self.cache(parts[1], query)
        if parts[0] == "cookie-check" and len(parts) == 2:
            name = "check-" + parts[1]
            cookies = dict(pair.strip().split("=", 1) for pair in self.headers.get("Cookie", "").split(";") if "=" in pair)
            if name in cookies:
                return self.answer(200, {"cookie": cookies[name]})
            return self.answer(302, {}, [("Location", self.path), ("Set-Cookie", name + "=1; Path=/")])
        if parts[0] == "events" and len(parts) == 2:
            return self.events(parts[1], query)
        if parts[0] == "events-log" and len(parts) == 2:
            with lock:
                return self.answer(200, {"last_event_ids": event_logs.get(parts[1], [])})
        if parts[0] == "sse-script" and len(parts) == 2:
            with lock:
                sse_scripts[parts[1]] = list(json.loads(body)["connections"])
                sse_logs[parts[1]] = []
            return self.answer(200, {"scripted": len(sse_scripts[parts[1]])})
        if parts[0] == "sse-log" and len(parts) == 2:
            with lock:
                return self.answer(200, {"last_event_ids": sse_logs.get(parts[1], [])})
        if parts[0] == "sse" and len(parts) == 2:
            return self.scripted_events(parts[1])
        if parts[0] == "cache-release" and len(parts) == 2:
            with lock:
                release = releases.setdefault(parts[1], threading.Event())
            release.set()
            return self.answer(200, {"released": parts[1]})
        if parts[0] == "cache-mode" and len(parts) == 2:
            with lock:
                cache_modes[parts[1]] = json.loads(body or b"{}")
            return self.answer(200, cache_modes[parts[1]])
        if parts[0] == "oauth" and len(parts) == 3:
            return self.oauth(parts[1], parts[2], body)
        if parts[0] == "aws" and len(parts) >= 2:
            return self.aws(parts[1], body)
        if parts[0] == "hmac":
            return self.hmac(url, body)
        self.answer(404, {"error": "no such scenario"})

    def conformance(self, parts, query, body):
        if parts[0] == "bytes" and len(parts) == 2:
            count = int(parts[1])
            data = bytes(ord("a") + index % 26 for index in range(count))
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            if query.get("chunked") == "1":
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                for start in range(0, count, 8192):
                    piece = data[start:start + 8192]
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
                self.wfile.write(b"0\r\n\r\n")
            else:
                self.send_header("Content-Length", str(count))
                self.end_headers()
                self.wfile.write(data)
            return
        if parts[0] == "echo":
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        if parts[0] == "status" and len(parts) == 2:
            self.send_response(int(parts[1]))
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if parts[0] == "hold":
            self.send_response(200)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"a")
            self.wfile.flush()
            self.connection.settimeout(60)
            try:
                self.connection.recv(1)
            except OSError:
                pass
            self.close_connection = True
            return
        self.answer(404, {"error": "no such conformance endpoint"})

    def stall(self, key, query):
        now = time.monotonic()
        with lock:
            first = stall_starts.setdefault(key, now)
        begins = first + int(query.get("after", "1000")) / 1000
        ends = begins + int(query.get("for", "1000")) / 1000
        held = ends - now if begins <= now < ends else 0.0
        if held > 0:
            time.sleep(held)
        return self.answer(200, {"held": round(held, 6)})

    def events(self, key, query):
        last = self.headers.get("Last-Event-ID")
        with lock:
            event_logs.setdefault(key, []).append(last)
        count = int(query.get("count", "5"))
        drop_after = int(query.get("drop-after", "0"))
        start = int(last) + 1 if last and last.isdigit() else 1
        if start > count:
            self.send_response(204)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()

        def chunk(text):
            data = text.encode()
            self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
            self.wfile.flush()

        chunk(":" + " " * int(query.get("padding", "0")) + "\n")
        for sent, number in enumerate(range(start, count + 1), 1):
            lines = []
            if number == start and "retry" in query:
                lines.append("retry: %s" % query["retry"])
            if "type" in query:
                lines.append("event: %s" % query["type"])
            lines += ["id: %d" % number, "data: event %d" % number]
            chunk("\n".join(lines) + "\n\n")
            time.sleep(0.005)
            if drop_after and sent == drop_after and number < count:
                if "partial" in query:
                    # Half of the next event: its id, its data, no blank line.
                    chunk("id: %d\ndata: partial" % (number + 1))
                self.close_connection = True
                self.connection.shutdown(socket.SHUT_RDWR)
                self.connection.close()
                return
        self.wfile.write(b"0\r\n\r\n")

    def scripted_events(self, key):
        with lock:
            # http.server reads header bytes as Latin-1; the ID was sent as UTF-8, as browsers send it.
            last = self.headers.get("Last-Event-ID")
            sse_logs.setdefault(key, []).append(last.encode("latin-1").decode("utf-8", "replace") if last is not None else None)
            script = sse_scripts.get(key, [])
            connection = script.pop(0) if script else {"status": 204, "stream": ""}
        body = connection.get("stream", "").encode("utf-8")
        self.send_response(connection["status"])
        if "contentType" in connection:
            self.send_header("Content-Type", connection["contentType"])
        if "location" in connection:
            self.send_header("Location", connection["location"])
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def cache(self, key, query):
        with lock:
            counts[key] = counts.get(key, 0) + 1
            seen = counts[key]
            mode = dict(cache_modes.get(key, {}))
        if mode.get("reset"):
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.close_connection = True
            self.connection.close()
            return
        time.sleep(float(query.get("delay", "0")))
        if query.get("held") == "1":
            with lock:
                release = releases.setdefault(key, threading.Event())
            release.wait(60)
        fields = [(name.title(), query[name]) for name in ("cache-control", "etag", "last-modified", "expires", "vary", "age",
                                                           "date", "location", "content-location", "set-cookie")
                  if name in query]
        if "status" in mode:
            return self.answer(int(mode["status"]), {"key": key, "n": seen, "error": True}, [("Cache-Control", "no-store")])
        tag, modified = query.get("etag"), query.get("last-modified")
        match = self.headers.get("If-None-Match")
        since = self.headers.get("If-Modified-Since")
        conditional = match is not None or since is not None
        if (tag is not None and match is not None and tag in [t.strip() for t in match.split(",")]) or \
                (match is None and modified is not None and since == modified):
            with lock:
                counts[key + ":304"] = counts.get(key + ":304", 0) + 1
            if "etag-304" in query:
                fields = [(n, query["etag-304"] if n == "Etag" else v) for n, v in fields]
            extra = {name: values[-1] for name, values in parse_qs(query.get("headers-304", ""), keep_blank_values=True).items()}
            fields = [(n, v) for n, v in fields if n.lower() not in {e.lower() for e in extra}] + list(extra.items())
            self.send_response(304)
            for name, value in fields:
                self.send_header(name, value)
            self.end_headers()
            return
        echo = {name: self.headers.get(name) for name in ("Accept", "Accept-Language", "Cookie") if name in self.headers}
        self.answer(int(query.get("status", "200")), {"key": key, "n": seen, "conditional": conditional, "echo": echo}, fields)

    def oauth(self, name, action, body):
        with lock:
            state = realm(name)
        if action == "config":
            with lock:
                state.update(json.loads(body or b"{}"))
            return self.answer(200, state)
        if action == "stats":
            with lock:
                return self.answer(200, {key: state[key] for key in ("token_requests", "resource_requests", "unauthorized")})
        if action == "revoke":
            with lock:
                state["token"] = None
            return self.answer(200, {"revoked": True})
        if action == "token":
            form = {name: values[-1] for name, values in parse_qs(body.decode(), keep_blank_values=True).items()}
            client = (form.get("client_id"), form.get("client_secret"))
            authorization = self.headers.get("Authorization", "")
            if authorization.startswith("Basic "):
                user, _, password = base64.b64decode(authorization[6:]).decode().partition(":")
                client = (user, password)
            if self.command != "POST" or form.get("grant_type") != "client_credentials":
                return self.answer(400, {"error": "unsupported_grant_type"})
            if client != (CLIENT_ID, CLIENT_SECRET):
                return self.answer(401, {"error": "invalid_client", "error_description": "unknown client or wrong secret"},
                                   [("WWW-Authenticate", 'Basic realm="token"')])
            time.sleep(state["delay"])
            with lock:
                state["token_requests"] += 1
                state["serial"] += 1
                state["token"] = "tok-%s-%d" % (name, state["serial"])
                document = {"access_token": state["token"], "token_type": "Bearer", "expires_in": state["expires_in"]}
                if "scope" in form:
                    document["scope"] = form["scope"]
            return self.answer(200, document, [("Cache-Control", "no-store")])
        if action == "resource":
            presented = self.headers.get("Authorization", "")
            with lock:
                state["resource_requests"] += 1
                valid = state["token"] is not None and presented == "Bearer " + state["token"]
                if not valid:
                    state["unauthorized"] += 1
            if not valid:
                return self.answer(401, {"error": "invalid_token"}, [("WWW-Authenticate", 'Bearer error="invalid_token"')])
            return self.answer(200, {"ok": True, "token": presented[7:], "body": body.decode()})
        self.answer(404, {"error": "no such action"})

    def aws(self, service, body):
        from botocore.auth import SigV4Auth
        from botocore.awsrequest import AWSRequest
        from botocore.credentials import Credentials

        authorization = self.headers.get("Authorization", "")
        try:
            signed = authorization.split("SignedHeaders=")[1].split(",")[0].split(";")
        except IndexError:
            return self.answer(403, {"message": "MissingAuthenticationToken"})
        headers = {name: ",".join(v.strip() for v in self.headers.get_all(name, [])) for name in signed}
        request = AWSRequest(method=self.command, url="http://%s%s" % (self.headers["Host"], self.path), headers=headers, data=body)
        request.context["timestamp"] = self.headers.get("X-Amz-Date", "")
        auth = SigV4Auth(Credentials(*AWS_KEY, token=self.headers.get("X-Amz-Security-Token")), service, "us-east-1")
        canonical = auth.canonical_request(request)
        expected = auth.signature(auth.string_to_sign(request, canonical), request)
        if not authorization.endswith("Signature=" + expected):
            return self.answer(403, {"message": "SignatureDoesNotMatch", "canonical": canonical})
        self.answer(200, {"verified": True, "canonical": canonical})

    def hmac(self, url, body):
        text = "\n".join([self.command, url.path or "/", url.query, hashlib.sha256(body).hexdigest()])
        expected = hmac.new(HMAC_KEY, text.encode(), hashlib.sha256).hexdigest()
        if self.headers.get("X-Signature") != expected:
            return self.answer(401, {"verified": False, "signed": text})
        self.answer(200, {"verified": True, "signed": text})

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD = handle_any


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256


if __name__ == "__main__":
    Server(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
