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
their own by `sluice-bench-allocs`, linked with malloc-interposer. Servers listen on 127.0.0.1 only:
- nginx, one worker, keep-alive, serving a small static JSON file and a 1 GiB file;
- Benchmarks/Servers/slow_server.py, which answers every request after a long delay.
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
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "Benchmarks/.build/release/sluice-bench"
BENCH_ALLOCS = ROOT / "Benchmarks/.build/release/sluice-bench-allocs"
SLUICE = ROOT / "Benchmarks/.build/release/sluice"
SLUICE_STATIC = ROOT / "Benchmarks/.build-static/release/sluice"
SLOW_SERVER = ROOT / "Benchmarks/Servers/slow_server.py"
JSON_BODY = b'{"id":42,"name":"sluice","tags":["http","swift"],"active":true}\n'
SECTIONS = ["throughput", "load", "chain", "memory", "cold-start"]
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


class BenchError(Exception):
    """A measurement that could not be taken; the message says which and why."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


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
    """nginx and the slow server, started in a state folder under Benchmarks/.state."""

    def __init__(self, state: Path):
        self.state = state
        self.www = state / "www"
        self.nginx_port = free_port()
        self.slow_port = free_port()
        self.slow: subprocess.Popen | None = None

    def __enter__(self) -> "Servers":
        self.www.mkdir(parents=True, exist_ok=True)
        (self.state / "tmp").mkdir(exist_ok=True)
        (self.www / "hello.json").write_bytes(JSON_BODY)
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
    server {{ listen 127.0.0.1:{self.nginx_port} backlog=4096; }}
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
        wait_until_up(self.nginx_port)
        wait_until_up(self.slow_port)
        return self

    def __exit__(self, *exc) -> None:
        pid_file = self.state / "nginx.pid"
        if pid_file.exists():
            subprocess.run(["kill", pid_file.read_text().strip()], check=False, timeout=60)
        if self.slow:
            self.slow.terminate()
            self.slow.wait(timeout=10)

    @property
    def json_url(self) -> str:
        return f"http://127.0.0.1:{self.nginx_port}/hello.json"

    @property
    def big_url(self) -> str:
        return f"http://127.0.0.1:{self.nginx_port}/1g.bin"

    @property
    def slow_url(self) -> str:
        return f"http://127.0.0.1:{self.slow_port}/slow"


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
