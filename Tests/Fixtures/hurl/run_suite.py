#!/usr/bin/env python3
"""Runs Hurl's vendored integration suite through `sluice run`, twice a case.

For every `checks` case of cases.tsv (the outcome is the pass/fail of the file's asserts), each run
of the case's `.sh` is run from this folder, as Hurl's runner does:

  hurl form  sluice run --no-color [options] FILE.hurl
  yaml form  sluice convert FILE.hurl > FILE.converted.yaml (beside the .hurl, so that its relative
             paths mean what they mean from the .hurl; removed afterwards), then
             sluice run --no-color [options] FILE.converted.yaml

where [options] are `--connect-to` for both of servers.json's hurlConnectTo mappings and for
hurlTLSConnectTo's (Hurl's TLS servers: localhost:8001 self-signed, 8002 CA-signed, 8003 client
certificate required; curl's semantics keep the name localhost for the certificate check), then the
case's Hurl options (its config file's, its HURL_* environment's, its command line's) mapped onto
`sluice run`'s by FLAGS below. An option FLAGS does not map makes the case `unmapped`: counted as
not passing, never dropped. A form passes when its exit status is the one Hurl's case expects.

A case that does not pass in a form must be listed in expected-failures.json, with the form
(`both`, `hurl` or `yaml`) and a reason; an unlisted failure makes the exit status 1. A listed
case that passes is reported, to be taken off the list (not a failure: as Tests/CacheTests/run.mjs,
a timing-bound case may pass on a quiet machine).

Cases run one at a time, in sorted order: some keep state in the server (retry jobs, the skip
counter, delay timers). Python 3 standard library only. scripts/hurl-suite is the entry point.

  run_suite.py --servers .test-servers/servers.json [--sluice PATH] [--only CASE]... [--keep DIR]
  run_suite.py --list      every case not run (cli-output, needs:...), and why
  run_suite.py --plan      each checks case's sluice run options, or why it cannot run
"""

import argparse
import csv
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
CASES = HERE / "cases.tsv"
EXPECTED = HERE / "expected-failures.json"
BUILD = HERE / "build"
CONVERTED_SUFFIX = ".converted.yaml"  # ignored by .gitignore in this folder

TIMEOUT_SECONDS = 60  # a run's; the slow cases (limit_rate, delay, parallel) take about 15 s
SETTINGS = {"timeout": TIMEOUT_SECONDS}

# ---------------------------------------------------------------------------------------------
# Hurl's options onto `sluice run`'s. One row an option: (how many values it takes, what it
# becomes). What it becomes is a list of arguments, where {value} is the option's value, {ms} the
# value read as Hurl reads a duration (a bare number is milliseconds: 1000 -> 1000ms),
# {unix_socket} servers.json's hurlUnixSocket and {ipv6_connect_to} the mapping of the ipv6 case's
# [::1]:8004 onto servers.json's hurlIPv6; or IGNORED (the option changes only Hurl's output), or
# UNMAPPED (no spelling in `sluice run` yet: the case is reported `unmapped: --option`).
# The third column says whether `sluice run --help` lists the spelling (yes), or not yet.
IGNORED = "ignored"
SKIP = "skipped: "  # a case this host cannot serve: reported, neither passing nor failing
UNMAPPED = None

