"""Runs Sluice's benchmarks side by side with its peers and prints the tables (Markdown), as
Benchmarks/README.md shows them under "Latest run".

Called by scripts/bench, which installs the tools and builds the binaries first. Every figure is
the median of --runs runs, printed with the lowest and highest beside it. Runs are taken in
rounds, each measuring every client, so that drift in the machine's speed touches all of them
alike; the order of the clients changes from round to round, so that no client always follows
the same one. A target that compares two clients is the median of each round's ratio,
the two figures of a ratio taken in the same round. Each client's CPU time (user + system of its
whole process, from the kernel's accounting of finished children) is divided by the requests it
sent. Timed runs use `sluice-bench`, which nothing instruments; allocations are counted in runs of
their own by `sluice-bench-allocs`, linked with malloc-interposer. Processes measured one at a
time (the scale section) are timed and their peak memory read with `wait4`. Servers listen on
loopback only:
- nginx, one worker, keep-alive, serving a small static JSON file (also as `/cookie.json`, with a
  `Set-Cookie` field), generated JSON files of 10 and 100 MB and a 1 GiB file, on 127.0.0.1 and
  ::1 (libcurl resolves the `hNNNN.localhost` names of the many-hosts rows to both);
- Benchmarks/Servers/slow_server.py, which answers every request after a long delay;
- Benchmarks/Servers/header_server.py, which answers with many header fields or a huge one.
Every target is printed once, in the targets table at the end, with its verdict.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import platform
import re
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "Benchmarks/.build/release/sluice-bench"
BENCH_ALLOCS = ROOT / "Benchmarks/.build/release/sluice-bench-allocs"
SLUICE = ROOT / "Benchmarks/.build/release/sluice"
SLUICE_STATIC = ROOT / "Benchmarks/.build-static/release/sluice"
SLOW_SERVER = ROOT / "Benchmarks/Servers/slow_server.py"
HEADER_SERVER = ROOT / "Benchmarks/Servers/header_server.py"
JSON_BODY = b'{"id":42,"name":"sluice","tags":["http","swift"],"active":true}\n'
SECTIONS = ["throughput", "load", "chain", "memory", "cold-start", "cookie", "scale"]
CLIENTS = [
    "wrk", "curl", "sluice", "sluice-global", "sluice-run", "sluice-run-json", "async-http-client", "async-http-client-plain",
    "urlsession",
]
LABELS = {
    "wrk": "wrk (ceiling)",
    "curl": "curl CLI (`-K`, `--parallel` at c=32)",
    "sluice": "Sluice library, callers on `transport.executor`",
    "sluice-global": "Sluice library, callers on the global executor",
    "sluice-run": "Sluice runner (`sluice run --repeat`)",
    "sluice-run-json": "Sluice runner with `--format json` (`sluice run --repeat --format json`)",
    "async-http-client": "AsyncHTTPClient 1.37 (the closed loop Sluice's rows share)",
    "async-http-client-plain": "AsyncHTTPClient 1.37, plain (a task group of C `execute` loops)",
    "urlsession": "URLSession (FoundationNetworking)",
}
# URLSession is an order of magnitude slower; it sends this share of the requests, for runs of a
# similar length.
SLOW_CLIENT_SHARE = {"urlsession": 5}
# Load mode, open loop: the rates every client climbs, one rung after another, until it misses one.
# It reaches past what either `sluice run --rate` or httperf keeps up with on 2 cores, so that both
# miss a rung and the ratio of their ceilings is not bounded by the ladder's top.
OPEN_LOOP_LADDER = [5_000, 7_500, 10_000, 12_500, 15_000, 20_000, 25_000, 30_000, 35_000, 40_000, 50_000, 60_000]
# The most requests `sluice run --rate` may have in flight; one due with this many is dropped.
OPEN_LOOP_CAP = 256
# The same open loop with a larger cap, to show whether more requests in flight raise the ceiling.
OPEN_LOOP_LARGE_CAP = 1000
# Requests on each connection in httperf's persistent-connection variant, sent one after another.
HTTPERF_CALLS = 10
OPEN_LOOP_CLIENTS = ["sluice-rate", "sluice-rate-1000", "httperf", "httperf-persistent"]
OPEN_LOOP_LABELS = {
    "sluice-rate": f"Sluice runner (`sluice run --rate R --duration D --concurrency {OPEN_LOOP_CAP}`)",
    "sluice-rate-1000": f"Sluice runner, a larger cap (`--concurrency {OPEN_LOOP_LARGE_CAP}`)",
    "httperf": "httperf, a new connection per request (`--num-calls 1`: its open loop)",
    "httperf-persistent": f"httperf, persistent connections (`--num-calls {HTTPERF_CALLS}`, R/{HTTPERF_CALLS} connections/s)",
}
# A rung is passed with less than this share of its schedule lost and at least this share of its
# rate achieved.
OPEN_LOOP_MOST_LOST = 0.01
OPEN_LOOP_LEAST_ACHIEVED = 0.99
# Cookie: requests timed after the first response that sets a cookie.
COOKIE_REQUESTS = 100
# Scale: the sizes of the large JSON files, in MB (10^6 bytes).
LARGE_JSON_MB = (10, 100)
# The largest response body a run of the large JSON pipeline takes: over the 64 MiB a body held
# in memory stops at by default (pipelines/README.md, `max-response-size`).
LARGE_JSON_LIMIT = "256MiB"
# Pipelines of many requests (one request each) and of a `for-each` over many rows: small, large.
MANY_REQUESTS = (1_000, 10_000)
FOR_EACH_ROWS = (10_000, 100_000)
# `sluice validate` is short: each of its figures is the median of this many invocations.
VALIDATE_REPEATS = 5
# Header fields in the many-headers response, and the requests sent for it.
HEADER_FIELDS = 1_000
HEADER_REQUESTS = 1_000
# One header field over libcurl's 100 KiB limit on a header line, and ten times that (1 MiB); the
# requests sent to time each refusal.
BIG_HEADERS = (104_858, 1_048_576)
BIG_HEADER_REQUESTS = 200
# Distinct host names, `hNNNN.localhost`, each setting a cookie; and the smaller set repeated.
HOSTS = 1_000
HOSTS_FEW = 100


class BenchError(Exception):
    """A measurement that could not be taken; the message says which and why."""


def has_ipv6_loopback() -> bool:
    """Whether a socket can listen on ::1."""
    try:
        with socket.socket(socket.AF_INET6) as s:
            s.bind(("::1", 0))
        return True
    except OSError:
        return False


def free_port(ipv6_too: bool = False) -> int:
    """A port free on 127.0.0.1 (and on ::1 too, when `ipv6_too`)."""
    for _ in range(100):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        if not ipv6_too:
            return port
        try:
            with socket.socket(socket.AF_INET6) as s:
                s.bind(("::1", port))
            return port
        except OSError:
            continue
    raise BenchError("no port is free on both 127.0.0.1 and ::1")


def wait_until_up(port: int) -> None:
    for _ in range(100):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.1)
    raise BenchError(f"nothing listens on port {port}")


def children_cpu() -> float:
    """CPU seconds (user + system) of every child process waited for so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(command: list[str], timeout: float = 900, env: dict | None = None, accept: tuple[int, ...] = (0,)) -> str:
    """Runs a command and returns its standard output; raises BenchError when it fails (exits
    with a status not in `accept`, or outlasts `timeout` seconds)."""
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=timeout, env={**os.environ, **(env or {})}
        )
    except subprocess.TimeoutExpired:
        raise BenchError(f"{' '.join(command[:3])} took longer than {timeout:.0f} s")
    except OSError as error:
        raise BenchError(f"{command[0]}: {error.strerror}")
    if done.returncode not in accept:
        raise BenchError(f"{' '.join(command[:3])} exited {done.returncode}: {done.stderr.strip()[-500:]}")
    return done.stdout


@dataclass
class Measured:
    """One finished process: its wall time (s), peak resident memory (MiB), exit status and output."""

    seconds: float
    peak_mib: float
    status: int
    stdout: str
    stderr: str


