"""Shared by the benchmarks (social, discovery, shop): start the server, call the API, summarise timings. Python 3 stdlib only."""
import json, signal, statistics, subprocess, time


def start(server_bin, data, music, log, *extra):
    """Starts `cloudmusic-server serve` on a free port, with `extra` flags; returns (process, port)."""
    proc = subprocess.Popen([server_bin, "serve", "--port", "0", "--data", data, "--music", music,
                             "--log-level", "warning", "--signup-codes", "off", *extra],
                            stdout=subprocess.PIPE, stderr=open(log, "a"), text=True)
    line = proc.stdout.readline()
    if "127.0.0.1:" not in line:
        raise SystemExit(f"server did not start: {line!r} (see {log})")
    return proc, int(line.split("127.0.0.1:")[1].split("/")[0])


def stop(proc):
    """Stops the server; a stop request that comes while it is still setting up its signal handling is lost, so
    it asks again."""
    for _ in range(12):
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=5)
            return
        except subprocess.TimeoutExpired:
            pass
    proc.kill()
    proc.wait()


def call(conn, method, path, token=None, body=None, expect=None):
    """One request; exits with the answer unless its status is `expect` (any 2xx when None). Returns `data`."""
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if token:
        headers["Authorization"] = "Bearer " + token
    conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
    response = conn.getresponse()
    raw = response.read()
    ok = response.status == expect if expect is not None else 200 <= response.status < 300
    if not ok:
        raise SystemExit(f"{method} {path}: {response.status} {raw[:200]!r}")
    return json.loads(raw).get("data")


def summary(times):
    """p50 and p99 of milliseconds."""
    times = sorted(times)
    return {"p50_ms": round(statistics.median(times), 3), "p99_ms": round(times[max(0, int(len(times) * 0.99) - 1)], 3)}


def timed(conn, paths, n, tokens=None):
    """p50/p99 of n GETs, each answered 200, cycling through `paths` (one path or a list) and `tokens` (one
    session token, none, or a list: path i goes with token i)."""
    paths = [paths] if isinstance(paths, str) else paths
    tokens = tokens if isinstance(tokens, list) else [tokens]
    times = []
    for i in range(n):
        t = time.perf_counter()
        call(conn, "GET", paths[i % len(paths)], token=tokens[i % len(tokens)], expect=200)
        times.append((time.perf_counter() - t) * 1000)
    return summary(times)