FLAGS = {
    # variables
    "--variable": (1, ["--var", "{value}"], "yes"),
    "--variables-file": (1, ["--vars-file", "{value}"], "yes"),
    # redirects
    "--location": (0, ["--location"], "yes"),
    "--location-trusted": (0, ["--location-trusted"], "yes"),
    "--max-redirs": (1, ["--max-redirs", "{value}"], "yes"),
    # request
    "--user": (1, ["--user", "{value}"], "yes"),
    "--header": (1, ["--header", "{value}"], "yes"),
    "--compressed": (0, ["--compressed"], "yes"),
    "--user-agent": (1, ["--user-agent", "{value}"], "yes"),
    "--path-as-is": (0, ["--path-as-is"], "yes"),
    "--netrc-file": (1, ["--netrc-file", "{value}"], "yes"),
    "--file-root": (1, ["--file-root", "{value}"], "yes"),
    # cookies
    "--cookie": (1, ["--cookie", "{value}"], "yes"),
    "--cookie-jar": (1, ["--cookie-jar", "{value}"], "yes"),
    "--no-cookie-store": (0, ["--no-cookie-store"], "yes"),
    # connection
    # TLS (the tests_ssl cases). File values are passed as written: sluice runs from this folder,
    # as Hurl from integration/hurl, so a relative path means the same file to both.
    "--insecure": (0, ["--insecure"], "yes"),
    "--cacert": (1, ["--cacert", "{value}"], "yes"),
    "--cert": (1, ["--cert", "{value}"], "yes"),
    "--key": (1, ["--key", "{value}"], "yes"),
    "--pinnedpubkey": (1, ["--pinnedpubkey", "{value}"], "yes"),
    # Hurl reads a bare number as seconds here (curl's -m), as `sluice run --max-time` does: as is.
    "--max-time": (1, ["--max-time", "{value}"], "yes"),
    "--http1.0": (0, ["--http1.0"], "yes"),
    "--http1.1": (0, ["--http1.1"], "yes"),
    "--ipv6": (0, ["--ipv6", "--connect-to", "{ipv6_connect_to}"], "yes"),
    "--unix-socket": (1, ["--unix-socket", "{unix_socket}"], "yes"),
    "--proxy": (1, ["--proxy", "{value}"], "yes"),
    "--no-proxy": (1, ["--no-proxy", "{value}"], "yes"),
    # running
    "--ignore-asserts": (0, ["--ignore-asserts"], "yes"),
    "--delay": (1, ["--delay", "{ms}"], "yes"),
    "--retry": (1, ["--retry", "{value}"], "yes"),
    "--retry-interval": (1, ["--retry-interval", "{ms}"], "yes"),
    # Hurl repeats the whole sequence of files N times: the files listed N times (`sluice run
    # --repeat` is load mode, each request N times), done in plan() below.
    "--repeat": (1, IGNORED, "yes"),
    "--from-entry": (1, ["--from-entry", "{value}"], "yes"),
    "--to-entry": (1, ["--to-entry", "{value}"], "yes"),
    "--output": (1, ["--output", "{value}"], "yes"),
    # Hurl's --parallel runs the files at once, --jobs N at most N: `sluice run --jobs N`.
    "--parallel": (0, IGNORED, "-"),
    "--jobs": (1, ["--jobs", "{value}"], "yes"),
    # output only
    "--verbose": (0, IGNORED, "-"),
    "--very-verbose": (0, IGNORED, "-"),
    "--no-output": (0, IGNORED, "-"),
    "--no-color": (0, IGNORED, "-"),
    "--no-pretty": (0, IGNORED, "-"),
    "--json": (0, IGNORED, "-"),
    # no spelling yet
    "--digest": (0, ["--digest"], "yes"),
    "--limit-rate": (1, ["--limit-rate", "{value}"], "yes"),
    "--no-header": (1, ["--no-header", "{value}"], "yes"),
    "--no-jsonpath-coercion": (0, ["--no-jsonpath-coercion"], "yes"),
    "--connect-to": (1, UNMAPPED, "-"),  # the needs:port-8000 cases: chained onto ours
    "--resolve": (1, UNMAPPED, "-"),
}

# Hurl's short options, by their long name.
SHORT = {
    "-u": "--user", "-H": "--header", "-L": "--location", "-k": "--insecure", "-b": "--cookie",
    "-c": "--cookie-jar", "-v": "--verbose", "-o": "--output", "-x": "--proxy",
    "-A": "--user-agent", "-0": "--http1.0", "-6": "--ipv6", "-E": "--cert", "-m": "--max-time",
}

# Environment the case's .sh sets, other than HURL_* (which is: HURL_VARIABLE_name or HURL_name
# a variable, --var name=value; HURL_OPTION_NAME an option, --option-name) and XDG_CONFIG_HOME
# (whose hurl/config lines are more options, read before the command line's). "pass" would hand
# the variable on to sluice's environment; UNMAPPED reports the case `unmapped: env NAME`.
ENV = {
    # Hurl's libcurl reads it beside --proxy; so does `sluice run FILE.hurl` (and convert).
    "no_proxy": "pass",
}