def measured(command: list[str], timeout: float = 900, accept: tuple[int, ...] = (0,)) -> Measured:
    """Runs a command in a process of its own and returns its wall time and its peak resident
    memory, as the kernel accounts them for that one process (`wait4`; the maximum over all
    children, `RUSAGE_CHILDREN`, cannot tell one process's peak); raises BenchError when it exits
    with a status not in `accept`, or outlasts `timeout` seconds. Its output goes to temporary
    files, read after it ends, so that reading a large output is not timed."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        try:
            process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=out, stderr=err)
        except OSError as error:
            raise BenchError(f"{command[0]}: {error.strerror}")
        timer = threading.Timer(timeout, process.kill)
        timer.start()
        try:
            _, status, usage = os.wait4(process.pid, 0)
        finally:
            timer.cancel()
        seconds = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read().decode(errors="replace"), err.read().decode(errors="replace")
    if seconds >= timeout:
        raise BenchError(f"{' '.join(command[:3])} took longer than {timeout:.0f} s")
    if process.returncode not in accept:
        raise BenchError(f"{' '.join(command[:3])} exited {process.returncode}: {(stderr or stdout).strip()[-500:]}")
    return Measured(seconds, usage.ru_maxrss / 1024, process.returncode, stdout, stderr)


def marginal_us(command: Callable[[int], list[str]], n: int, accept: tuple[int, ...] = (0,)) -> float:
    """µs per request of `command(n)`, a process that sends `n` requests, beyond `command(1)`:
    (T(n) − T(1)) / (n − 1), so that the process's start-up and the first connection, which
    both pay, fall out and the figure is what each further request costs."""
    one = measured(command(1), accept=accept).seconds
    many = measured(command(n), accept=accept).seconds
    return (many - one) * 1e6 / (n - 1)


def last_json(output: str) -> dict:
    return json.loads(output.strip().splitlines()[-1])


def rotated(items: list, by: int) -> list:
    """`items` turned left by `by` places."""
    by %= len(items)
    return items[by:] + items[:by]


def round_order(clients: list[str], r: int) -> list[tuple[str, int]]:
    """Round `r` of the throughput runs: every client at c=1 and at c=32, in an order that changes
    from round to round.

    The clients are taken with a stride prime to their number, a different one each round, from a
    different first client, so that no client always follows the same one. Concurrency alternates
    from one run to the next, and each client comes back in the second half of the round at the
    concurrency it did not have in the first.
    """
    n = len(clients)
    strides = [k for k in range(1, n) if math.gcd(k, n) == 1] or [1]
    stride = strides[r % len(strides)]
    order = [clients[(r + i * stride) % n] for i in range(n)]
    return [(client, (1, 32)[(i + half + r) % 2]) for half in (0, 1) for i, client in enumerate(order)]


def spread(values: list[float], form: str, unit: str = "") -> str:
    """The median of `values`, and their lowest and highest in brackets when they differ."""
    if not values:
        return "failed"
    median = f"{statistics.median(values):{form}}{unit}"
    low, high = min(values), max(values)
    if f"{low:{form}}" == f"{high:{form}}":
        return median
    return f"{median} ({low:{form}}–{high:{form}})"


def verdict(ok: bool | None) -> str:
    return "n/a" if ok is None else "met" if ok else "**missed**"


@dataclass
class Target:
    """A target and how this run did against it: the figure (median and range), the bound, and
    whether the median meets it (`None`: not measured in this run)."""

    name: str
    figure: str
    bound: str
    met: bool | None

    @staticmethod
    def of(name: str, values: list[float], bound: float, at_most: bool, form: str, unit: str, bound_form: str = "g") -> "Target":
        """A target on the median of `values`: at most `bound`, or at least."""
        shown = f"{'≤' if at_most else '≥'} {bound:{bound_form}}{unit}"
        if not values:
            return Target(name, "n/a", shown, None)
        median = statistics.median(values)
        met = median <= bound if at_most else median >= bound
        # A figure that rounds to its bound but misses it (0.597 against 0.6) is shown with a
        # digit more, so the table never reads "0.60×, missed" against 0.6×.
        if f"{median:{form}}" == f"{bound:{form}}" and median != bound:
            form = form.replace(".2f", ".3f").replace(".1f", ".2f")
        return Target(name, spread(values, form, unit), shown, met)

    @staticmethod
    def ratio(name: str, ratios: list[float], bound: float, at_most: bool) -> "Target":
        """A target on the median of per-round ratios, shown as `0.95×`, its bound as `1.0×`."""
        return Target.of(name, ratios, bound, at_most, ".2f", "×", ".1f" if round(bound, 1) == bound else ".2f")


def per_round_ratios(first: dict[int, float], second: dict[int, float]) -> list[float]:
    """`first[r] / second[r]` for every round `r` that measured both (figures by round)."""
    return [first[r] / second[r] for r in sorted(first.keys() & second.keys()) if second[r]]


class Servers:
    """nginx, the slow server and the header server, started in a state folder under
    Benchmarks/.state.

    nginx also listens on ::1 where the machine has it: libcurl resolves `*.localhost` names to
    both loopback addresses, and a connection refused on one would be timed as part of a request.
    `/cookie.json` is the small JSON file with a `Set-Cookie` field; `/host.json` the same, with
    the connection closed after each response (`keepalive_requests 1`)."""

    def __init__(self, state: Path):
        self.state = state
        self.www = state / "www"
        self.ipv6 = has_ipv6_loopback()
        self.nginx_port = free_port(ipv6_too=self.ipv6)
        self.slow_port = free_port()
        self.header_port = free_port()
        self.slow: subprocess.Popen | None = None
        self.headers: subprocess.Popen | None = None

    def __enter__(self) -> "Servers":
        self.www.mkdir(parents=True, exist_ok=True)
        (self.state / "tmp").mkdir(exist_ok=True)
        (self.www / "hello.json").write_bytes(JSON_BODY)
        (self.www / "cookie.json").write_bytes(JSON_BODY)
        (self.www / "host.json").write_bytes(JSON_BODY)
        big = self.www / "1g.bin"
        if not big.exists() or big.stat().st_size != 1 << 30:
            with open(big, "wb") as f:
                f.truncate(1 << 30)  # sparse: nginx reads zeros without touching the disk
        user = "user root root;" if os.getuid() == 0 else ""
        (self.state / "nginx.conf").write_text(
            f"""{user}
