"""Runs Sluice's benchmarks side by side with its peers and prints the table (Markdown).

Called by scripts/bench, which installs the tools and builds the binaries first. Every figure is
the median of --runs runs; throughput runs go round-robin over the clients so that drift in the
machine's speed touches all of them alike, and each client's CPU time (user + system of its whole
process, from the kernel's accounting of finished children) is divided by the requests it sent.
Timed runs use `sluice-bench`, which nothing instruments; allocations are counted in runs of
their own by `sluice-bench-allocs`, linked with malloc-interposer. Servers listen on 127.0.0.1 only:
- nginx, one worker, keep-alive, serving a small static JSON file and a 1 GiB file;
- Benchmarks/Servers/slow_server.py, which answers every request after a long delay.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import resource
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "Benchmarks/.build/release/sluice-bench"
BENCH_ALLOCS = ROOT / "Benchmarks/.build/release/sluice-bench-allocs"
SLUICE = ROOT / "Benchmarks/.build/release/sluice"
SLUICE_STATIC = ROOT / "Benchmarks/.build-static/release/sluice"
SLOW_SERVER = ROOT / "Benchmarks/Servers/slow_server.py"
JSON_BODY = b'{"id":42,"name":"sluice","tags":["http","swift"],"active":true}\n'
CLIENTS = ["wrk", "curl", "sluice", "sluice-global", "sluice-run", "async-http-client", "urlsession"]
LABELS = {
    "wrk": "wrk (ceiling)",
    "curl": "curl CLI (`-K`, `--parallel` at c=32)",
    "sluice": "Sluice library, callers on `transport.executor`",
    "sluice-global": "Sluice library, callers on the global executor",
    "sluice-run": "Sluice runner (`sluice run --repeat`)",
    "async-http-client": "AsyncHTTPClient 1.37",
    "urlsession": "URLSession (FoundationNetworking)",
}
# URLSession is an order of magnitude slower; it sends this share of the requests, for runs of a
# similar length.
SLOW_CLIENT_SHARE = {"urlsession": 5}


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


def run(command: list[str], timeout: float = 900, env: dict | None = None) -> str:
    """Runs a command and returns its standard output; raises BenchError when it fails."""
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=timeout, env={**os.environ, **(env or {})}
        )
    except subprocess.TimeoutExpired:
        raise BenchError(f"{' '.join(command[:3])} took longer than {timeout:.0f} s")
    if done.returncode != 0:
        raise BenchError(f"{' '.join(command[:3])} exited {done.returncode}: {done.stderr.strip()[-500:]}")
    return done.stdout


def last_json(output: str) -> dict:
    return json.loads(output.strip().splitlines()[-1])


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
            subprocess.run(["kill", pid_file.read_text().strip()], check=False)
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
            out = run(["wrk", f"-t{threads}", f"-c{concurrency}", f"-d{self.args.wrk_seconds}s", url])
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
            pipeline = self.pipeline()
            load = json.loads(
                run([str(SLUICE), "run", "--repeat", str(n), "--concurrency", str(concurrency), "--format", "json", str(pipeline)])
            )["load"]
            if load["errors"]:
                raise BenchError(f"sluice run: {load['errors']} errors: {load['first-error']}")
            rps = float(load["rps"])
        else:
            result = last_json(
                run([str(BENCH), "throughput", "--client", client, "--url", url, "--requests", str(n), "--concurrency", str(concurrency)])
            )
            if result["errors"]:
                raise BenchError(f"{client}: {result['errors']} errors: {result['firstError']}")
            rps = float(result["rps"])
        return rps, (children_cpu() - cpu_before) * 1e6 / n

    # Chain

    def chain(self) -> dict:
        timed = [last_json(run([str(BENCH), "chain", "--iterations", str(self.args.chain_iterations)])) for _ in range(self.args.runs)]
        counted = last_json(run([str(BENCH_ALLOCS), "chain", "--iterations", "20000", "--warmup", "2000", "--rounds", "1"]))
        return {
            "bare_us": statistics.median(r["bareMicroseconds"] for r in timed),
            "stages_us": statistics.median(r["stagesMicroseconds"] for r in timed),
            "own_us": statistics.median(r["stagesMicroseconds"] - r["bareMicroseconds"] for r in timed),
            "bare_allocs": counted["bareAllocations"],
            "stages_allocs": counted["stagesAllocations"],
        }

    # Memory

    def download(self) -> float:
        peaks = []
        for _ in range(self.args.runs):
            result = last_json(run([str(BENCH), "download", "--url", self.servers.big_url, "--to", str(self.state / "download.bin")]))
            if result["status"] != 200 or result["bytes"] != 1 << 30:
                raise BenchError(f"download: {result}")
            peaks.append(result["peakResidentMiB"])
        return statistics.median(peaks)

    def in_flight(self) -> dict:
        """Resident memory with the tasks in flight (timed binary), bytes per task (counting binary)."""
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
            "resident": statistics.median(r["residentInFlightMiB"] for r in held),
            "before": statistics.median(r["residentBeforeMiB"] for r in held),
            "bytes_per_task": counted["allocatedBytesPerTask"],
            "swift_resident": statistics.median(r["residentInFlightMiB"] for r in swift_side),
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
        """The median time of `sluice validate FILE` for each example, with hyperfine."""
        export = self.state / "hyperfine.json"
        env = {"CLIENT_SECRET": "benchmark", "API_TOKEN": "benchmark"}
        times = {}
        for example in sorted((ROOT / "pipelines").glob("*.yaml")):
            run(
                ["hyperfine", "--shell=none", "--warmup", "3", "--runs", str(max(10, 10 * self.args.runs)),
                 "--export-json", str(export), f"{sluice} validate {example}"],
                env=env,
            )
            times[example.name] = statistics.median(json.loads(export.read_text())["results"][0]["times"]) * 1000
        slowest = max(times, key=times.get)
        return {"median": statistics.median(times.values()), "max": times[slowest], "slowest": slowest, "count": len(times)}


def machine() -> str:
    cpu = "unknown CPU"
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
    memory = int(re.search(r"MemTotal:\s+(\d+)", Path("/proc/meminfo").read_text()).group(1)) / 1024 / 1024
    return f"{cpu}, {os.cpu_count()} cores, {memory:.0f} GiB, Linux {platform.release()}"


def versions() -> str:
    nginx = subprocess.run(["nginx", "-v"], capture_output=True, text=True).stderr.strip().split("/")[-1]
    curl = subprocess.run(["curl", "--version"], capture_output=True, text=True).stdout.split()[1]
    swift = re.search(r"Swift version (\S+)", subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout)
    return f"nginx {nginx} (1 worker), curl/libcurl {curl}, Swift {swift.group(1) if swift else '?'}"


def verdict(ok: bool) -> str:
    return "met" if ok else "**missed**"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per figure; the median is shown (default 5)")
    parser.add_argument("--requests", type=int, default=100_000, help="requests per throughput run at c=32 (default 100000)")
    parser.add_argument("--requests-c1", type=int, default=20_000, help="requests per throughput run at c=1 (default 20000)")
    parser.add_argument("--wrk-seconds", type=int, default=5, help="length of each wrk run (default 5)")
    parser.add_argument("--chain-iterations", type=int, default=200_000, help="requests per chain run")
    parser.add_argument("--in-flight", type=int, default=10_000, help="tasks held in flight (default 10000)")
    parser.add_argument("--load-requests", type=int, default=1_000_000, help="requests of the long load run")
    parser.add_argument("--only", choices=["throughput", "chain", "memory", "cold-start"], action="append",
                        help="run only these sections (repeatable)")
    args = parser.parse_args()
    sections = set(args.only or ["throughput", "chain", "memory", "cold-start"])

    state = ROOT / "Benchmarks/.state"
    state.mkdir(parents=True, exist_ok=True)
    lines: list[str] = []
    failures: list[str] = []
    with Servers(state) as servers:
        bench = Bench(args, servers)
        lines += [
            f"Measured {datetime.date.today().isoformat()} on {machine()}; {versions()}.",
            f"Every figure is the median of {args.runs} run{'s' if args.runs != 1 else ''}.",
            "",
        ]
        if "throughput" in sections:
            figures: dict[tuple[str, int], list[tuple[float, float]]] = {}
            for r in range(args.runs):
                for concurrency in (1, 32):
                    for client in CLIENTS:
                        bench.log(f"run {r + 1}/{args.runs}: {client} at c={concurrency}")
                        try:
                            measured = bench.throughput(client, concurrency)
                            figures.setdefault((client, concurrency), []).append(measured)
                        except BenchError as error:
                            failures.append(str(error))
                            bench.log(f"failed: {error}")
            rps = {key: statistics.median(v[0] for v in values) for key, values in figures.items()}
            cpu = {key: statistics.median(v[1] for v in values) for key, values in figures.items()}
            lines += [
                f"**Throughput**: GET of a {len(JSON_BODY)}-byte JSON file over keep-alive HTTP/1.1, "
                f"{args.requests_c1:,} requests per run at c=1 and {args.requests:,} at c=32 (URLSession a "
                f"{SLOW_CLIENT_SHARE['urlsession']}th of that; wrk: {args.wrk_seconds} s). CPU: user + system "
                "time of the client's whole process per request (the server's not counted).",
                "",
                "| client | c=1 req/s | c=1 CPU µs/req | c=32 req/s | c=32 CPU µs/req |",
                "|---|---:|---:|---:|---:|",
            ]
            for client in CLIENTS:
                cells = []
                for c in (1, 32):
                    cells += [f"{rps[(client, c)]:,.0f}", f"{cpu[(client, c)]:.1f}"] if (client, c) in rps else ["failed", "failed"]
                lines.append(f"| {LABELS[client]} | " + " | ".join(cells) + " |")
            lines.append("")

            def ratio(table: dict, a: str, b: str, c: int) -> float | None:
                return table[(a, c)] / table[(b, c)] if (a, c) in table and (b, c) in table else None

            # (what, figure, bound, whether the figure must stay at or under the bound)
            targets = [
                ("Library CPU/request ≤ 1.1× curl's at c=32", ratio(cpu, "sluice", "curl", 32), 1.1, True),
                ("Runner CPU/request ≤ 1.1× curl's at c=32", ratio(cpu, "sluice-run", "curl", 32), 1.1, True),
                ("Library CPU/request ≤ 0.8× AsyncHTTPClient's at c=32", ratio(cpu, "sluice", "async-http-client", 32), 0.8, True),
                ("Runner CPU/request ≤ 0.8× AsyncHTTPClient's at c=32", ratio(cpu, "sluice-run", "async-http-client", 32), 0.8, True),
                ("Library throughput ≥ 1.2× AsyncHTTPClient at c=32", ratio(rps, "sluice", "async-http-client", 32), 1.2, False),
                ("Runner throughput ≥ 0.95× the library's at c=32", ratio(rps, "sluice-run", "sluice", 32), 0.95, False),
                ("Library ≥ 0.9× curl's requests/s at c=1", ratio(rps, "sluice", "curl", 1), 0.9, False),
                ("Runner ≥ 0.9× curl's requests/s at c=1", ratio(rps, "sluice-run", "curl", 1), 0.9, False),
                ("(callers on the global executor) library CPU/request ≤ 1.1× curl's at c=32",
                 ratio(cpu, "sluice-global", "curl", 32), 1.1, True),
                ("(callers on the global executor) library throughput ≥ 1.2× AsyncHTTPClient at c=32",
                 ratio(rps, "sluice-global", "async-http-client", 32), 1.2, False),
                ("(callers on the global executor) library ≥ 0.9× curl at c=1", ratio(rps, "sluice-global", "curl", 1), 0.9, False),
            ]
            lines += ["| target | ratio | |", "|---|---:|---|"]
            for name, value, bound, at_most in targets:
                shown = f"{value:.2f}×" if value is not None else "n/a"
                met = value is not None and (value <= bound if at_most else value >= bound)
                lines.append(f"| {name} | {shown} | {verdict(met)} |")
            lines.append("")
        if "chain" in sections:
            bench.log("chain")
            chain = bench.chain()
            lines += [
                f"**Chain** (in-memory transport, one request at a time, through `SessionManager.send`; µs the median "
                f"of {args.runs} runs, each the median of 10 rounds; allocations counted by `sluice-bench-allocs`):",
                "",
                "| chain | µs/request | allocations/request |",
                "|---|---:|---:|",
                f"| no stages (manager, task, transport) | {chain['bare_us']:.2f} | {chain['bare_allocs']:.1f} |",
                f"| five built-in stages | {chain['stages_us']:.2f} | {chain['stages_allocs']:.1f} |",
                f"| the five stages' own cost | {chain['own_us']:.2f} | "
                f"{chain['stages_allocs'] - chain['bare_allocs']:.1f} |",
                "",
                f"Target ≤ 5 µs per request for the five stages over the bare manager: {verdict(chain['own_us'] <= 5)} "
                f"({chain['own_us']:.2f} µs).",
                "",
            ]
        if "memory" in sections:
            rows = []
            try:
                bench.log("1 GiB download")
                peak = bench.download()
                rows.append(f"| peak RSS, 1 GiB download to disk | {peak:.1f} MiB | ≤ 50 MiB: {verdict(peak <= 50)} |")
            except BenchError as error:
                failures.append(str(error))
            try:
                bench.log(f"{args.in_flight} tasks in flight")
                held = bench.in_flight()
                rows.append(
                    f"| RSS, {args.in_flight:,} tasks in flight (slow endpoint, one connection each; "
                    f"{held['bytes_per_task'] / 1024:.1f} KiB live per task) | "
                    f"{held['resident']:.1f} MiB | ≤ 100 MiB: {verdict(held['resident'] <= 100)} |"
                )
                rows.append(
                    f"| … of which the Swift side (same tasks held by an in-memory transport; "
                    f"{held['swift_bytes_per_task'] / 1024:.1f} KiB live per task) | {held['swift_resident']:.1f} MiB | |"
                )
            except BenchError as error:
                failures.append(str(error))
            try:
                bench.log(f"{args.load_requests} requests in load mode")
                long = bench.long_load()
                growth = long["end"] - long["at10"]
                flat = growth <= max(2.0, 0.05 * long["at10"])
                rows.append(
                    f"| RSS of `sluice run --repeat {long['requests']:,} --concurrency 32` at 10% / 50% / end "
                    f"({long['rps']:,.0f} req/s) | {long['at10']:.1f} / {long['at50']:.1f} / {long['end']:.1f} MiB | "
                    f"flat: {verdict(flat)} ({growth:+.1f} MiB) |"
                )
            except BenchError as error:
                failures.append(str(error))
            lines += ["**Memory**:", "", "| measurement | figure | target |", "|---|---:|---|", *rows, ""]
        if "cold-start" in sections:
            rows = []
            for label, binary in (("release build", SLUICE), ("release build, `--static-swift-stdlib`", SLUICE_STATIC)):
                try:
                    bench.log(f"cold start, {label}")
                    figures = bench.cold_start(binary)
                    rows.append(
                        f"| {label} | {figures['median']:.1f} ms | {figures['max']:.1f} ms ({figures['slowest']}) | "
                        f"{verdict(figures['max'] <= 20)} |"
                    )
                except BenchError as error:
                    failures.append(str(error))
            lines += [
                "**Cold start**: `sluice validate FILE`, each example pipeline on its own (hyperfine):",
                "",
                "| runner | median over the examples | slowest | target ≤ 20 ms |",
                "|---|---:|---:|---|",
                *rows,
                "",
            ]
    print("\n".join(lines))
    for failure in failures:
        print(f"bench: FAILED: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