# Cases whose outcome depends on time or on what ran before, beyond their exit status.
# pause_before: seconds to wait before each form (retry_until_200 answers 200 at once when the
# previous request to it came less than 5 s before: the other form's run would make the retry
# untested). max_seconds: the .sh fails a run that takes longer (parallel: four 5-second files).
PAUSE_BEFORE = {"tests_ok/retry/retry_until_200": 5.5}
MAX_SECONDS = {"tests_ok/parallel/parallel": 6}

# Hurl's exit statuses onto sluice's: 0 success; Hurl 1 (command line) and 2 (parse error) are
# sluice's 2 (invalid), 3 (runtime error) and 4 (assert failed) its 1.
EXIT_STATUS = {0: 0, 1: 2, 2: 2, 3: 1, 4: 1}


# ---------------------------------------------------------------------------------------------
# Reading the cases

def read_cases():
    with CASES.open(newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))
    return sorted(rows, key=lambda row: row["case"])


def sh_runs(case):
    """The hurl runs of the case's .sh, each with the environment it exports: a small reading of
    the only shell the cases use (export, NAME=VALUE, unset, continuation lines, $(dirname "$0"))."""
    script = HERE / (case + ".sh")
    text = script.read_text(encoding="utf-8").replace("\\\n", " ")
    folder = str(Path(case).parent)
    variables, exported, runs = {}, set(), []
    for line in text.splitlines():
        line = line.strip().replace('$(dirname "$0")', folder)
        if not line or line.startswith("#"):
            continue
        try:
            words = shlex.split(line)
        except ValueError:
            continue
        if not words:
            continue
        if words[0] == "export":
            for word in words[1:]:
                name, sep, value = word.partition("=")
                if sep:
                    variables[name] = value
                exported.add(name)
        elif words[0] == "unset":
            for name in words[1:]:
                variables.pop(name, None)
                exported.discard(name)
        elif len(words) == 1 and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=.*", words[0]):
            name, _, value = words[0].partition("=")
            variables[name] = value
        elif words[0] == "hurl":
            runs.append({name: variables[name] for name in sorted(exported) if name in variables})
    return runs


def sh_zero_files(case):
    """The files of zero bytes the case's .sh makes before it runs Hurl, as (path under build/,
    size): its `dd if=/dev/zero of=build/NAME bs=N count=C` lines, the only preparation a case's
    shell does; made here in place of running the shell."""
    made = []
    for line in (HERE / (case + ".sh")).read_text(encoding="utf-8").splitlines():
        words = shlex.split(line.strip()) if line.strip().startswith("dd ") else []
        fields = dict(word.split("=", 1) for word in words[1:] if "=" in word)
        if fields.get("if") == "/dev/zero" and fields.get("of", "").startswith("build/"):
            made.append((fields["of"][len("build/"):], int(fields["bs"]) * int(fields.get("count", "1"))))
    return made


def split_options(words):
    """Hurl's arguments: a list of (option, value or None) and the files."""
    options, files = [], []
    i = 0
    while i < len(words):
        word = words[i]
        i += 1
        if not word.startswith("-") or word == "-":
            files.append(word)
            continue
        name, sep, inline = word.partition("=") if word.startswith("--") else (word, "", "")
        name = SHORT.get(name, name)
        arity = FLAGS[name][0] if name in FLAGS else None
        if sep:
            options.append((name, inline))
        elif arity == 1 or (arity is None and i < len(words) and not words[i].startswith("-")
                            and not words[i].endswith(".hurl")):
            options.append((name, words[i] if i < len(words) else ""))
            i += 1
        else:
            options.append((name, None))
    return options, files


def config_options(folder):
    """The options of a Hurl config file ($XDG_CONFIG_HOME/hurl/config): its words, comments out."""
    path = HERE / folder / "hurl" / "config"
    if not path.is_file():
        return None
    words = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.strip().startswith("#"):
            words += shlex.split(line)
    return split_options(words)[0]


