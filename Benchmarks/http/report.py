#!/usr/bin/env python3
"""Parses the wrk outputs and samples that run.sh leaves in its run folder, prints the
comparison table and verdicts, and writes the machine-readable results (JSON).

    report.py summarize RUN_DIR --json OUT.json   # exit 0: targets met, 3: a target missed
    report.py parse WRK_OUTPUT.txt                # one wrk output as JSON (debugging)
    report.py selftest                            # checks the wrk parser on canned outputs

Python 3 standard library only.
"""
import json
import os
import re
import statistics
import sys

# Targets from the issue.
RPS_RATIO_MIN = 0.85  # Swift req/s at least 0.85 of the C baseline
P99_RATIO_MAX = 1.5  # Swift p99 at most 1.5 times the C baseline
IDLE_RSS_MAX_KB = 30 * 1024  # idle server under 30 MiB resident
RSS_GROWTH_MAX_PCT = 5.0  # RSS flat under load: first to last sample grows under 5 %

# wrk prints times as <number><unit>, unit one of us, ms, s, m, h (wrk's units.c).
_TIME_UNITS_US = {"us": 1.0, "ms": 1e3, "s": 1e6, "m": 60e6, "h": 3600e6}
_TIME_RE = re.compile(r"^([0-9]+(?:\.[0-9]+)?)(us|ms|s|m|h)$")
# Sizes and counts may carry metric suffixes (k, M, G) in the thread stats lines.
_COUNT_SUFFIX = {"": 1.0, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}


class WrkParseError(ValueError):
    pass


def time_to_us(text):
    """'635.91us' -> 635.91, '4.35ms' -> 4350.0, '1.02s' -> 1020000.0, '1.50m' -> 90e6."""
    m = _TIME_RE.match(text.strip())
    if not m:
        raise WrkParseError(f"not a wrk time value: {text!r}")
    return float(m.group(1)) * _TIME_UNITS_US[m.group(2)]


def count_value(text):
    """'56.20k' -> 56200.0, '1.05M' -> 1050000.0, '12' -> 12.0."""
    m = re.match(r"^([0-9]+(?:\.[0-9]+)?)([kMGT]?)$", text.strip())
    if not m:
        raise WrkParseError(f"not a wrk count value: {text!r}")
    return float(m.group(1)) * _COUNT_SUFFIX[m.group(2)]


def parse_wrk(text):
    """Parses the output of `wrk --latency`. Raises WrkParseError when a required field is missing."""
    out = {}
    m = re.search(r"^Requests/sec:\s*([0-9]+(?:\.[0-9]+)?)\s*$", text, re.M)
    if not m:
        raise WrkParseError("no 'Requests/sec:' line (did wrk run? its output is shown above)")
    out["rps"] = float(m.group(1))

    m = re.search(r"^\s*Latency\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)%\s*$", text, re.M)
    if m:
        out["latency_avg_us"] = time_to_us(m.group(1))
        out["latency_stdev_us"] = time_to_us(m.group(2))
        out["latency_max_us"] = time_to_us(m.group(3))

    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.strip() == "Latency Distribution"), None)
    if start is None:
        raise WrkParseError("no 'Latency Distribution' block (was wrk run with --latency?)")
    percentiles = {}
    for line in lines[start + 1:]:
        pm = re.match(r"^\s+([0-9.]+)%\s+(\S+)\s*$", line)
        if not pm:
            break
        percentiles[float(pm.group(1))] = time_to_us(pm.group(2))
    if 99.0 not in percentiles:
        raise WrkParseError("no 99% line in the latency distribution")
    out["p50_us"] = percentiles.get(50.0)
    out["p75_us"] = percentiles.get(75.0)
    out["p90_us"] = percentiles.get(90.0)
    out["p99_us"] = percentiles[99.0]

    m = re.search(r"^\s*([0-9]+) requests in ([0-9.]+(?:us|ms|s|m|h)), (\S+) read", text, re.M)
    if m:
        out["requests"] = int(m.group(1))
        out["elapsed_s"] = time_to_us(m.group(2)) / 1e6
        out["read"] = m.group(3)
    m = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
    errs = dict(connect=0, read=0, write=0, timeout=0)
    if m:
        errs = dict(zip(("connect", "read", "write", "timeout"), map(int, m.groups())))
    out["socket_errors"] = errs
    m = re.search(r"Non-2xx or 3xx responses:\s*(\d+)", text)
    out["non_2xx_3xx"] = int(m.group(1)) if m else 0
    out["clean"] = sum(errs.values()) == 0 and out["non_2xx_3xx"] == 0
    return out


