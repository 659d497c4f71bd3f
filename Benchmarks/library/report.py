#!/usr/bin/env python3
"""Turns the figures Benchmarks/library/run.sh records (RUN_DIR/results.env, key=value) into
the table of figures, targets and PASS/MISS, and the JSON results.

    report.py summarize RUN_DIR --json OUT.json   # exit 0: every target met, 3: one missed
    report.py wrk WRK_OUTPUT.txt PREFIX           # one `wrk --latency` output as PREFIX_key=value lines

Python 3 standard library only; the wrk parser is Benchmarks/http/report.py's.
"""
import json
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "http"))
from report import parse_wrk, WrkParseError, fmt_us  # noqa: E402

# Targets from the issue.
FIRST_SCAN_MIN = 2000  # files/s, first scan of a 10k-track library
RESCAN_MIN = 80000  # files/s, unchanged rescan
SEARCH_P99_MAX_MS = 20.0
RSS_AFTER_SCAN_MAX_KB = 100 * 1024
STREAM_RATIO_MIN = 0.8  # Swift / nginx, bytes/s
LOAD_RPS_MIN = 2000  # broad and selective searches, wrk -t2 -c32, 100k songs
LOAD_P99_MAX_MS = 20.0
SUGGEST_P99_MAX_MS = 5.0
MPD_RATIO_MIN = 2.0  # cloudmusic / mpd first-scan files/s, same files, same run

_SIZE = {"B": 1, "KB": 1 << 10, "MB": 1 << 20, "GB": 1 << 30, "TB": 1 << 40}


def transfer_bytes_per_s(text):
    m = re.search(r"^Transfer/sec:\s*([0-9.]+)([KMGT]?B)\s*$", text, re.M)
    return float(m.group(1)) * _SIZE[m.group(2)] if m else None


def wrk_lines(path, prefix):
    with open(path) as f:
        text = f.read()
    w = parse_wrk(text)
    out = {
        "rps": round(w["rps"], 2),
        "bytes_per_s": round(transfer_bytes_per_s(text) or 0),
        "p50_us": w["p50_us"],
        "p99_us": w["p99_us"],
        "requests": w.get("requests", 0),
        "errors": sum(w["socket_errors"].values()) + w["non_2xx_3xx"],
    }
    return "".join(f"{prefix}_{k}={v}\n" for k, v in out.items())


def read_env(path):
    env = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                line = line.rstrip("\n")
                if "=" in line:
                    k, v = line.split("=", 1)
                    env[k] = v
    return env


def num(env, key):
    v = env.get(key)
    if v in (None, "", "?"):
        return None
    try:
        return float(v)
    except ValueError:
        return None