def env_options(env):
    """The case's environment as Hurl options, and what has no mapping."""
    options, unmapped, passed = [], [], {}
    for name, value in env.items():
        if name == "XDG_CONFIG_HOME":
            found = config_options(value)
            if found is None:
                unmapped.append(f"env XDG_CONFIG_HOME={value} (no hurl/config there)")
            else:
                options[:0] = found
        elif name.startswith("HURL_"):
            rest = name[len("HURL_"):]
            option = "--" + rest.lower().replace("_", "-")
            if rest.startswith("VARIABLE_"):
                options.append(("--variable", f"{rest[len('VARIABLE_'):]}={value}"))
            elif rest.isupper() and option in FLAGS:
                if FLAGS[option][0] == 0:
                    if value.lower() in ("1", "true"):
                        options.append((option, None))
                else:
                    options.append((option, value))
            else:
                options.append(("--variable", f"{rest}={value}"))
        elif ENV.get(name) == "pass":
            passed[name] = value
        else:
            unmapped.append(f"env {name}")
    return options, unmapped, passed


def ms(value):
    return value + "ms" if re.fullmatch(r"\d+", value) else value


def map_options(options, context):
    """Hurl options onto sluice run arguments, and the ones with no mapping."""
    arguments, unmapped = [], []
    for name, value in options:
        if name not in FLAGS or FLAGS[name][1] is UNMAPPED:
            unmapped.append(name)
            continue
        spelling = FLAGS[name][1]
        if spelling == IGNORED:
            continue
        fields = dict(context, value=value or "", ms=ms(value or ""))
        arguments += [template.format(**fields) for template in spelling]
    return arguments, unmapped


def plan(row, context):
    """The case's runs: [{files, arguments, env}], and what keeps it from running."""
    commands = [c for c in row["command"].split(" ; ")]
    envs = sh_runs(row["case"])
    problems = []
    if len(envs) != len(commands):
        problems.append(f"the .sh has {len(envs)} hurl runs, cases.tsv's command {len(commands)}")
        envs = (envs + [{}] * len(commands))[: len(commands)]
    runs = []
    for command, env in zip(commands, envs):
        words = shlex.split(command)
        if not words or words[0] != "hurl":
            problems.append(f"not a hurl command: {command}")
            continue
        options, files = split_options(words[1:])
        if any(name == "--ipv6" for name, _ in options) and not context.get("ipv6_connect_to"):
            return [], [SKIP + "the host has no IPv6 loopback (servers.json's hurlIPv6 is null)"]
        from_env, env_unmapped, passed = env_options(env)
        arguments, unmapped = map_options(from_env + options, context)
        for path in files:
            if not (HERE / path).is_file():
                problems.append(f"missing: {path}")
        problems += [f"unmapped: {u}" for u in env_unmapped + unmapped]
        repeat = next((int(value) for name, value in options if name == "--repeat" and value and value.isdigit()), 1)
        runs.append({"files": files * repeat, "arguments": arguments, "env": passed})
    return runs, sorted(set(problems), key=problems.index)


# ---------------------------------------------------------------------------------------------
# Running

def clean_environment():
    """The environment sluice runs in: ours without proxies (everything here is on loopback)
    nor SLUICE_VAR_* variables, which would reach the files."""
    env = {}
    for name, value in os.environ.items():
        lower = name.lower()
        if lower in ("http_proxy", "https_proxy", "all_proxy", "no_proxy") or name.startswith("SLUICE_VAR_"):
            continue
        env[name] = value
    env["NO_COLOR"] = "1"
    return env


def execute(argv, env):
    start = time.monotonic()
    try:
        done = subprocess.run(argv, cwd=HERE, env=env, stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=SETTINGS["timeout"])
        status, out, err = done.returncode, done.stdout, done.stderr
    except subprocess.TimeoutExpired as timeout:
        status, out, err = f"timeout after {SETTINGS['timeout']:g} s", timeout.stdout or b"", timeout.stderr or b""
    return {
        "argv": argv,
        "status": status,
        "stdout": out.decode("utf-8", "replace"),
        "stderr": err.decode("utf-8", "replace"),
        "seconds": time.monotonic() - start,
    }