def read_env(path):
    env = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                line = line.rstrip("\n")
                if "=" in line and not line.startswith("#"):
                    k, v = line.split("=", 1)
                    env[k] = v
    return env


def fmt_us(us):
    if us is None:
        return "-"
    if us >= 1e6:
        return f"{us / 1e6:.2f} s"
    if us >= 1e3:
        return f"{us / 1e3:.2f} ms"
    return f"{us:.0f} us"


def fmt_mib(kb):
    return "-" if kb is None else f"{kb / 1024:.1f} MiB"


def verdict(ok):
    return "PASS" if ok else "FAIL"


def summarize(run_dir, json_out):
    meta = read_env(os.path.join(run_dir, "meta.env"))
    rounds = int(meta.get("rounds", "2"))
    results = {
        "schema": 1,
        "timestamp": meta.get("timestamp"),
        "host": {
            "cores": int(meta.get("cores", "0") or 0),
            "kernel": meta.get("kernel"),
            "wrk": meta.get("wrk_version"),
            "libmicrohttpd": meta.get("mhd_version"),
        },
        "git_commit": meta.get("git_commit"),
        "params": {
            "route": meta.get("route"),
            "duration": meta.get("duration"),
            "connections": int(meta.get("connections", "0")),
            "threads": int(meta.get("threads", "0")),
            "rounds": rounds,
            "warmup_s": int(meta.get("warmup", "0")),
            "soak_s": int(meta.get("soak", "0")),
        },
        "body_bytes": int(meta.get("body_bytes", "0") or 0),
        "targets": {
            "rps_ratio_min": RPS_RATIO_MIN,
            "p99_ratio_max": P99_RATIO_MAX,
            "idle_rss_max_kb": IDLE_RSS_MAX_KB,
            "rss_growth_max_pct": RSS_GROWTH_MAX_PCT,
        },
    }
    problems = []

    # Throughput and latency: the measured rounds, median per server.
    per_server = {}
    round_rows = []
    for r in range(1, rounds + 1):
        for server in ("c", "swift"):
            path = os.path.join(run_dir, f"wrk-{server}-{r}.txt")
            if not os.path.exists(path):
                continue
            with open(path) as f:
                parsed = parse_wrk(f.read())
            parsed.update(server=server, round=r)
            round_rows.append(parsed)
            per_server.setdefault(server, []).append(parsed)
    results["rounds"] = round_rows
    for server, rows in per_server.items():
        results[server] = {
            "rps_median": statistics.median(x["rps"] for x in rows),
            "p99_us_median": statistics.median(x["p99_us"] for x in rows),
            "p50_us_median": statistics.median(x["p50_us"] for x in rows if x["p50_us"] is not None),
            "all_rounds_clean": all(x["clean"] for x in rows),
        }

    print()
    print(f"HTTP benchmark: GET {meta.get('route')} ({results['body_bytes']} bytes of JSON), "
          f"wrk -t{meta.get('threads')} -c{meta.get('connections')} -d{meta.get('duration')}, "
          f"{rounds} rounds each, interleaved, {meta.get('cores')} cores")
    print()
    print(f"  {'server':<8} {'round':>5} {'req/s':>12} {'p50':>10} {'p99':>10} {'max':>10}  errors")
    for row in round_rows:
        errs = sum(row["socket_errors"].values())
        note = "" if row["clean"] else f"  socket errors {errs}, non-2xx {row['non_2xx_3xx']}"
        print(f"  {row['server']:<8} {row['round']:>5} {row['rps']:>12.0f} {fmt_us(row['p50_us']):>10} "
              f"{fmt_us(row['p99_us']):>10} {fmt_us(row.get('latency_max_us')):>10}  "
              f"{'none' if row['clean'] else ''}{note}")
    print()
    print(f"  {'median':<8} {'':>5} {'req/s':>12} {'p50':>10} {'p99':>10}")
    for server in ("c", "swift"):
        if server in results:
            s = results[server]
            print(f"  {server:<8} {'':>5} {s['rps_median']:>12.0f} {fmt_us(s['p50_us_median']):>10} "
                  f"{fmt_us(s['p99_us_median']):>10}")
    print()

    passes = {}
    if "c" in results and "swift" in results:
        rps_ratio = results["swift"]["rps_median"] / results["c"]["rps_median"]
        p99_ratio = results["swift"]["p99_us_median"] / results["c"]["p99_us_median"]
        results["ratios"] = {"rps": round(rps_ratio, 4), "p99": round(p99_ratio, 4)}
        clean = results["swift"]["all_rounds_clean"]
        passes["rps"] = rps_ratio >= RPS_RATIO_MIN and clean
        passes["p99"] = p99_ratio <= P99_RATIO_MAX and clean
        print(f"  swift/c req/s ratio  {rps_ratio:6.3f}   (target >= {RPS_RATIO_MIN})   {verdict(passes['rps'])}")
        print(f"  swift/c p99 ratio    {p99_ratio:6.3f}   (target <= {P99_RATIO_MAX})    {verdict(passes['p99'])}")
        if not clean:
            print("  (FAIL because some Swift rounds had socket errors or non-2xx responses: see the table)")
        if not results["c"]["all_rounds_clean"]:
            print("  warning: some C baseline rounds had socket errors or non-2xx responses; the ratios are suspect")
    else:
        problems.append("missing wrk results for one of the servers")

    # Memory.
    mem = {}
    idle = meta.get("swift_idle_rss_kb")
    mem["idle_rss_kb"] = int(idle) if idle else None
    anon = meta.get("swift_idle_anon_kb")
    mem["idle_anon_kb"] = int(anon) if anon else None
    mapping_path = os.path.join(run_dir, "rss-by-mapping-idle.txt")
    if os.path.exists(mapping_path):
        with open(mapping_path) as f:
            mem["idle_rss_by_mapping"] = [line.strip() for line in f if line.strip()]
    c_idle = meta.get("c_idle_rss_kb")
    mem["c_baseline_idle_rss_kb"] = int(c_idle) if c_idle else None
    after = meta.get("swift_after_soak_rss_kb")
    mem["after_soak_rss_kb"] = int(after) if after else None
    samples = []
    soak_path = os.path.join(run_dir, "rss-soak.tsv")
    if os.path.exists(soak_path):
        with open(soak_path) as f:
            for line in f:
                parts = line.split()
                if len(parts) == 2:
                    samples.append([int(parts[0]), int(parts[1])])
    mem["soak_samples"] = [{"t_s": t, "rss_kb": kb} for t, kb in samples]
    soak_wrk = os.path.join(run_dir, "wrk-soak.txt")
    if os.path.exists(soak_wrk):
        with open(soak_wrk) as f:
            soak = parse_wrk(f.read())
        mem["soak_wrk"] = {k: soak[k] for k in ("rps", "p99_us", "requests", "socket_errors", "non_2xx_3xx", "clean")
                           if k in soak}
    print()
    if mem["idle_rss_kb"] is not None:
        passes["idle_rss"] = mem["idle_rss_kb"] < IDLE_RSS_MAX_KB
        c_note = f"   (C baseline idle: {fmt_mib(mem['c_baseline_idle_rss_kb'])})" if c_idle else ""
        print(f"  swift idle RSS       {fmt_mib(mem['idle_rss_kb']):>10}   (target < {IDLE_RSS_MAX_KB // 1024} MiB)  "
              f"{verdict(passes['idle_rss'])}{c_note}")
        if mem["idle_anon_kb"] is not None:
            print(f"    of which anonymous (heap, stacks) {fmt_mib(mem['idle_anon_kb'])}, "
                  f"mapped files {fmt_mib(mem['idle_rss_kb'] - mem['idle_anon_kb'])}")
    if len(samples) >= 2:
        first, last = samples[0][1], samples[-1][1]
        growth = (last - first) * 100.0 / first
        mem["growth_pct"] = round(growth, 2)
        passes["rss_growth"] = growth < RSS_GROWTH_MAX_PCT
        series = " ".join(f"{t}s:{kb / 1024:.1f}" for t, kb in samples)
        print(f"  swift RSS under {meta.get('soak')} s load (MiB): {series}")
        print(f"  RSS growth first->last under load {growth:+6.2f} %   (target < {RSS_GROWTH_MAX_PCT} %)  "
              f"{verdict(passes['rss_growth'])}")
        if "soak_wrk" in mem:
            sw = mem["soak_wrk"]
            print(f"  soak load: {sw['rps']:.0f} req/s, p99 {fmt_us(sw['p99_us'])}"
                  f"{'' if sw['clean'] else ', WITH ERRORS (socket errors or non-2xx)'}")
        if mem["after_soak_rss_kb"] is not None:
            print(f"  swift RSS 2 s after the soak: {fmt_mib(mem['after_soak_rss_kb'])}")
    elif int(meta.get("soak", "0")) > 0:
        problems.append("soak ran but fewer than 2 RSS samples were taken")
    results["memory"] = mem

    # Idle flood (optional).
    flood_path = os.path.join(run_dir, "flood.json")
    if os.path.exists(flood_path):
        with open(flood_path) as f:
            results["flood"] = json.load(f)
        passes["flood"] = bool(results["flood"].get("pass"))
        fl = results["flood"]
        print(f"  idle flood ({fl.get('count')} idle connections from {fl.get('sources', 1)} address(es), "
              f"{fl.get('closed_early')} refused at once by the server, "
              f"server held at most {fl.get('server_sockets_max_during_hold')} sockets): probes answered "
              f"{results['flood'].get('probes', {}).get('ok')}/{results['flood'].get('probes', {}).get('sent')}  "
              f"{verdict(passes['flood'])}")
    else:
        results["flood"] = None

    results["pass"] = passes
    results["all_pass"] = bool(passes) and all(passes.values()) and not problems
    results["problems"] = problems
    for p in problems:
        print(f"  problem: {p}")
    print()
    print(f"  overall: {verdict(results['all_pass'])}   (results: {json_out})")
    with open(json_out, "w") as f:
        json.dump(results, f, indent=2)
        f.write("\n")
    return 0 if results["all_pass"] else 3