worker_processes 1;
worker_rlimit_nofile 65536;
pid {self.state}/nginx.pid;
error_log {self.state}/error.log warn;
events {{ worker_connections 16384; }}
http {{
    access_log off;
    client_body_temp_path {self.state}/tmp/body;
    proxy_temp_path {self.state}/tmp/proxy;
    fastcgi_temp_path {self.state}/tmp/fastcgi;
    uwsgi_temp_path {self.state}/tmp/uwsgi;
    scgi_temp_path {self.state}/tmp/scgi;
    types {{ application/json json; application/octet-stream bin; }}
    sendfile on;
    tcp_nopush on;
    keepalive_timeout 65;
    keepalive_requests 100000000;
    root {self.www};
    server {{
        listen 127.0.0.1:{self.nginx_port} backlog=4096;
        {f"listen [::1]:{self.nginx_port} backlog=4096;" if self.ipv6 else ""}
        location = /cookie.json {{ add_header Set-Cookie "id=1; Path=/"; }}
        location = /host.json {{ add_header Set-Cookie "id=1; Path=/"; keepalive_requests 1; }}
    }}
}}
"""
        )
        subprocess.run(
            ["nginx", "-e", f"{self.state}/error.log", "-p", str(self.state), "-c", f"{self.state}/nginx.conf"],
            check=True,
            timeout=60,
        )
        self.slow = subprocess.Popen(
            [sys.executable, str(SLOW_SERVER), str(self.slow_port), "120"], stdout=subprocess.DEVNULL
        )
        self.headers = subprocess.Popen(
            [sys.executable, str(HEADER_SERVER), str(self.header_port)], stdout=subprocess.DEVNULL
        )
        wait_until_up(self.nginx_port)
        wait_until_up(self.slow_port)
        wait_until_up(self.header_port)
        return self

    def __exit__(self, *exc) -> None:
        pid_file = self.state / "nginx.pid"
        if pid_file.exists():
            subprocess.run(["kill", pid_file.read_text().strip()], check=False, timeout=60)
        for server in (self.slow, self.headers):
            if server:
                server.terminate()
                server.wait(timeout=10)

    @property
    def json_url(self) -> str:
        return f"http://127.0.0.1:{self.nginx_port}/hello.json"

    @property
    def big_url(self) -> str:
        return f"http://127.0.0.1:{self.nginx_port}/1g.bin"

    @property
    def slow_url(self) -> str:
        return f"http://127.0.0.1:{self.slow_port}/slow"

    @property
    def cookie_url(self) -> str:
        return f"http://127.0.0.1:{self.nginx_port}/cookie.json"

    def host_url(self, host: int) -> str:
        """`/host.json` on the name `hNNNN.localhost`, which libcurl resolves to loopback: the
        small JSON file with a `Set-Cookie` field, its connection closed after each response."""
        return f"http://h{host:04d}.localhost:{self.nginx_port}/host.json"

    def header_url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.header_port}{path}"


class Bench:
    def __init__(self, args: argparse.Namespace, servers: Servers):
        self.args = args
        self.servers = servers
        self.state = servers.state

    def log(self, text: str) -> None:
        print(f"bench: {text}", file=sys.stderr, flush=True)

    def pipeline(self) -> Path:
        """The pipeline `sluice run` sends in load mode: one GET of the JSON file, status checked."""
        pipeline = self.state / "bench.yaml"
        pipeline.write_text(
            "name: bench\nstages:\n  - url-resolution:\n      base-url: "
            + f"http://127.0.0.1:{self.servers.nginx_port}/\n"
            + "requests:\n  - name: hello\n    path: hello.json\n    expect:\n      status: 200\n"
        )
        return pipeline

    # Throughput

    def requests_for(self, client: str, concurrency: int) -> int:
        n = self.args.requests if concurrency > 1 else self.args.requests_c1
        return max(1, n // SLOW_CLIENT_SHARE.get(client, 1))

    def throughput(self, client: str, concurrency: int) -> tuple[float, float]:
        """Requests per second and CPU µs per request of one client at one concurrency."""
        url, n = self.servers.json_url, self.requests_for(client, concurrency)
        cpu_before = children_cpu()
        if client == "wrk":
            threads = 1 if concurrency == 1 else 2
            out = run(["wrk", f"-t{threads}", f"-c{concurrency}", f"-d{self.args.wrk_seconds}s", url],
                      timeout=self.args.wrk_seconds + 60)
            match = re.search(r"Requests/sec:\s+([\d.]+)", out)
            sent = re.search(r"(\d+) requests in", out)
            if not match or not sent or "Non-2xx" in out or "Socket errors" in out:
                raise BenchError(f"wrk: unexpected output: {out}")
            rps, n = float(match.group(1)), int(sent.group(1))
        elif client == "curl":
            # Named by port too: a config left by an earlier run names that run's server.
            config = self.state / f"curl-{self.servers.nginx_port}-{n}.config"
            if not config.exists():
                for stale in self.state.glob("curl-*.config"):
                    if not stale.name.startswith(f"curl-{self.servers.nginx_port}-"):
                        stale.unlink()
                config.write_text(f'url = "{url}"\noutput = "/dev/null"\n' * n)
            command = ["curl", "--silent", "--show-error", "--fail", "-K", str(config)]
            if concurrency > 1:
                command[1:1] = ["--parallel", "--parallel-max", str(concurrency)]
            start = time.perf_counter()
            run(command)
            rps = n / (time.perf_counter() - start)
        elif client == "sluice-run":
            # The default output, the text summary (no progress bar: standard error is no terminal).
            out = run([str(SLUICE), "run", "--repeat", str(n), "--concurrency", str(concurrency), "--no-color", str(self.pipeline())])
            counts = re.search(r"^\s*requests\s+(\d+)\s+ok\s+(\d+)\s+errors\s+(\d+)", out, re.MULTILINE)
            rate = re.search(r"^\s*rps\s+([\d.]+)", out, re.MULTILINE)
            if not counts or not rate:
                raise BenchError(f"sluice run: unexpected output: {out[-500:]}")
            if int(counts.group(3)):
                raise BenchError(f"sluice run: {counts.group(3)} errors: {out[-500:]}")
            rps = float(rate.group(1))
        elif client == "sluice-run-json":
            load = json.loads(
                run([str(SLUICE), "run", "--repeat", str(n), "--concurrency", str(concurrency), "--format", "json", str(self.pipeline())])
            )["load"]
            if load["errors"]:
                raise BenchError(f"sluice run --format json: {load['errors']} errors: {load['first-error']}")
            rps = float(load["rps"])
        else:
            # The plain AsyncHTTPClient client is a subcommand of its own: it shares nothing with
            # the closed loop that drives the other library clients.
            command = ["async-http-client-plain"] if client == "async-http-client-plain" else ["throughput", "--client", client]
            result = last_json(
                run([str(BENCH), *command, "--url", url, "--requests", str(n), "--concurrency", str(concurrency)])
            )
            if result["errors"]:
                raise BenchError(f"{client}: {result['errors']} errors: {result['firstError']}")
            rps = float(result["rps"])
        return rps, (children_cpu() - cpu_before) * 1e6 / n

    # Load mode, open loop

    def open_loop(self, client: str, rate: int) -> tuple[float, float]:
        """One rung of the ladder for one client: the share of the asked rate it achieved in 2xx
        responses, and the share of its schedule lost (dropped, failed, or never answered)."""
        seconds = self.args.ladder_seconds
        if client in ("sluice-rate", "sluice-rate-1000"):
            scheduled = rate * seconds
            cap = OPEN_LOOP_CAP if client == "sluice-rate" else OPEN_LOOP_LARGE_CAP
            # Exit status 1: a request of the schedule was dropped or failed, which the figures count.
            out = run(
                [str(SLUICE), "run", "--rate", str(rate), "--duration", f"{seconds}s", "--concurrency", str(cap),
                 "--format", "json", str(self.pipeline())],
                timeout=seconds + 60,
                accept=(0, 1),
            )
            try:
                load = json.loads(out)["load"]
            except (ValueError, KeyError):
                raise BenchError(f"sluice run --rate {rate}: no load result in its output: {out[-500:]}")
            good, elapsed = load["ok"], load["seconds"]
        else:
            calls = 1 if client == "httperf" else HTTPERF_CALLS
            connections = rate * seconds // calls
            scheduled = connections * calls
            out = run(
                ["httperf", "--server", "127.0.0.1", "--port", str(self.servers.nginx_port), "--uri", "/hello.json",
                 "--rate", f"{rate / calls:g}", "--num-conns", str(connections), "--num-calls", str(calls), "--timeout", "5"],
                timeout=seconds + 60,
            )
            replies = re.search(r"^Reply status:.*\b2xx=(\d+)", out, re.MULTILINE)
            duration = re.search(r"test-duration ([\d.]+) s", out)
            if not replies or not duration:
                raise BenchError(f"httperf: unexpected output: {out[-500:]}")
            good, elapsed = int(replies.group(1)), float(duration.group(1))
        achieved = good / elapsed / rate if elapsed > 0 else 0.0
        return achieved, max(0.0, 1 - good / scheduled)

    def ceilings(self, r: int) -> tuple[dict[str, int], dict[str, str], list[str]]:
        """Round `r` of the open loop: each client's ceiling, the highest rung of the ladder it
        passed before it missed one (0: it missed the first); what it missed its next rung by
        (nothing for a client that passed every rung); and the measurements that failed.

        Every client still climbing takes each rung in turn, in an order that turns by one from
        rung to rung and from round to round."""
        ceiling = {client: 0 for client in OPEN_LOOP_CLIENTS}
        missed: dict[str, str] = {}
        failures: list[str] = []
        for step, rate in enumerate(self.args.ladder):
            for client in rotated(OPEN_LOOP_CLIENTS, r + step):
                if client in missed:
                    continue
                self.log(f"run {r + 1}/{self.args.runs}: {client} at {rate:,}/s")
                try:
                    achieved, lost = self.open_loop(client, rate)
                except BenchError as error:
                    failures.append(str(error))
                    missed[client] = f"{rate:,}/s: failed"
                    continue
                if lost < OPEN_LOOP_MOST_LOST and achieved >= OPEN_LOOP_LEAST_ACHIEVED:
                    ceiling[client] = rate
                else:
                    missed[client] = f"{rate:,}/s: {lost:.1%} lost, {achieved:.1%} of the rate"
        return ceiling, missed, failures

    # The hand-off to the I/O thread

    def hop(self) -> dict[str, list[float]]:
        """`sluice-bench hop`, once a run: µs and CPU µs a round trip to libcurl's I/O thread and back
        from the global executor, between two threads of the global executor, and on the I/O thread."""
        results = [last_json(run([str(BENCH), "hop"])) for _ in range(self.args.runs)]
        keys = ["globalMicroseconds", "globalCPUMicroseconds", "globalToGlobalMicroseconds", "ioThreadMicroseconds"]
        return {key: [result[key] for result in results] for key in keys}

    # Chain

    def chain(self) -> dict:
        timed = [last_json(run([str(BENCH), "chain", "--iterations", str(self.args.chain_iterations)])) for _ in range(self.args.runs)]
        counted = last_json(run([str(BENCH_ALLOCS), "chain", "--iterations", "20000", "--warmup", "2000", "--rounds", "1"]))
        return {
            "bare_us": [r["bareMicroseconds"] for r in timed],
            "stages_us": [r["stagesMicroseconds"] for r in timed],
            "own_us": [r["stagesMicroseconds"] - r["bareMicroseconds"] for r in timed],
            "bare_allocs": counted["bareAllocations"],
            "stages_allocs": counted["stagesAllocations"],
        }

    # Memory

    def download(self) -> list[float]:
        """Peak RSS of each run of a 1 GiB download to disk, in MiB."""
        peaks = []
        for _ in range(self.args.runs):
            result = last_json(run([str(BENCH), "download", "--url", self.servers.big_url, "--to", str(self.state / "download.bin")]))
            if result["status"] != 200 or result["bytes"] != 1 << 30:
                raise BenchError(f"download: {result}")
            peaks.append(result["peakResidentMiB"])
        return peaks

    def in_flight(self) -> dict:
        """Resident memory with the tasks in flight, each run's (timed binary), bytes per task
        (counting binary)."""
        def hold(binary: Path, *extra: str) -> dict:
            result = last_json(
                run([str(binary), "in-flight", *extra, "--url", self.servers.slow_url, "--tasks", str(self.args.in_flight)])
            )
            if result["inFlight"] != self.args.in_flight or result["cancelled"] != self.args.in_flight:
                raise BenchError(f"in-flight: not every task was in flight, then cancelled: {result}")
            return result

        held = [hold(BENCH) for _ in range(self.args.runs)]
        swift_side = [hold(BENCH, "--in-memory") for _ in range(self.args.runs)]
        counted = hold(BENCH_ALLOCS)
        counted_swift = hold(BENCH_ALLOCS, "--in-memory")
        return {
            "resident": [r["residentInFlightMiB"] for r in held],
            "bytes_per_task": counted["allocatedBytesPerTask"],
            "swift_resident": [r["residentInFlightMiB"] for r in swift_side],
            "swift_bytes_per_task": counted_swift["allocatedBytesPerTask"],
        }

    def long_load(self) -> dict:
        """RSS of `sluice run` in load mode, sampled twice a second over the whole run."""
        pipeline = self.pipeline()
        n = self.args.load_requests
        process = subprocess.Popen(
            [str(SLUICE), "run", "--repeat", str(n), "--concurrency", "32", "--format", "json", str(pipeline)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        samples: list[tuple[float, float]] = []
        start = time.perf_counter()
        status = Path(f"/proc/{process.pid}/status")
        while process.poll() is None:
            if time.perf_counter() - start > 900:
                process.kill()
                process.communicate()
                raise BenchError(f"sluice run --repeat {n} took longer than 900 s")
            try:
                match = re.search(r"VmRSS:\s+(\d+) kB", status.read_text())
                if match:
                    samples.append((time.perf_counter() - start, int(match.group(1)) / 1024))
            except OSError:
                pass
            time.sleep(0.5)
        out, err = process.communicate()
        if process.returncode != 0:
            raise BenchError(f"sluice run --repeat {n} exited {process.returncode}: {err[-500:]}")
        load = json.loads(out)["load"]
        if load["errors"]:
            raise BenchError(f"sluice run --repeat {n}: {load['errors']} errors")
        if len(samples) < 4:
            raise BenchError("the load run ended before its memory could be sampled")
        duration = samples[-1][0]

        def at(fraction: float) -> float:
            return next(rss for t, rss in samples if t >= fraction * duration)

        return {
            "requests": n,
            "rps": load["rps"],
            "at10": at(0.1),
            "at50": at(0.5),
            "end": samples[-1][1],
            "peak": max(rss for _, rss in samples),
        }

    # Cookie

    def first_cookie(self) -> dict[str, list[float]]:
        """The first response that sets a cookie in a process, and the next ones, in ms: each run a
        fresh `sluice-bench first-cookie` process, which warms up on a URL that sets no cookie,
        then times the first request to `/cookie.json` and the median of the next
        COOKIE_REQUESTS."""
        first, following = [], []
        for _ in range(self.args.runs):
            result = last_json(run([str(BENCH), "first-cookie", "--url", self.servers.cookie_url,
                                    "--warmup-url", self.servers.json_url, "--requests", str(COOKIE_REQUESTS)]))
            if result["cookies"] != 1:
                raise BenchError(f"first-cookie: the jar holds {result['cookies']} cookies, not 1")
            first.append(result["firstMicroseconds"] / 1000)
            following.append(result["nextMicroseconds"] / 1000)
        return {"first": first, "next": following, "extra": [a - b for a, b in zip(first, following)]}

    # Scale

    def scale_file(self, name: str, text: str) -> Path:
        """A file of the scale section in the state folder, written when its content changed."""
        path = self.state / "scale" / name
        path.parent.mkdir(exist_ok=True)
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
        return path

    def large_json(self, megabytes: int) -> tuple[str, int]:
        """`scale-{megabytes}mb.json` in nginx's folder, made once and kept: `{"items": [...],
        "total": N}`, item i (1 to N) `{"id": i, "name": "item-i", "tags": [...], "price": i×1.5}`,
        as many items as reach `megabytes` MB. Returns its name and N. A file is written under
        another name and renamed when whole, so a file with its closing `"total"` is complete."""
        path = self.servers.www / f"scale-{megabytes}mb.json"
        if path.exists():
            with open(path, "rb") as f:
                f.seek(max(0, path.stat().st_size - 64))
                match = re.search(rb'\],"total":(\d+)\}\n$', f.read())
            if match:
                return path.name, int(match.group(1))
        self.log(f"writing {path.name}")
        partial = path.with_suffix(".partial")
        size, count, chunk = 0, 0, []
        with open(partial, "w") as f:
            f.write('{"items":[')
            while size < megabytes * 1_000_000:
                count += 1
                item = ("," if count > 1 else "") + (
                    f'{{"id":{count},"name":"item-{count}","tags":["t{count % 7}","g{count % 13}"],"price":{count * 1.5!r}}}'
                )
                chunk.append(item)
                size += len(item)
                if len(chunk) == 10_000:
                    f.write("".join(chunk))
                    chunk = []
            f.write("".join(chunk) + f'],"total":{count}}}\n')
        partial.rename(path)
        return path.name, count

    def large_json_commands(self, megabytes: int) -> dict[str, list[str]]:
        """The commands that read `scale-{megabytes}mb.json` and look up its `total` and its last
        item's `id`: `sluice run` of a pipeline that GETs it, checks both with JSONPath and
        captures the last item's name; jq and Python's `json.load` on the file; and curl, which
        only fetches it (the transfer alone)."""
        name, total = self.large_json(megabytes)
        pipeline = self.scale_file(f"large-{megabytes}mb.yaml", f"""name: large-json-{megabytes}mb
max-response-size: {LARGE_JSON_LIMIT}
stages:
  - url-resolution:
      base-url: http://127.0.0.1:{self.servers.nginx_port}/
requests:
  - name: large
    path: {name}
    expect:
      status: 200
      body:
        "$.total": {total}
        "$.items[-1].id": {total}
    capture:
      lastname: $.items[-1].name
  - name: captured
    path: hello.json?last=${{lastname}}
    expect:
      status: 200
""")
        file = str(self.servers.www / name)
        script = "import json, sys; d = json.load(open(sys.argv[1])); print(d['total']); print(d['items'][-1]['id'])"
        return {
            "sluice": [str(SLUICE), "run", "--no-color", str(pipeline)],
            "jq": ["jq", ".total, .items[-1].id", file],
            "python": [sys.executable, "-c", script, file],
            "curl": ["curl", "--silent", "--show-error", "--fail", "-o", "/dev/null", f"http://127.0.0.1:{self.servers.nginx_port}/{name}"],
        }

    def large_json_round(self, r: int) -> dict[tuple[str, int], tuple[float, float]]:
        """Round `r` of the large JSON rows: each client's wall time (ms) and peak RSS (MiB) at
        each size, the clients in an order that turns from round to round."""
        figures = {}
        for megabytes in LARGE_JSON_MB:
            commands = self.large_json_commands(megabytes)
            total = self.large_json(megabytes)[1]
            for client in rotated(list(commands), r):
                self.log(f"run {r + 1}/{self.args.runs}: large JSON, {megabytes} MB, {client}")
                done = measured(commands[client], timeout=300)
                if client in ("jq", "python") and done.stdout.split() != [str(total)] * 2:
                    raise BenchError(f"{client} on {megabytes} MB: printed {done.stdout[:200]!r}, not {total} twice")
                figures[(client, megabytes)] = (done.seconds * 1000, done.peak_mib)
        return figures

    def many_requests_files(self, kind: str, n: int) -> tuple[Path, Path]:
        """The pipeline of `n` requests of one kind and the curl config of the same URLs.

        `requests`: n requests, each a GET of the small JSON file with `expect: status: 200`,
        request i capturing `$.id` as `c{i}`, and every request after the first sending the
        previous one's capture in its query, so that every capture is a variable a later request
        reads. `for-each`: one request over a CSV file of n rows, capturing `$.id` too."""
        base = f"http://127.0.0.1:{self.servers.nginx_port}/"
        head = f"name: {kind}-{n}\nstages:\n  - url-resolution:\n      base-url: {base}\nrequests:\n"
        if kind == "requests":
            entries, urls = [], []
            for i in range(1, n + 1):
                query = f"?prev=${{c{i - 1:06d}}}" if i > 1 else ""
                entries.append(f"  - name: r{i:06d}\n    path: hello.json{query}\n    expect:\n      status: 200\n"
                               f"    capture:\n      c{i:06d}: $.id\n")
                urls.append(f"{base}hello.json" + ("?prev=42" if i > 1 else ""))
            pipeline = self.scale_file(f"requests-{n}.yaml", head + "".join(entries))
        else:
            rows = self.scale_file(f"rows-{n}.csv", "row\n" + "".join(f"{i}\n" for i in range(1, n + 1)))
            pipeline = self.scale_file(f"for-each-{n}.yaml", head + (
                f"  - name: row ${{row}}\n    path: hello.json?row=${{row}}\n    for-each: {{csv: {rows.name}}}\n"
                "    expect:\n      status: 200\n    capture:\n      id: $.id\n"))
            urls = [f"{base}hello.json?row={i}" for i in range(1, n + 1)]
        config = self.scale_file(f"curl-{kind}-{n}.config", "".join(f'url = "{url}"\noutput = "/dev/null"\n' for url in urls))
        return pipeline, config

    def many_requests_round(self, r: int) -> dict[tuple[str, str, int], float]:
        """Round `r` of the many-requests rows: µs per request beyond a file of one request
        (`marginal_us`) of `sluice validate` (each time the median of VALIDATE_REPEATS),
        `sluice run` and `curl -K`, for each kind and size."""
        figures = {}
        for kind, sizes in (("requests", MANY_REQUESTS), ("for-each", FOR_EACH_ROWS)):
            for n in sizes:
                self.log(f"run {r + 1}/{self.args.runs}: {kind}, {n:,}")

                def validate(size: int) -> float:
                    pipeline = self.many_requests_files(kind, size)[0]
                    return statistics.median(
                        measured([str(SLUICE), "validate", str(pipeline)]).seconds for _ in range(VALIDATE_REPEATS))

                figures[("validate", kind, n)] = (validate(n) - validate(1)) * 1e6 / (n - 1)
                for client in rotated(["run", "curl"], r):
                    if client == "run":
                        command = lambda size: [str(SLUICE), "run", "--no-color", str(self.many_requests_files(kind, size)[0])]
                    else:
                        command = lambda size: ["curl", "--silent", "--show-error", "--fail", "-K",
                                                str(self.many_requests_files(kind, size)[1])]
                    figures[(client, kind, n)] = marginal_us(command, n)
        return figures

    def header_round(self, r: int) -> dict:
        """Round `r` of the header rows: µs per request (beyond one request) of `sluice run
        --repeat M` and of `curl -K` with M URLs, for a response of HEADER_FIELDS fields and for
        each of the BIG_HEADERS, which both refuse; and, for those, what a plain `sluice run`
        of the request exits with and says."""
        figures: dict = {}
        for path, requests in [(f"/headers/{HEADER_FIELDS}", HEADER_REQUESTS),
                               *((f"/big-header/{size}", BIG_HEADER_REQUESTS) for size in BIG_HEADERS)]:
            refused = path.startswith("/big-header/")
            pipeline = self.scale_file(f"header{path.replace('/', '-')}.yaml", f"""name: header{path.replace('/', '-')}
stages:
  - url-resolution:
      base-url: http://127.0.0.1:{self.servers.header_port}/
requests:
  - name: head
    path: {path.lstrip('/')}
    expect:
      status: 200
""")
            url = self.servers.header_url(path)
            # curl stops a `-K` list at its first refusal (exit 27, "out of memory": libcurl's
            # limit on a header line), so it is timed on the head it accepts only.
            for client in rotated(["sluice", "curl"], r) if not refused else ["sluice"]:
                self.log(f"run {r + 1}/{self.args.runs}: {path}, {client}")
                if client == "sluice":
                    command = lambda n: [str(SLUICE), "run", "--repeat", str(n), "--concurrency", "1", "--no-color", str(pipeline)]
                else:
                    command = lambda n: ["curl", "--silent", "--show-error", "--fail", "-K", str(self.scale_file(
                        f"curl-header{path.replace('/', '-')}-{n}.config", f'url = "{url}"\noutput = "/dev/null"\n' * n))]
                # A refused head fails every request: the load run exits 1.
                figures[(client, path)] = marginal_us(command, requests, accept=(1,) if refused else (0,))
            if refused and r == 0:
                done = measured([str(SLUICE), "run", "--no-color", str(pipeline)], accept=(0, 1, 2))
                said = [line.split("error: ", 1)[1] for line in (done.stdout + done.stderr).splitlines() if "error: " in line]
                curl = measured(["curl", "--silent", "--show-error", "-o", "/dev/null", url], accept=tuple(range(256)))
                figures[("refusal", path)] = (
                    f"Sluice: exit {done.status}, {said[0] if said else (done.stdout + done.stderr).strip()[-200:]}; "
                    f"curl: exit {curl.status}, {curl.stderr.strip().removeprefix('curl: ')}")
        return figures

    def hosts_files(self, hosts: int, times: int) -> tuple[Path, Path]:
        """A pipeline of `hosts` × `times` requests, `/host.json` on `h0001.localhost` to
        `h{hosts}.localhost`, the hosts in turn `times` over (the runner keeps cookies, and each
        host sets one), and the curl config of the same URLs. Every request has a connection of
        its own (nginx closes it after the response), so that the runs with more hosts and with
        fewer differ in the number of hosts only, not in connections reused."""
        urls = [self.servers.host_url(h) for _ in range(times) for h in range(1, hosts + 1)]
        entries = "".join(f"  - name: h{i:05d}\n    path: {url}\n    expect:\n      status: 200\n" for i, url in enumerate(urls))
        pipeline = self.scale_file(f"hosts-{hosts}x{times}.yaml", f"""name: hosts-{hosts}x{times}
stages:
  - url-resolution:
      base-url: {self.servers.host_url(1)}
requests:
{entries}""")
        config = self.scale_file(f"curl-hosts-{hosts}x{times}.config",
                                 "".join(f'url = "{url}"\noutput = "/dev/null"\n' for url in urls))
        return pipeline, config

    def hosts_round(self, r: int) -> dict[tuple[str, str], float]:
        """Round `r` of the hosts rows: µs per request (beyond one request) of `sluice run` and of
        `curl -K` (its cookie engine on: `-b '' -c /dev/null`), over HOSTS hosts once and over
        HOSTS_FEW hosts HOSTS / HOSTS_FEW times."""
        figures = {}
        if r == 0:
            self.check_host_cookies()
        for label, hosts, times in (("many", HOSTS, 1), ("few", HOSTS_FEW, HOSTS // HOSTS_FEW)):
            for client in rotated(["sluice", "curl"], r):
                self.log(f"run {r + 1}/{self.args.runs}: {hosts} hosts ×{times}, {client}")

                def files(n: int) -> tuple[Path, Path]:
                    return self.hosts_files(1, 1) if n == 1 else self.hosts_files(hosts, times)

                if client == "sluice":
                    command = lambda n: [str(SLUICE), "run", "--no-color", str(files(n)[0])]
                else:
                    command = lambda n: ["curl", "--silent", "--show-error", "--fail", "-b", "", "-c", "/dev/null", "-K", str(files(n)[1])]
                figures[(client, label)] = marginal_us(command, hosts * times)
        return figures

    def check_host_cookies(self) -> None:
        """Checks, in a run of its own (not timed), that the hosts pipeline leaves a cookie of each
        host in the jar: the same requests with `cookie-file:`, which the run writes at its end."""
        jar = self.state / "scale" / "hosts-jar.txt"
        jar.unlink(missing_ok=True)
        pipeline = self.hosts_files(HOSTS, 1)[0]
        saving = self.scale_file("hosts-saved.yaml", pipeline.read_text().replace("stages:\n", f"cookie-file: {jar}\nstages:\n", 1))
        run([str(SLUICE), "run", "--no-color", str(saving)])
        domains = {line.split("\t")[0] for line in jar.read_text().splitlines() if line and not line.startswith("#")}
        if len(domains) != HOSTS:
            raise BenchError(f"hosts: the run's cookie jar holds cookies of {len(domains)} domains, not {HOSTS}")

    # Cold start

    def cold_start(self, sluice: Path) -> dict:
        """The median time of `sluice validate FILE` for each example, with hyperfine; an example
        that does not validate on its own here (one that needs a vars file, or the test servers'
        certificates) is left out and named, so that every time is that of a whole validation."""
        if not sluice.is_file():
            raise BenchError(f"cold start: {sluice} is not built")
        export = self.state / "hyperfine.json"
        env = {"CLIENT_SECRET": "benchmark", "API_TOKEN": "benchmark"}
        times = {}
        left_out = []
        for example in sorted((ROOT / "pipelines").glob("*.yaml")):
            try:
                run([str(sluice), "validate", str(example)], timeout=60, env=env)
            except BenchError:
                left_out.append(example.name)
                continue
            run(
                ["hyperfine", "--shell=none", "--warmup", "3", "--runs", str(max(10, 10 * self.args.runs)),
                 "--export-json", str(export), f"{sluice} validate {example}"],
                env=env,
            )
            times[example.name] = statistics.median(json.loads(export.read_text())["results"][0]["times"]) * 1000
        if not times:
            raise BenchError(f"cold start: no example validates with {sluice}")
        slowest = max(times, key=times.get)
        return {"median": statistics.median(times.values()), "max": times[slowest], "slowest": slowest, "left_out": left_out}


def cookie_section(bench: Bench) -> tuple[list[str], list[Target]]:
    """The cookie table and its target."""
    figures = bench.first_cookie()
    runs = bench.args.runs
    lines = [
        f"**Cookie**: the first response that sets a cookie in a process against the ones after it: "
        f"`sluice-bench first-cookie`, a session manager with a cookie stage (a `CookieJar` with the system's public "
        f"suffix list, the default), one request at a time over one keep-alive connection: a warm-up request to a URL "
        f"that sets no cookie, then the first request to `/cookie.json` (`Set-Cookie: id=1; Path=/`), then "
        f"{COOKIE_REQUESTS} more to it; a fresh process each run ({runs}).",
        "",
        "| first response that sets a cookie | the next (median of each run's) | extra |",
        "|---:|---:|---:|",
        f"| {spread(figures['first'], '.3f', ' ms')} | {spread(figures['next'], '.3f', ' ms')} | "
        f"{spread(figures['extra'], '.3f', ' ms')} |",
        "",
    ]
    targets = [Target.of("First response that sets a cookie: extra time over the next", figures["extra"], 1, True, ".2f", " ms")]
    return lines, targets


def scale_section(bench: Bench) -> tuple[list[str], list[Target], list[str]]:
    """The scale tables (large JSON bodies, many requests, large response heads, many hosts),
    their targets, and the measurements that failed. A sub-section that fails is left out of the
    tables; its targets read n/a."""
    args = bench.args
    lines: list[str] = []
    targets: list[Target] = []
    failures: list[str] = []

    def rounds(measure: Callable[[int], dict]) -> dict[object, dict[int, object]]:
        """figures[key][round] of `measure(r)` over every round; a round that fails is left out."""
        figures: dict[object, dict[int, object]] = {}
        for r in range(args.runs):
            try:
                for key, value in measure(r).items():
                    figures.setdefault(key, {})[r] = value
            except BenchError as error:
                failures.append(str(error))
                bench.log(f"failed: {error}")
        return figures

    # Large JSON bodies
    large = rounds(bench.large_json_round)
    times = {key: {r: v[0] for r, v in by_round.items()} for key, by_round in large.items()}
    peaks = {key: {r: v[1] for r, v in by_round.items()} for key, by_round in large.items()}
    limit_note = f"the pipeline sets `max-response-size: {LARGE_JSON_LIMIT}`, as a body held in memory stops at 64 MiB by default"
    lines += [
        f"**Scale: large JSON bodies**: a generated JSON file (`{{\"items\": [...], \"total\": N}}`, fixed content) of "
        + " and ".join(f"{mb} MB" for mb in LARGE_JSON_MB)
        + ", its `total` and its last item's `id` looked up: `sluice run` of a pipeline that GETs it over loopback, "
        f"checks both with JSONPath (`$.total`, `$.items[-1].id`), captures `$.items[-1].name` and sends it in a "
        f"second request ({limit_note}); jq (`jq '.total, .items[-1].id'`) and Python (`json.load`, the same lookups) "
        "on the file; curl fetching it to `/dev/null`, the transfer alone. Wall time of the whole process, start-up "
        "included, and its peak RSS (`wait4`).",
        "",
        "| client | " + " | ".join(f"{mb} MB: time | {mb} MB: peak RSS" for mb in LARGE_JSON_MB) + " |",
        "|---|" + "---:|---:|" * len(LARGE_JSON_MB),
    ]
    large_labels = {
        "sluice": "`sluice run` (transfer, decoding, JSONPath)",
        "jq": "jq, on the file",
        "python": "Python `json.load`, on the file",
        "curl": "curl to `/dev/null` (the transfer alone)",
    }
    for client, label in large_labels.items():
        cells = []
        for mb in LARGE_JSON_MB:
            cells += [spread(list(times.get((client, mb), {}).values()), ",.0f", " ms"),
                      spread(list(peaks.get((client, mb), {}).values()), ",.0f", " MiB")]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    lines += ["", "| `sluice run` ÷ peer, per round | " + " | ".join(f"{mb} MB" for mb in LARGE_JSON_MB) + " |",
              "|---|" + "---:|" * len(LARGE_JSON_MB)]
    for what, table, peer in (("time ÷ jq's", times, "jq"), ("time ÷ Python's", times, "python"),
                              ("peak RSS ÷ jq's", peaks, "jq"), ("peak RSS ÷ Python's", peaks, "python")):
        lines.append(f"| {what} | " + " | ".join(
            spread(per_round_ratios(table.get(("sluice", mb), {}), table.get((peer, mb), {})), ".2f", "×")
            for mb in LARGE_JSON_MB) + " |")
    lines.append("")
    for mb in LARGE_JSON_MB:
        targets += [
            Target.ratio(f"Large JSON, {mb} MB: `sluice run` time ≤ 1.0× Python's `json.load`",
                         per_round_ratios(times.get(("sluice", mb), {}), times.get(("python", mb), {})), 1.0, True),
            Target.ratio(f"Large JSON, {mb} MB: `sluice run` peak RSS ≤ 2.0× jq's",
                         per_round_ratios(peaks.get(("sluice", mb), {}), peaks.get(("jq", mb), {})), 2.0, True),
        ]

    # Many requests
    many = rounds(bench.many_requests_round)
    sizes = {"requests": MANY_REQUESTS, "for-each": FOR_EACH_ROWS}
    lines += [
        "**Scale: many requests**: a pipeline of "
        + " and of ".join(f"{n:,}" for n in MANY_REQUESTS)
        + " requests (each a GET of the small JSON file, `expect: status: 200`, capturing `$.id` under a name of its "
        "own, every request after the first sending the one before's capture in its query), and a `for-each` over a "
        "CSV file of " + " and of ".join(f"{n:,}" for n in FOR_EACH_ROWS) + " rows (one request, the row in its "
        "query, capturing `$.id`). µs per request beyond a file of one request, (T(N) − T(1)) / (N − 1), so that "
        f"start-up falls out: `sluice validate` (each time the median of {VALIDATE_REPEATS}), `sluice run`, and "
        "`curl -K` of the same URLs (one connection, one request at a time, as the runner sends them).",
        "",
        "| pipeline | `sluice validate` µs/request | `sluice run` µs/request | `curl -K` µs/request | run ÷ curl, per round |",
        "|---|---:|---:|---:|---:|",
    ]
    for kind, label in (("requests", "{n:,} requests"), ("for-each", "`for-each`, {n:,} rows")):
        for n in sizes[kind]:
            row = [spread(list(many.get((client, kind, n), {}).values()), ".1f") for client in ("validate", "run", "curl")]
            row.append(spread(per_round_ratios(many.get(("run", kind, n), {}), many.get(("curl", kind, n), {})), ".2f", "×"))
            lines.append(f"| {label.format(n=n)} | " + " | ".join(row) + " |")
    lines.append("")
    for kind, label in (("requests", "Pipeline of {large:,} requests"), ("for-each", "`for-each` of {large:,} rows")):
        small, large_n = sizes[kind]
        for command in ("validate", "run"):
            targets.append(Target.ratio(
                f"{label.format(large=large_n)}: `sluice {command}` time per request ≤ 1.25× that at {small:,} (flat)",
                per_round_ratios(many.get((command, kind, large_n), {}), many.get((command, kind, small), {})), 1.25, True))

    # Large response heads
    heads = rounds(bench.header_round)
    fields_path = f"/headers/{HEADER_FIELDS}"
    lines += [
        f"**Scale: large response heads** (`Benchmarks/Servers/header_server.py`, responses built once): a response "
        f"with {HEADER_FIELDS:,} header fields (`X-H-0001: value-0001` ...), {HEADER_REQUESTS:,} times, and one with a "
        f"single field of {BIG_HEADERS[0]:,} or {BIG_HEADERS[1]:,} bytes, both past libcurl's limit of 100 KiB on a "
        f"header line, which Sluice and curl refuse, {BIG_HEADER_REQUESTS} times. `sluice run --repeat M --concurrency 1` "
        "and `curl -K` with M URLs; µs per request beyond one request. curl stops a `-K` list at its first refusal, "
        "so it is timed on the head it accepts only.",
        "",
        "| response head | `sluice run` µs/request | `curl -K` µs/request | `sluice run` ÷ curl, per round | a single request: exit status, error |",
        "|---|---:|---:|---:|---|",
    ]
    for path, label in [(fields_path, f"{HEADER_FIELDS:,} fields"),
                        *((f"/big-header/{size}", f"one field of {size:,} bytes (refused)") for size in BIG_HEADERS)]:
        refusal = heads.get(("refusal", path), {}).get(0)
        said = "answered (exit 0)" if path == fields_path else refusal.replace("|", "/") if refusal else "n/a"
        if path == fields_path:
            curl = spread(list(heads.get(("curl", path), {}).values()), ",.1f")
            ratio = spread(per_round_ratios(heads.get(("sluice", path), {}), heads.get(("curl", path), {})), ".2f", "×")
        else:
            curl = ratio = "not timed"
        lines.append(f"| {label} | {spread(list(heads.get(('sluice', path), {}).values()), ',.1f')} | {curl} | {ratio} | {said} |")
    lines.append("")
    small_path, big_path = (f"/big-header/{size}" for size in BIG_HEADERS)
    targets += [
        Target.ratio(f"{HEADER_FIELDS:,} response header fields: `sluice run` time per request ≤ 1.5× curl's",
                     per_round_ratios(heads.get(("sluice", fields_path), {}), heads.get(("curl", fields_path), {})), 1.5, True),
        Target.ratio(f"A {BIG_HEADERS[1]:,}-byte header field: time to refuse ≤ 12× that for {BIG_HEADERS[0]:,} bytes "
                     "(linear, with slack)",
                     per_round_ratios(heads.get(("sluice", big_path), {}), heads.get(("sluice", small_path), {})), 12, True),
    ]

    # Many hosts
    hosts = rounds(bench.hosts_round)
    repeats = HOSTS // HOSTS_FEW
    lines += [
        f"**Scale: many hosts**: {HOSTS:,} requests to `/host.json` on {HOSTS:,} distinct names (`h0001.localhost` "
        f"..., which libcurl resolves to loopback), every response setting a cookie that the runner's "
        f"jar keeps (a run checked apart finds {HOSTS:,} domains in it); and to {HOSTS_FEW} names, in turn, {repeats} "
        "times over; nginx closes the connection after each response, so every request has one of its own in both. "
        "`sluice run` of a pipeline of those requests and `curl -K` of the same URLs with its cookie "
        "engine on (`-b '' -c /dev/null`); µs per request beyond one request.",
        "",
        "| hosts | `sluice run` µs/request | `curl -K` µs/request | `sluice run` ÷ curl, per round |",
        "|---|---:|---:|---:|",
    ]
    for label, name in (("many", f"{HOSTS:,} hosts, once each"), ("few", f"{HOSTS_FEW} hosts, {repeats} times each")):
        lines.append(
            f"| {name} | {spread(list(hosts.get(('sluice', label), {}).values()), ',.1f')} | "
            f"{spread(list(hosts.get(('curl', label), {}).values()), ',.1f')} | "
            f"{spread(per_round_ratios(hosts.get(('sluice', label), {}), hosts.get(('curl', label), {})), '.2f', '×')} |")
    curl_flat = per_round_ratios(hosts.get(("curl", "many"), {}), hosts.get(("curl", "few"), {}))
    lines += ["", f"curl's time per request over {HOSTS:,} hosts ÷ over {HOSTS_FEW} hosts ×{repeats}, per round: "
              f"{spread(curl_flat, '.2f', '×')}.", ""]
    targets += [
        Target.ratio(f"{HOSTS:,} distinct hosts, a cookie each: `sluice run` time per request ≤ 1.5× curl's",
                     per_round_ratios(hosts.get(("sluice", "many"), {}), hosts.get(("curl", "many"), {})), 1.5, True),
        Target.ratio(f"{HOSTS:,} distinct hosts over {HOSTS_FEW} hosts ×{repeats}: `sluice run` time per request ≤ 1.25× (flat)",
                     per_round_ratios(hosts.get(("sluice", "many"), {}), hosts.get(("sluice", "few"), {})), 1.25, True),
    ]
    return lines, targets, failures


def machine() -> str:
    cpu = "unknown CPU"
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
    memory = int(re.search(r"MemTotal:\s+(\d+)", Path("/proc/meminfo").read_text()).group(1)) / 1024 / 1024
    return f"{cpu}, {os.cpu_count()} cores, {memory:.0f} GiB, Linux {platform.release()}"


def versions() -> str:
    def version(command: list[str], pattern: str) -> str:
        """The version `command` prints (on either stream), or `?` when it prints none."""
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=60)
        except (OSError, subprocess.TimeoutExpired):
            return "?"
        match = re.search(pattern, done.stdout + done.stderr)
        return match.group(1) if match else "?"

    nginx = version(["nginx", "-v"], r"nginx/(\S+)")
    curl = version(["curl", "--version"], r"curl (\S+)")
    httperf = version(["httperf", "--version"], r"httperf-(\S+?)\s")
    swift = version(["swift", "--version"], r"Swift version (\S+)")
    return f"nginx {nginx} (1 worker), curl/libcurl {curl}, httperf {httperf}, Swift {swift}"