def untracked_files():
    """Files under this folder that git neither tracks nor ignores (None without git): what a run
    leaves outside build/, such as Hurl's `output: -` (standard output) taken as a file named `-`."""
    try:
        listed = subprocess.run(["git", "ls-files", "--others", "--exclude-standard", "-z", "."], cwd=HERE,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    return {name for name in listed.decode("utf-8", "replace").split("\0") if name}


def fresh_build_folder():
    if BUILD.is_symlink() or BUILD.is_file():
        BUILD.unlink()
    elif BUILD.is_dir():
        shutil.rmtree(BUILD)
    BUILD.mkdir()


# `sluice run`'s options that set every entry of a .hurl file (Hurl's command line): in the yaml
# form they go to `sluice convert`, which writes them into the converted file, and not to
# `sluice run`, which refuses them beside a pipeline file. The number is how many values follow.
CONVERT_OPTIONS = {
    "--location": 0, "--location-trusted": 0, "--max-redirs": 1, "--delay": 1, "--retry": 1, "--retry-interval": 1,
    "--header": 1, "--no-header": 1, "--no-cookie-store": 0, "--ignore-asserts": 0, "--output": 1, "--from-entry": 1, "--to-entry": 1,
    "--http1.0": 0, "--http1.1": 0, "--http2": 0, "--limit-rate": 1, "--cookie": 1, "--cookie-jar": 1, "--digest": 0, "--netrc-file": 1, "--path-as-is": 0, "--file-root": 1, "--proxy": 1, "--no-proxy": 1, "--compressed": 0, "--no-jsonpath-coercion": 0,
    "--insecure": 0, "--cacert": 1, "--cert": 1, "--key": 1, "--pinnedpubkey": 1, "--max-time": 1,
}


def split_convert_options(arguments):
    """The arguments as (those for `sluice convert`, those for `sluice run`). With --digest, -u is
    the entries' credential, written into the converted file, not `sluice run`'s Basic header."""
    convert, run, index = [], [], 0
    while index < len(arguments):
        taken = CONVERT_OPTIONS.get(arguments[index])
        if taken is None and arguments[index] == "--user" and "--digest" in arguments:
            taken = 1
        if taken is None:
            run.append(arguments[index])
            index += 1
        else:
            convert += arguments[index:index + 1 + taken]
            index += 1 + taken
    return convert, run


def run_form(row, form, runs, args, context, keep):
    """Runs the case's runs in one form: {"ok", "status", "runs", "seconds"}."""
    case = row["case"]
    if case in PAUSE_BEFORE:
        time.sleep(PAUSE_BEFORE[case])
    fresh_build_folder()
    for name, size in sh_zero_files(case):
        with open(BUILD / name, "wb") as made:
            made.truncate(size)
    env = clean_environment()
    expected = EXIT_STATUS.get(int(row["exit"] or 0), int(row["exit"] or 0))
    done, converted = [], {}
    try:
        status = 0
        for run in runs:
            if form == "yaml":
                # Each run's files converted with that run's options and environment (no_proxy).
                options = split_convert_options(run["arguments"])[0]
                for path in dict.fromkeys(run["files"]):
                    target = str(Path(path).with_name(Path(path).stem + CONVERTED_SUFFIX))
                    result = execute([args.sluice, "convert", *options, path], dict(env, **run["env"]))
                    done.append(result)
                    if result["status"] != 0:
                        return {"ok": False, "status": f"convert {path}: exit {result['status']}", "runs": done}
                    (HERE / target).write_text(result["stdout"], encoding="utf-8")
                    converted[path] = target
                    if keep:
                        copy = keep / case / Path(target).name
                        copy.parent.mkdir(parents=True, exist_ok=True)
                        copy.write_text(result["stdout"], encoding="utf-8")
            files = [converted.get(f, f) for f in run["files"]]
            arguments = split_convert_options(run["arguments"])[1] if form == "yaml" else run["arguments"]
            argv = [args.sluice, "run", "--no-color", *context["connect_to"], *arguments, *files]
            result = execute(argv, dict(env, **run["env"]))
            done.append(result)
            limit = MAX_SECONDS.get(case)
            if result["status"] == 0 and limit and result["seconds"] > limit:
                status = f"took {result['seconds']:.1f} s, more than the case's {limit} s"
                break
            if result["status"] != 0:
                status = result["status"]
                break
        return {"ok": status == expected, "status": status, "runs": done}
    finally:
        for target in converted.values():
            (HERE / target).unlink(missing_ok=True)


def describe(form_result):
    if form_result is None:
        return "-"
    status = form_result["status"]
    if isinstance(status, int):
        status = f"exit {status}"
    seconds = sum(run["seconds"] for run in form_result.get("runs", []))
    return ("pass" if form_result["ok"] else f"FAIL ({status})") + f" {seconds:.1f}s"


def failed_lines(text, lines):
    """The lines of sluice's output that say what failed: each request marked ✘ and the indented
    lines under it; the first lines when none is marked (an error before any request)."""
    body = text.rstrip("\n").splitlines()
    picked, inside = [], False
    for line in body:
        if line.startswith("✘"):
            inside = True
        elif not line[:1].isspace():
            inside = False
        if inside:
            picked.append(line)
    picked = picked or body
    return picked[:lines] + ([f"... ({len(picked) - lines} more lines)"] if len(picked) > lines else [])


def excerpt(form_result, lines=12):
    """What the last run (the one that decided) printed about the failure."""
    if not form_result or not form_result.get("runs"):
        return []
    run = form_result["runs"][-1]
    shown = ["    $ " + " ".join(shlex.quote(a) for a in run["argv"])]
    for stream in ("stdout", "stderr"):
        body = failed_lines(run[stream], lines)
        if body:
            shown += [f"    {stream}: " + body[0]] + ["      " + l for l in body[1:]]
    return shown


def first_failure(form_result):
    """One line saying why a form failed, for --results."""
    if not form_result:
        return None
    if form_result["ok"]:
        return None
    run = form_result["runs"][-1] if form_result.get("runs") else None
    for stream in ("stderr", "stdout"):
        lines = failed_lines(run[stream], 3) if run else []
        if lines:
            return " ".join(l.strip() for l in lines)
    return str(form_result["status"])


# ---------------------------------------------------------------------------------------------

def load_expected():
    data = json.loads(EXPECTED.read_text(encoding="utf-8"))
    listed = {}
    for case, entry in data.get("cases", {}).items():
        form = entry.get("form", "both")
        listed[case] = {"both": {"hurl", "yaml"}, "hurl": {"hurl"}, "yaml": {"yaml"}}.get(form)
        if listed[case] is None:
            sys.exit(f"expected-failures.json: {case}: form must be both, hurl or yaml, not {form!r}")
    return data.get("cases", {}), listed


def list_cases(rows):
    shown = [row for row in rows if row["category"] != "checks"]
    for row in shown:
        print(f"{row['category']:<18} {row['case']:<58} {row['notes']}")
    print(f"\n{len(shown)} of the {len(rows)} cases are not run (the other {len(rows) - len(shown)} are checks cases)")


def main():
    parser = argparse.ArgumentParser(description="Runs Hurl's vendored suite through sluice run.")
    parser.add_argument("--servers", help="servers.json of scripts/test-servers")
    parser.add_argument("--sluice", default=str(HERE.parents[2] / ".build/debug/sluice"))
    parser.add_argument("--only", action="append", default=[], metavar="CASE",
                        help="run only this case (tests_ok/topic/case, or its last part); repeatable")
    parser.add_argument("--list", action="store_true", help="print every case not run, and why")
    parser.add_argument("--plan", action="store_true",
                        help="print each checks case's sluice run arguments (or why it cannot run), run nothing")
    parser.add_argument("--keep", metavar="DIR", help="keep each case's converted YAML under DIR")
    parser.add_argument("--results", metavar="FILE",
                        help="write each case's outcome as JSON (a draft for expected-failures.json)")
    parser.add_argument("--timeout", type=float, default=TIMEOUT_SECONDS,
                        help=f"seconds a run may take (default {TIMEOUT_SECONDS})")
    args = parser.parse_args()
    SETTINGS["timeout"] = args.timeout

    rows = read_cases()
    if args.list:
        list_cases(rows)
        return 0
    if args.servers:
        servers = json.loads(Path(args.servers).read_text(encoding="utf-8"))
    elif args.plan:
        servers = {"hurlConnectTo": ["localhost:8000:127.0.0.1:PORT", "127.0.0.1:8000:127.0.0.1:PORT"],
                   "hurlTLSConnectTo": [f"localhost:{port}:127.0.0.1:TLS{port}" for port in (8001, 8002, 8003)],
                   "hurlIPv6": "http://[::1]:PORT6", "hurlUnixSocket": "SOCKET"}
    else:
        parser.error("--servers is needed to run cases")
    if not servers.get("hurlConnectTo"):
        sys.exit("hurl suite: servers.json has no hurlConnectTo: start the servers again (scripts/test-servers start)")
    ipv6 = servers.get("hurlIPv6")
    context = {
        "connect_to": [a for mapping in servers["hurlConnectTo"] + (servers.get("hurlTLSConnectTo") or [])
                       for a in ("--connect-to", mapping)],
        "unix_socket": servers.get("hurlUnixSocket") or "",
        "ipv6_connect_to": "[::1]:8004:" + ipv6.split("//", 1)[1] if ipv6 else "",
    }
    if args.plan:
        for row in rows:
            if row["category"] == "checks":
                runs, problems = plan(row, context)
                print(row["case"])
                for line in problems or [
                    "sluice run --no-color [--connect-to ...] "
                    + " ".join(shlex.quote(a) for a in [*run["arguments"], *run["files"]])
                    + "".join(f" [env {k}={v}]" for k, v in run["env"].items())
                    for run in runs
                ]:
                    print("    " + line)
        return 0
    args.sluice = os.path.abspath(args.sluice)
    if not os.access(args.sluice, os.X_OK):
        sys.exit(f"hurl suite: no sluice binary at {args.sluice}")
    keep = Path(args.keep).resolve() if args.keep else None
    reasons, listed = load_expected()

    checks = [row for row in rows if row["category"] == "checks"]
    selected = checks
    if args.only:
        wanted = set(args.only)
        selected = [row for row in checks if row["case"] in wanted or row["case"].rsplit("/", 1)[-1] in wanted]
        unknown = wanted - {row["case"] for row in selected} - {row["case"].rsplit("/", 1)[-1] for row in selected}
        if unknown:
            sys.exit(f"hurl suite: no checks case named {', '.join(sorted(unknown))}")

    print(f"hurl suite: {len(selected)} checks cases through {args.sluice}, one at a time\n")
    results, unexpected, fixed, outcomes, left = {}, [], [], {}, []
    passes = {"hurl": 0, "yaml": 0}
    not_run = skipped = 0
    for row in selected:
        case = row["case"]
        runs, problems = plan(row, context)
        if problems and problems[0].startswith(SKIP):
            print(f"{'skip':<5} {case:<58} {problems[0][len(SKIP):]}", flush=True)
            skipped += 1
            continue
        if problems:
            forms = {"hurl": None, "yaml": None}
            failing = {"hurl", "yaml"}
            line = "; ".join(problems)
            not_run += 1
        else:
            forms = {}
            for form in ("hurl", "yaml"):
                before = untracked_files()
                forms[form] = run_form(row, form, runs, args, context, keep)
                after = untracked_files()
                if before is not None and after is not None:
                    for name in sorted(after - before):
                        left.append((row["case"], form, name))
                        (HERE / name).unlink(missing_ok=True)
            failing = {form for form, result in forms.items() if not result["ok"]}
            line = f"hurl: {describe(forms['hurl'])}  yaml: {describe(forms['yaml'])}"
        for form in ("hurl", "yaml"):
            passes[form] += form not in failing
        expected = listed.get(case, set())
        if failing - expected:
            mark = "FAIL"
            unexpected.append(case)
        elif failing:
            mark = "xfail"
        else:
            mark = "pass"
        if expected - failing and not problems:
            fixed.append((case, sorted(expected - failing)))
        print(f"{mark:<5} {case:<58} {line}", flush=True)
        if mark == "FAIL" and not problems:
            for form in ("hurl", "yaml"):
                if form in failing:
                    print(f"  {form} form:")
                    print("\n".join(excerpt(forms[form])))
        results[case] = failing
        outcomes[case] = {
            "failing": sorted(failing),
            "form": "both" if len(failing) == 2 else (next(iter(failing)) if failing else None),
            "reason": "; ".join(problems) if problems else " | ".join(
                f"{form}: {first_failure(forms[form])}" for form in ("hurl", "yaml") if form in failing),
        }

    if args.results:
        Path(args.results).write_text(json.dumps(outcomes, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    stale = [case for case in reasons if case not in {row["case"] for row in checks}]
    by_category = {}
    for row in rows:
        by_category[row["category"]] = by_category.get(row["category"], 0) + 1
    needs = sum(n for category, n in by_category.items() if category.startswith("needs:"))

    print()
    print(f"hurl suite: {len(rows)} cases vendored; {len(checks)} checks cases; "
          f"{passes['hurl']} pass as .hurl, {passes['yaml']} pass converted; "
          f"{by_category.get('cli-output', 0)} cli-output cases listed with reasons; "
          f"{needs} need servers the tests do not run")
    print("by category: " + ", ".join(f"{c} {n}" for c, n in sorted(by_category.items())))
    if args.only:
        print(f"(this run: {len(selected)} of the {len(checks)} checks cases, --only)")
    if skipped:
        print(f"{skipped} checks cases skipped: this host cannot serve them (see above)")
    print(f"of the checks cases run: {not_run} not run (unmapped option or missing file), "
          f"{sum(1 for failing in results.values() if failing)} not passing in some form, "
          f"{len(unexpected)} of them not in expected-failures.json")
    for case, forms in fixed:
        print(f"  {case}: listed in expected-failures.json ({reasons[case].get('form', 'both')}), "
              f"but passes now as {' and '.join(forms)}: take it off the list")
    for case, form, name in left:
        print(f"  {case}: its {form} form left {name} in {HERE.name}/ (outside build/); removed")
    for case in stale:
        print(f"  {case}: listed in expected-failures.json, but not a checks case of cases.tsv")
    if unexpected:
        print(f"\n{len(unexpected)} cases fail without a reason in expected-failures.json: " + ", ".join(unexpected))
    stale_figures = [] if args.only else documented_figure_problems(len(rows), len(checks), min(passes["hurl"], passes["yaml"]))
    for problem in stale_figures:
        print(f"  {problem}")
    return 1 if unexpected or stale or stale_figures else 0


def documented_figure_problems(vendored, checks, passing):
    """Where README.md or pipelines/README.md state other figures than this run gave."""
    root = HERE.parent.parent.parent
    expected = {
        "README.md": (r"of\s+its\s+(\d+)\s+cases\s+vendored,\s+(\d+)\s+check\s+asserts,\s+and\s+(\d+)\s+of\s+those\s+pass", (vendored, checks, passing)),
        "pipelines/README.md": (r"of\s+the\s+(\d+)\s+cases\s+vendored,\s+(\d+)\s+check\s+asserts[^;]*?;\s+(\d+)\s+of\s+the\s+\d+\s+pass", (vendored, checks, passing)),
    }
    problems = []
    for name, (pattern, figures) in expected.items():
        match = re.search(pattern, (root / name).read_text(encoding="utf-8"))
        if not match:
            problems.append(f"{name} does not state the suite's figures any more (looked for: {pattern})")
        elif tuple(int(group) for group in match.groups()) != figures:
            problems.append(f"{name} says {match.groups()} (vendored, checks, passing both forms); this run gave {figures}: update it")
    return problems


if __name__ == "__main__":
    sys.exit(main())