_SAMPLE_1 = """Running 10s test @ http://127.0.0.1:8080/v1/server
  2 threads and 64 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency   635.91us    0.89ms  12.92ms   93.69%
    Req/Sec    56.20k     8.07k   62.89k    86.54%
  Latency Distribution
     50%  291.00us
     75%  574.00us
     90%    1.43ms
     99%    4.35ms
  1126006 requests in 10.10s, 1.05GB read
Requests/sec: 111483.25
Transfer/sec:    106.39MB
"""

_SAMPLE_2 = """Running 1m test @ http://127.0.0.1:9/x
  2 threads and 64 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     1.20s   300.00ms   1.99s    70.00%
    Req/Sec    12.00      5.00    30.00     60.00%
  Latency Distribution
     50%    1.10s
     75%    1.50s
     90%    1.90s
     99%    1.50m
  1440 requests in 1.00m, 200.00KB read
  Socket errors: connect 0, read 3, write 0, timeout 17
  Non-2xx or 3xx responses: 5
Requests/sec:     23.99
Transfer/sec:      3.33KB
"""


def selftest():
    assert time_to_us("635.91us") == 635.91
    assert abs(time_to_us("4.35ms") - 4350.0) < 1e-6
    assert time_to_us("1.02s") == 1020000.0
    assert time_to_us("1.50m") == 90e6
    assert time_to_us("2.00h") == 7200e6
    assert count_value("56.20k") == 56200.0
    for bad in ("12", "1.2 ms", "ms", "1.2x"):
        try:
            time_to_us(bad)
        except WrkParseError:
            pass
        else:
            raise AssertionError(f"accepted {bad!r}")
    a = parse_wrk(_SAMPLE_1)
    assert a["rps"] == 111483.25, a
    assert a["p99_us"] == 4350.0 and a["p50_us"] == 291.0 and a["p90_us"] == 1430.0, a
    assert a["latency_max_us"] == 12920.0 and a["requests"] == 1126006, a
    assert abs(a["elapsed_s"] - 10.10) < 1e-9 and a["clean"], a
    b = parse_wrk(_SAMPLE_2)
    assert b["rps"] == 23.99 and b["p99_us"] == 90e6 and b["p50_us"] == 1.1e6, b
    assert b["socket_errors"] == {"connect": 0, "read": 3, "write": 0, "timeout": 17}, b
    assert b["non_2xx_3xx"] == 5 and not b["clean"] and b["elapsed_s"] == 60.0, b
    for broken in ("", "unable to connect to 127.0.0.1:1 Connection refused\n",
                   _SAMPLE_1.replace("Latency Distribution", "Something")):
        try:
            parse_wrk(broken)
        except WrkParseError:
            pass
        else:
            raise AssertionError("parsed a broken output")
    print("report.py selftest: ok")
    return 0


def main(argv):
    if len(argv) >= 2 and argv[1] == "selftest":
        return selftest()
    if len(argv) == 3 and argv[1] == "parse":
        with open(argv[2]) as f:
            print(json.dumps(parse_wrk(f.read()), indent=2))
        return 0
    if len(argv) == 5 and argv[1] == "summarize" and argv[3] == "--json":
        try:
            return summarize(argv[2], argv[4])
        except WrkParseError as e:
            print(f"report.py: cannot parse a wrk output: {e}", file=sys.stderr)
            return 2
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