def ladder(text: str) -> list[int]:
    """`--ladder`: rates in requests/s, comma-separated, each higher than the last."""
    rates = [int(rate) for rate in text.split(",")]
    if not rates or rates[0] < 1 or any(b <= a for a, b in zip(rates, rates[1:])):
        raise argparse.ArgumentTypeError("the rates must be positive and rising")
    return rates


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per figure; the median is shown (default 5)")
    parser.add_argument("--requests", type=int, default=100_000, help="requests per throughput run at c=32 (default 100000)")
    parser.add_argument("--requests-c1", type=int, default=20_000, help="requests per throughput run at c=1 (default 20000)")
    parser.add_argument("--wrk-seconds", type=int, default=5, help="length of each wrk run (default 5)")
    parser.add_argument("--ladder", type=ladder, default=OPEN_LOOP_LADDER,
                        help="the open loop's rates, requests/s, comma-separated (default "
                             + ",".join(str(rate) for rate in OPEN_LOOP_LADDER) + ")")
    parser.add_argument("--ladder-seconds", type=int, default=3, help="length of each rung of the open loop (default 3)")
    parser.add_argument("--chain-iterations", type=int, default=200_000, help="requests per chain run")
    parser.add_argument("--in-flight", type=int, default=10_000, help="tasks held in flight (default 10000)")
    parser.add_argument("--load-requests", type=int, default=1_000_000, help="requests of the long load run")
    parser.add_argument("--only", choices=SECTIONS, action="append", help="run only these sections (repeatable)")
    args = parser.parse_args()
    sections = set(args.only or SECTIONS)

    state = ROOT / "Benchmarks/.state"
    state.mkdir(parents=True, exist_ok=True)
    lines: list[str] = []
    targets: list[Target] = []
    failures: list[str] = []
    with Servers(state) as servers:
        bench = Bench(args, servers)
        lines += [
            f"Measured {datetime.date.today().isoformat()} on {machine()}; {versions()}.",
            f"Every figure is the median of {args.runs} run{'s' if args.runs != 1 else ''}, the lowest and highest in "
            "brackets. Runs are taken in rounds, each measuring every client; a ratio between two clients is the median of "
            "its value in each round.",
            "",
        ]
        if "throughput" in sections:
            # rps[(client, concurrency)][round], cpu[(client, concurrency)][round]: requests/s, CPU µs/request
            rps: dict[tuple[str, int], dict[int, float]] = {}
            cpu: dict[tuple[str, int], dict[int, float]] = {}
            for r in range(args.runs):
                for client, concurrency in round_order(CLIENTS, r):
                    bench.log(f"run {r + 1}/{args.runs}: {client} at c={concurrency}")
                    try:
                        key = (client, concurrency)
                        rps.setdefault(key, {})[r], cpu.setdefault(key, {})[r] = bench.throughput(client, concurrency)
                    except BenchError as error:
                        failures.append(str(error))
                        bench.log(f"failed: {error}")
            lines += [
                f"**Throughput**: GET of a {len(JSON_BODY)}-byte JSON file over keep-alive HTTP/1.1, "
                f"{args.requests_c1:,} requests per run at c=1 and {args.requests:,} at c=32 (URLSession a "
                f"{SLOW_CLIENT_SHARE['urlsession']}th of that; wrk: {args.wrk_seconds} s). Each round runs every client "
                "at both concurrencies, c=1 and c=32 alternating, in an order that changes from round to round. CPU: "
                "user + system time of the client's whole process per request (the server's not counted).",
                "",
                "| client | c=1 req/s | c=1 CPU µs/req | c=32 req/s | c=32 CPU µs/req |",
                "|---|---:|---:|---:|---:|",
            ]
            for client in CLIENTS:
                cells = []
                for c in (1, 32):
                    cells += [spread(list(rps.get((client, c), {}).values()), ",.0f"),
                              spread(list(cpu.get((client, c), {}).values()), ".1f")]
                lines.append(f"| {LABELS[client]} | " + " | ".join(cells) + " |")

            def ratios(a: str, b: str, c: int, table: dict) -> list[float]:
                return per_round_ratios(table.get((a, c), {}), table.get((b, c), {}))

            check = [
                what + " " + " and ".join(
                    f"{spread(ratios('async-http-client', 'async-http-client-plain', c, table), '.2f', '×')} at c={c}" for c in (1, 32)
                )
                for what, table in (("requests/s", rps), ("CPU/request", cpu))
            ]
            lines += [
                "",
                "AsyncHTTPClient checked against its plain client (the closed loop's row ÷ the plain row, per round): "
                + "; ".join(check) + ".",
                "",
            ]
            bench.log("hop")
            hop = bench.hop()
            # What a caller on the global executor pays a request over one on the I/O thread, at c=1.
            extra = [1e6 / rps[("sluice-global", 1)][r] - 1e6 / rps[("sluice", 1)][r]
                     for r in range(args.runs) if r in rps.get(("sluice-global", 1), {}) and r in rps.get(("sluice", 1), {})]
            lines += [
                "The hand-off behind the global executor's rows: `sluice-bench hop`, from a task on the global executor, a "
                "child task that prefers libcurl's I/O thread and its value awaited, with no request (the two thread "
                f"switches of `send` from ordinary async code): {spread(hop['globalMicroseconds'], '.1f')} µs a round trip, "
                f"{spread(hop['globalCPUMicroseconds'], '.1f')} µs of CPU; the same hand-off within the global executor "
                f"{spread(hop['globalToGlobalMicroseconds'], '.1f')} µs; with no switch, on the I/O thread, "
                f"{spread(hop['ioThreadMicroseconds'], '.1f')} µs. At c=1 the library's row on the global executor spends "
                f"{spread(extra, '.1f')} µs a request more than its row on `transport.executor`: both threads are asleep "
                "when the hand-off comes, so each switch wakes one.",
                "",
            ]
            targets += [
                Target.ratio("Runner CPU/request ≤ 1.0× curl's at c=32", ratios("sluice-run", "curl", 32, cpu), 1.0, True),
                Target.ratio("Runner requests/s ≥ 1.0× curl's at c=1", ratios("sluice-run", "curl", 1, rps), 1.0, False),
                Target.ratio("Runner with `--format json`: CPU/request ≤ 1.0× curl's at c=32",
                             ratios("sluice-run-json", "curl", 32, cpu), 1.0, True),
                Target.ratio("Library, callers on the global executor: requests/s ≥ 0.95× curl's at c=1",
                             ratios("sluice-global", "curl", 1, rps), 0.95, False),
                Target.ratio("Library, callers on the global executor: CPU/request ≤ 1.0× curl's at c=32",
                             ratios("sluice-global", "curl", 32, cpu), 1.0, True),
                Target.ratio("Library, callers on `transport.executor`: requests/s ≥ 0.9× curl's at c=1",
                             ratios("sluice", "curl", 1, rps), 0.9, False),
                Target.ratio("Library, callers on `transport.executor`: CPU/request ≤ 1.1× curl's at c=32",
                             ratios("sluice", "curl", 32, cpu), 1.1, True),
                Target.ratio("Library CPU/request ≤ 0.8× AsyncHTTPClient's at c=32",
                             ratios("sluice", "async-http-client", 32, cpu), 0.8, True),
                Target.ratio("Runner CPU/request ≤ 0.8× AsyncHTTPClient's at c=32",
                             ratios("sluice-run", "async-http-client", 32, cpu), 0.8, True),
                Target.ratio("Library requests/s ≥ 1.2× AsyncHTTPClient's at c=32",
                             ratios("sluice", "async-http-client", 32, rps), 1.2, False),
                Target.ratio("Library, callers on the global executor: requests/s ≥ 1.2× AsyncHTTPClient's at c=32",
                             ratios("sluice-global", "async-http-client", 32, rps), 1.2, False),
                Target.ratio("Runner requests/s ≥ 0.95× the library's at c=32", ratios("sluice-run", "sluice", 32, rps), 0.95, False),
            ]
        if "load" in sections:
            # closed_rps[client][round], closed_cpu[client][round], ceiling[client][round]
            closed_rps: dict[str, dict[int, float]] = {}
            closed_cpu: dict[str, dict[int, float]] = {}
            ceiling: dict[str, dict[int, float]] = {client: {} for client in OPEN_LOOP_CLIENTS}
            missed: dict[str, list[str]] = {client: [] for client in OPEN_LOOP_CLIENTS}
            for r in range(args.runs):
                for client in rotated(["wrk", "sluice-run"], r):
                    bench.log(f"run {r + 1}/{args.runs}: {client}, closed loop at c=32")
                    try:
                        closed_rps.setdefault(client, {})[r], closed_cpu.setdefault(client, {})[r] = bench.throughput(client, 32)
                    except BenchError as error:
                        failures.append(str(error))
                        bench.log(f"failed: {error}")
                reached, why, failed = bench.ceilings(r)
                failures += failed
                for client in OPEN_LOOP_CLIENTS:
                    ceiling[client][r] = reached[client]
                    missed[client].append(why.get(client, "none"))
            top = args.ladder[-1]
            lines += [
                f"**Load mode**, closed loop: `sluice run --repeat {bench.requests_for('sluice-run', 32):,} --concurrency 32` "
                f"and wrk (`-t2 -c32`, {args.wrk_seconds} s), in turn. Open loop: each client's ceiling, the highest rate "
                f"of the ladder ({', '.join(f'{rate:,}' for rate in args.ladder)} requests/s, {args.ladder_seconds} s a "
                f"rung) at which it lost under {OPEN_LOOP_MOST_LOST:.0%} of the schedule (dropped, failed or unanswered) "
                f"and answered at least {OPEN_LOOP_LEAST_ACHIEVED:.0%} of the rate with 2xx responses, each client "
                "climbing until it misses a rung, the clients taking each rung in an order that turns from rung to rung.",
                "",
                "| closed loop, c=32 | req/s | CPU µs/req |",
                "|---|---:|---:|",
            ]
            for client, label in (("sluice-run", "Sluice runner (`sluice run --repeat --concurrency 32`)"), ("wrk", "wrk (`-t2 -c32`)")):
                lines.append(f"| {label} | {spread(list(closed_rps.get(client, {}).values()), ',.0f')} | "
                             f"{spread(list(closed_cpu.get(client, {}).values()), '.1f')} |")
            lines += [
                "",
                "| open loop | ceiling, req/s | first rung missed, each run |",
                "|---|---:|---|",
            ]
            for client in OPEN_LOOP_CLIENTS:
                reached = list(ceiling[client].values())
                shown = spread(reached, ",.0f") + (" (the top rung reached)" if top in reached else "")
                lines.append(f"| {OPEN_LOOP_LABELS[client]} | {shown} | {' · '.join(missed[client])} |")
            lines.append("")
            bounded = any(top in ceiling[client].values() for client in ("sluice-rate", "httperf"))
            bounded_persistent = any(top in ceiling[client].values() for client in ("sluice-rate", "httperf-persistent"))
            targets += [
                Target.ratio("Open-loop ceiling ≥ 1.5× httperf's (a new connection per request)"
                             + (" (a ceiling at the top rung: the ladder bounds the ratio)" if bounded else ""),
                             per_round_ratios(ceiling["sluice-rate"], ceiling["httperf"]), 1.5, False),
                Target.ratio("Open-loop ceiling ≥ 1.0× httperf's with persistent connections "
                             f"(`--num-calls {HTTPERF_CALLS}`)"
                             + (" (a ceiling at the top rung: the ladder bounds the ratio)" if bounded_persistent else ""),
                             per_round_ratios(ceiling["sluice-rate"], ceiling["httperf-persistent"]), 1.0, False),
                Target.ratio("Closed loop (`sluice run --repeat`) requests/s ≥ 0.6× wrk's at c=32",
                             per_round_ratios(closed_rps.get("sluice-run", {}), closed_rps.get("wrk", {})), 0.6, False),
            ]
        if "chain" in sections:
            bench.log("chain")
            chain = bench.chain()
            own_allocations = chain["stages_allocs"] - chain["bare_allocs"]
            lines += [
                f"**Chain** (in-memory transport, one request at a time, through `SessionManager.send`; µs the median "
                f"of {args.runs} run{'s' if args.runs != 1 else ''}, each the median of 10 rounds; allocations counted by "
                "`sluice-bench-allocs`):",
                "",
                "| chain | µs/request | allocations/request |",
                "|---|---:|---:|",
                f"| no stages (manager, task, transport) | {spread(chain['bare_us'], '.2f')} | {chain['bare_allocs']:.1f} |",
                f"| five built-in stages | {spread(chain['stages_us'], '.2f')} | {chain['stages_allocs']:.1f} |",
                f"| the five stages' own cost | {spread(chain['own_us'], '.2f')} | {own_allocations:.1f} |",
                "",
            ]
            targets += [
                Target.of("Five built-in stages over the bare manager: µs/request", chain["own_us"], 4, True, ".2f", " µs"),
                Target.of("Five built-in stages over the bare manager: allocations/request", [own_allocations], 25, True, ".1f", ""),
            ]
        if "memory" in sections:
            rows = []
            try:
                bench.log("1 GiB download")
                peaks = bench.download()
                rows.append(f"| peak RSS, 1 GiB download to disk | {spread(peaks, '.1f', ' MiB')} |")
                targets.append(Target.of("Peak RSS, 1 GiB download to disk", peaks, 50, True, ".1f", " MiB"))
            except BenchError as error:
                failures.append(str(error))
            try:
                bench.log(f"{args.in_flight} tasks in flight")
                held = bench.in_flight()
                rows.append(
                    f"| RSS, {args.in_flight:,} tasks in flight (slow endpoint, one connection each; "
                    f"{held['bytes_per_task'] / 1024:.1f} KiB live per task) | {spread(held['resident'], '.1f', ' MiB')} |"
                )
                rows.append(
                    f"| … of which the Swift side (same tasks held by an in-memory transport; "
                    f"{held['swift_bytes_per_task'] / 1024:.1f} KiB live per task) | {spread(held['swift_resident'], '.1f', ' MiB')} |"
                )
                targets.append(Target.of(f"RSS, {args.in_flight:,} tasks in flight", held["resident"], 80, True, ".1f", " MiB"))
            except BenchError as error:
                failures.append(str(error))
            try:
                bench.log(f"{args.load_requests} requests in load mode")
                long = bench.long_load()
                rows.append(
                    f"| RSS of `sluice run --repeat {long['requests']:,} --concurrency 32` at 10% / 50% / end "
                    f"({long['rps']:,.0f} req/s) | {long['at10']:.1f} / {long['at50']:.1f} / {long['end']:.1f} MiB |"
                )
                targets.append(Target.of("RSS of the long load run, growth from 10% to the end (flat)",
                                         [long["end"] - long["at10"]], round(max(2.0, 0.05 * long["at10"]), 1), True, "+.1f", " MiB"))
            except BenchError as error:
                failures.append(str(error))
            lines += ["**Memory**:", "", "| measurement | figure |", "|---|---:|", *rows, ""]
        if "cold-start" in sections:
            rows = []
            left_out: set[str] = set()
            for label, binary in (("release build", SLUICE), ("release build, `--static-swift-stdlib`", SLUICE_STATIC)):
                try:
                    bench.log(f"cold start, {label}")
                    cold = bench.cold_start(binary)
                    left_out.update(cold["left_out"])
                    rows.append(f"| {label} | {cold['median']:.1f} ms | {cold['max']:.1f} ms ({cold['slowest']}) |")
                    targets.append(Target.of(f"Cold start, slowest example, {label}", [cold["max"]], 20, True, ".1f", " ms"))
                except BenchError as error:
                    failures.append(str(error))
            lines += [
                "**Cold start**: `sluice validate FILE`, each example pipeline on its own (hyperfine)"
                + (f"; left out, as they do not validate on their own here: {', '.join(sorted(left_out))}" if left_out else "")
                + ":",
                "",
                "| runner | median over the examples | slowest |",
                "|---|---:|---:|",
                *rows,
                "",
            ]
        if "cookie" in sections:
            try:
                bench.log("first cookie")
                cookie_lines, cookie_targets = cookie_section(bench)
                lines += cookie_lines
                targets += cookie_targets
            except BenchError as error:
                failures.append(str(error))
        if "scale" in sections:
            scale_lines, scale_targets, scale_failures = scale_section(bench)
            lines += scale_lines
            targets += scale_targets
            failures += scale_failures
    lines += [
        "**Targets** (a ratio: the median of the rounds' ratios, their lowest and highest in brackets; met or "
        "missed by the median):",
        "",
        "| target | figure | bound | |",
        "|---|---:|---:|---|",
        *(f"| {t.name} | {t.figure} | {t.bound} | {verdict(t.met)} |" for t in targets),
        "",
    ]
    print("\n".join(lines))
    for failure in failures:
        print(f"bench: FAILED: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