def summarize(run_dir, json_out):
    meta = read_env(os.path.join(run_dir, "meta.env"))
    r = read_env(os.path.join(run_dir, "results.env"))
    rows = []  # (figure, value text, target text, ok or None)
    checks = {}
    figures = {}

    def check(key, label, value, target_text, ok, shown):
        figures[key] = value
        if value is None:
            rows.append((label, "-", target_text, None))
            return
        checks[key] = ok
        rows.append((label, shown, target_text, ok))

    def info(key, label, value, shown):
        figures[key] = value
        if value is not None:
            rows.append((label, shown, "", None))

    small = meta.get("small")

    def repeated(prefix, count):
        """Median of PREFIX_1..PREFIX_count files/s, with the runs and whether all were clean."""
        runs = [(num(r, f"{prefix}_{i}_files_per_s"), i) for i in range(1, count + 1)]
        runs = [(v, i) for v, i in runs if v is not None]
        if not runs:
            return None, [], True
        values = [v for v, _ in runs]
        return statistics.median(values), values, runs

    v, values, runs = repeated("first_scan", 3)
    clean = v is not None and all(num(r, f"first_scan_{i}_skipped") == 0 and num(r, f"first_scan_{i}_added") == num(r, f"first_scan_{i}_files") for _, i in runs)
    figures["first_scan_runs"] = values
    cpu = [num(r, f"first_scan_{i}_cpu_s") for _, i in runs] if v is not None else []
    cpu = [c for c in cpu if c is not None]
    if cpu:
        figures["first_scan_cpu_s_median"] = statistics.median(cpu)
    check("first_scan_files_per_s", f"first scan, {small} tracks (median of {len(values)})", v,
          f">= {FIRST_SCAN_MIN} files/s", v is not None and v >= FIRST_SCAN_MIN and clean,
          (f"{v:.0f} files/s  (runs: {', '.join(f'{x:.0f}' for x in values)}"
           + (f"; {statistics.median(cpu):.2f} CPU s = {statistics.median(cpu) * 1e3 / float(small):.2f} CPU ms/file" if cpu else "")
           + ")" + ("" if clean else " NOT all added"))
          if v is not None else "")
    v, values, runs = repeated("rescan", 5)
    clean = v is not None and all(num(r, f"rescan_{i}_unchanged") == num(r, f"rescan_{i}_files") for _, i in runs)
    figures["rescan_runs"] = values
    check("rescan_files_per_s", f"unchanged rescan, {small} tracks (median of {len(values)})", v,
          f">= {RESCAN_MIN} files/s", v is not None and v >= RESCAN_MIN and clean,
          (f"{v:.0f} files/s  (runs: {', '.join(f'{x:.0f}' for x in values)}; "
           f"{r.get('rescan_1_seconds')} s for the first)" + ("" if clean else " NOT all unchanged"))
          if v is not None else "")
    tracks = meta.get("tracks")
    v = num(r, "big_scan_files_per_s")
    info("big_scan_files_per_s", f"first scan, {tracks} tracks", v,
         f"{v:.0f} files/s ({r.get('big_scan_seconds')} s, {r.get('big_scan_cpu_s')} CPU s, "
         f"scan RSS peak {float(r.get('big_scan_maxrss_kb') or 0) / 1024:.0f} MiB)"
         if v is not None else "")
    v = num(r, "big_rescan_files_per_s")
    info("big_rescan_files_per_s", f"unchanged rescan, {tracks} tracks", v,
         f"{v:.0f} files/s ({r.get('big_rescan_seconds')} s)" if v is not None else "")
    v = num(r, "search_p99_ms")
    failed = num(r, "search_failed")
    check("search_p99_ms", f"search p99, {tracks} tracks, 1 client", v, f"< {SEARCH_P99_MAX_MS:.0f} ms",
          v is not None and v < SEARCH_P99_MAX_MS and not failed,
          f"{v:.2f} ms (p50 {r.get('search_p50_ms')} ms{', %d FAILED' % failed if failed else ''})" if v is not None else "")
    v = num(r, "search_wrk_p99_us")
    info("search_wrk_p99_ms", "search under load, wrk -c8 (p99)", v / 1e3 if v is not None else None,
         f"{v / 1e3:.2f} ms, {num(r, 'search_wrk_rps'):.0f} req/s, p50 {num(r, 'search_wrk_p50_us') / 1e3:.2f} ms"
         + (f", {r.get('search_wrk_errors')} errors" if num(r, 'search_wrk_errors') else "") if v is not None else "")
    v = num(r, "rss_after_scan_kb")
    check("rss_after_scan_kb", f"server RSS after scan, {tracks} tracks", v, f"< {RSS_AFTER_SCAN_MAX_KB // 1024} MiB",
          v is not None and v < RSS_AFTER_SCAN_MAX_KB,
          f"{v / 1024:.1f} MiB (peak {float(r.get('hwm_after_scan_kb') or 0) / 1024:.1f} MiB)" if v is not None else "")
    v = num(r, "rss_after_search_kb")
    info("rss_after_search_kb", "server RSS after the search load", v,
         f"{v / 1024:.1f} MiB (peak {float(r.get('hwm_after_search_kb') or 0) / 1024:.1f} MiB)" if v is not None else "")

    stream = {}
    rounds = int(meta.get("rounds", "1"))
    for kind in ("range", "full"):
        for who in ("swift", "nginx"):
            bps = [num(r, f"stream_{kind}_{who}_r{i}_bytes_per_s") for i in range(1, rounds + 1)]
            rps = [num(r, f"stream_{kind}_{who}_r{i}_rps") for i in range(1, rounds + 1)]
            p99 = [num(r, f"stream_{kind}_{who}_r{i}_p99_us") for i in range(1, rounds + 1)]
            errs = [num(r, f"stream_{kind}_{who}_r{i}_errors") for i in range(1, rounds + 1)]
            if None in bps:
                continue
            stream[f"{kind}_{who}"] = {"bytes_per_s_median": statistics.median(bps), "rps_median": statistics.median(rps),
                                       "p99_us_median": statistics.median(p99), "errors": sum(errs),
                                       "rounds_bytes_per_s": bps}
        s, n = stream.get(f"{kind}_swift"), stream.get(f"{kind}_nginx")
        label = "1 MiB Range requests, wrk -c16" if kind == "range" else "full downloads, wrk -c4"
        if s and n:
            ratio = s["bytes_per_s_median"] / n["bytes_per_s_median"]
            stream[f"{kind}_ratio"] = round(ratio, 4)
            check(f"stream_{kind}_ratio", f"stream swift/nginx, {label}", ratio, f">= {STREAM_RATIO_MIN}",
                  ratio >= STREAM_RATIO_MIN and s["errors"] == 0,
                  f"{ratio:.3f}  (swift {s['bytes_per_s_median'] / 2**20:.0f} MiB/s {s['rps_median']:.0f} req/s "
                  f"p99 {fmt_us(s['p99_us_median'])}; nginx {n['bytes_per_s_median'] / 2**20:.0f} MiB/s "
                  f"{n['rps_median']:.0f} req/s p99 {fmt_us(n['p99_us_median'])})"
                  + (f" swift errors {s['errors']:.0f}" if s["errors"] else ""))
    figures["stream"] = stream

    # d) search under load: median over the rounds of each job; verdicts for warm and cold alike.
    load = {}
    for job in ("albums", "warm_broad", "warm_selective", "warm_suggest", "cold_broad", "cold_selective",
                "cold_suggest"):
        runs = []
        for i in range(1, rounds + 1):
            rps = num(r, f"load_{job}_r{i}_rps")
            if rps is not None:
                runs.append({"rps": rps, "p50_us": num(r, f"load_{job}_r{i}_p50_us"),
                             "p99_us": num(r, f"load_{job}_r{i}_p99_us"),
                             "errors": num(r, f"load_{job}_r{i}_errors") or 0,
                             "cpu_ms_per_request": (num(r, f"load_{job}_r{i}_server_cpu_s") or 0) * 1e3
                             / max(1, num(r, f"load_{job}_r{i}_requests") or 0)})
        if runs:
            load[job] = {"rounds": runs, "rps": statistics.median(x["rps"] for x in runs),
                         "p50_ms": statistics.median(x["p50_us"] for x in runs) / 1e3,
                         "p99_ms": statistics.median(x["p99_us"] for x in runs) / 1e3,
                         "errors": sum(x["errors"] for x in runs),
                         "cpu_ms_per_request": statistics.median(x["cpu_ms_per_request"] for x in runs)}
    figures["search_load"] = load
    base = load.get("albums")
    if base:
        info("load_albums_rps", f"album list baseline, wrk -c32 (median of {len(base['rounds'])})", base["rps"],
             f"{base['rps']:.0f} req/s, p50 {base['p50_ms']:.2f} ms, p99 {base['p99_ms']:.2f} ms, "
             f"server CPU {base['cpu_ms_per_request']:.3f} ms/req")

    def shown_load(x):
        return (f"{x['rps']:.0f} req/s, p50 {x['p50_ms']:.2f} ms, p99 {x['p99_ms']:.2f} ms"
                + (f", {x['rps'] / base['rps']:.2f}x albums" if base else "")
                + f", server CPU {x['cpu_ms_per_request']:.3f} ms/req"
                + " (rounds: " + ", ".join(f"{y['rps']:.0f}" for y in x["rounds"]) + " req/s)"
                + (f", {x['errors']:.0f} ERRORS" if x["errors"] else ""))
    for mode in ("warm", "cold"):
        for kind in ("broad", "selective"):
            x = load.get(f"{mode}_{kind}")
            if x:
                check(f"load_{mode}_{kind}", f"search {kind}, {mode}, wrk -c32", x["rps"],
                      f">= {LOAD_RPS_MIN} req/s, p99 < {LOAD_P99_MAX_MS:.0f} ms",
                      x["rps"] >= LOAD_RPS_MIN and x["p99_ms"] < LOAD_P99_MAX_MS and not x["errors"], shown_load(x))
        x = load.get(f"{mode}_suggest")
        if x:
            check(f"load_{mode}_suggest", f"suggestions, {mode}, wrk -c32", x["p99_ms"],
                  f"p99 < {SUGGEST_P99_MAX_MS:.0f} ms", x["p99_ms"] < SUGGEST_P99_MAX_MS and not x["errors"],
                  shown_load(x))

    # e) first scan against mpd: medians over the rounds; the verdict compares wall times (both
    # include their program's startup and database writing), the scanner's own figure is shown too.
    cm_line, cm_wall, mpd_rate = [], [], []
    for i in range(1, rounds + 1):
        v, files, wall = (num(r, f"vs_mpd_cm_r{i}_files_per_s"), num(r, f"vs_mpd_cm_r{i}_files"),
                          num(r, f"vs_mpd_cm_r{i}_wall_s"))
        if v is not None:
            cm_line.append(v)
            cm_wall.append(files / wall)
        v = num(r, f"mpd_r{i}_files_per_s")
        if v is not None:
            mpd_rate.append(v)
    if cm_line and mpd_rate:
        m_mpd, m_wall, m_line = statistics.median(mpd_rate), statistics.median(cm_wall), statistics.median(cm_line)
        figures["vs_mpd"] = {"mpd_files_per_s": mpd_rate, "cloudmusic_wall_files_per_s": [round(x) for x in cm_wall],
                             "cloudmusic_scanner_files_per_s": cm_line, "ratio_wall": m_wall / m_mpd,
                             "ratio_scanner_line": m_line / m_mpd}
        check("vs_mpd_ratio", f"first scan, {small} tracks, cloudmusic/mpd (wall)", m_wall / m_mpd,
              f">= {MPD_RATIO_MIN:.0f}x", m_wall / m_mpd >= MPD_RATIO_MIN,
              f"{m_wall / m_mpd:.2f}x  (cloudmusic {m_wall:.0f} files/s [{', '.join(f'{x:.0f}' for x in cm_wall)}], "
              f"mpd {m_mpd:.0f} [{', '.join(f'{x:.0f}' for x in mpd_rate)}]; scanner's own line "
              f"{m_line:.0f} files/s = {m_line / m_mpd:.2f}x)")

    print()
    print(f"Library benchmark ({meta.get('cores')} cores, load average {meta.get('loadavg_start')} at the start, "
          f"{meta.get('loadavg_end')} at the end)")
    print()
    width = max(len(x[0]) for x in rows) if rows else 10
    print(f"  {'figure':<{width}}  {'verdict':<7}  {'target':<16}  measured")
    for label, shown, target, ok in rows:
        verdict = "" if ok is None and not target else ("skipped" if ok is None else ("PASS" if ok else "MISS"))
        print(f"  {label:<{width}}  {verdict:<7}  {target:<16}  {shown}")
    print()
    all_pass = bool(checks) and all(checks.values())
    missed = [k for k, ok in checks.items() if not ok]
    print(f"  overall: {'PASS' if all_pass else 'MISS (' + ', '.join(missed) + ')'}   (results: {json_out})")

    search = None
    sp = os.path.join(run_dir, "search.json")
    if os.path.exists(sp):
        with open(sp) as f:
            search = json.load(f)
    results = {
        "schema": 1,
        "timestamp": meta.get("timestamp"),
        "host": {"cores": int(meta.get("cores", "0") or 0), "kernel": meta.get("kernel"),
                 "loadavg_start": meta.get("loadavg_start"), "loadavg_end": meta.get("loadavg_end")},
        "git_commit": meta.get("git_commit"),
        "params": {k: meta.get(k) for k in ("small", "tracks", "queries", "stream_mb", "duration", "load_duration", "rounds",
                                                  "only")},
        "targets": {"first_scan_files_per_s_min": FIRST_SCAN_MIN, "rescan_files_per_s_min": RESCAN_MIN,
                    "search_p99_ms_max": SEARCH_P99_MAX_MS, "rss_after_scan_kb_max": RSS_AFTER_SCAN_MAX_KB,
                    "stream_ratio_min": STREAM_RATIO_MIN, "load_rps_min": LOAD_RPS_MIN,
                    "load_p99_ms_max": LOAD_P99_MAX_MS, "suggest_p99_ms_max": SUGGEST_P99_MAX_MS,
                    "mpd_ratio_min": MPD_RATIO_MIN},
        "figures": figures,
        "pass": checks,
        "all_pass": all_pass,
        "raw": r,
        "search": search,
    }
    with open(json_out, "w") as f:
        json.dump(results, f, indent=2, ensure_ascii=False)
        f.write("\n")
    return 0 if all_pass else 3


def main(argv):
    if len(argv) == 4 and argv[1] == "wrk":
        try:
            sys.stdout.write(wrk_lines(argv[2], argv[3]))
        except WrkParseError as e:
            print(f"report.py: cannot parse {argv[2]}: {e}", file=sys.stderr)
            return 2
        return 0
    if len(argv) == 5 and argv[1] == "summarize" and argv[3] == "--json":
        return summarize(argv[2], argv[4])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
