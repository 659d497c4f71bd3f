#!/usr/bin/env python3
"""Sheets benchmark: sheet detail with 1,000 songs, and adding songs to sheets under wrk, on databases
seeded with many users and sheets. Prints JSON on stdout, progress on stderr.

usage: sheets-bench.py --server-bin BIN --library DIR --work DIR [--users 1000,10000] [--sheets 10000,100000]
                       [--songs-per-sheet 10] [--requests 300] [--duration 10] [--threads 2] [--connections 4]
                       [--real-users 8] [--sheets-per-real-user 10] [--per-request 2] [--rounds 3] [--log FILE]

For each size (users[i], sheets[i]): a copy of a data folder that already holds the scanned library gets
`users` users (straight into SQLite: their password hashes are not hashes, nobody can sign in as them; the
schema's trigger gives each an "I like" sheet) and `sheets` more sheets spread over them, each with
`songs-per-sheet` songs. Then the server starts on it, `real-users` users register and sign in through the
API and make their sheets, and the figures are taken:

- detail: GET /v1/sheets/:id?songs=1000 on a sheet of 1,000 songs, one keep-alive client, `requests`
  times as its owner and `requests` times signed out (a view by anyone but the owner also counts a click,
  a write); then wrk for throughput (signed out).
- relations: wrk POSTs /v1/sheets/:id/relations with `per-request` new songs to the real users' sheets;
  `rounds` runs per size, alternating between the sizes (every server stays up), each round on fresh sheets.
"""
import argparse, http.client, json, os, random, re, shutil, signal, sqlite3, statistics, subprocess, sys, time

here = os.path.dirname(os.path.abspath(__file__))
lua = os.path.join(here, "sheets-relations.lua")
PASSWORD = "bench password 1"


def log(message):
    print(message, file=sys.stderr, flush=True)


def percentile(values, p):
    values = sorted(values)
    index = min(len(values) - 1, max(0, int(round(p / 100 * len(values) + 0.5)) - 1))
    return values[index]


def summary(values):
    return {"n": len(values), "p50_ms": round(percentile(values, 50), 2), "p90_ms": round(percentile(values, 90), 2),
            "p99_ms": round(percentile(values, 99), 2), "mean_ms": round(statistics.mean(values), 2),
            "max_ms": round(max(values), 2)}


class Client:
    def __init__(self, port):
        self.port = port
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)

    def call(self, method, path, body=None, token=None):
        headers = {}
        if body is not None:
            headers["Content-Type"] = "application/json"
            body = json.dumps(body)
        if token:
            headers["Authorization"] = token
        started = time.perf_counter()
        self.connection.request(method, path, body, headers)
        response = self.connection.getresponse()
        payload = response.read()
        elapsed = (time.perf_counter() - started) * 1000
        return response.status, payload, elapsed

    def json(self, method, path, body=None, token=None, expect=(200, 201)):
        status, payload, _ = self.call(method, path, body, token)
        if status not in expect:
            raise SystemExit(f"sheets-bench: {method} {path} answered {status}: {payload[:300]!r}")
        return json.loads(payload)["data"]


# --- the data folder ---------------------------------------------------------------------------------

def scan_template(server_bin, library, folder):
    """A data folder holding the scanned library (and every migration), made once per run."""
    os.makedirs(folder)
    started = time.time()
    subprocess.run([server_bin, "scan", "--data", folder, "--music", library], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    log(f"    scanned {library} in {time.time() - started:.1f} s")


def seed(database, users, sheets, songs_per_sheet):
    """Adds `users` users and `sheets` sheets (each with `songs_per_sheet` songs) in one transaction."""
    started = time.time()
    db = sqlite3.connect(database, isolation_level=None)
    song_ids = [row[0] for row in db.execute("SELECT id FROM songs ORDER BY id")]
    now = int(time.time()) - 86_400
    db.execute("BEGIN")
    first = (db.execute("SELECT coalesce(max(id), 0) FROM users").fetchone()[0]) + 1
    db.executemany(
        "INSERT INTO users(id, email, nickname, nickname_key, password_hash, created_at, updated_at)"
        " VALUES (?, ?, ?, ?, 'seeded: no password', ?, ?)",
        ((first + i, f"seed{i}@bench.invalid", f"Seed {i}", f"seed {i}", now + i, now + i) for i in range(users)))
    first_sheet = (db.execute("SELECT coalesce(max(id), 0) FROM sheets").fetchone()[0]) + 1
    rng = random.Random(42)
    db.executemany(
        "INSERT INTO sheets(id, user_id, title, tags, is_private, created_at, updated_at)"
        " VALUES (?, ?, ?, '[]', ?, ?, ?)",
        ((first_sheet + i, first + i % users, f"Seeded sheet {i}", int(i % 10 == 0), now + i, now + i)
         for i in range(sheets)))

    def sheet_songs():
        for i in range(sheets):
            for position, song in enumerate(rng.sample(song_ids, min(songs_per_sheet, len(song_ids)))):
                yield first_sheet + i, song, position, now + i

    db.executemany("INSERT INTO sheet_songs(sheet_id, song_id, position, added_at) VALUES (?, ?, ?, ?)",
                   sheet_songs())
    db.execute("COMMIT")
    counts = {
        "users": db.execute("SELECT count(*) FROM users").fetchone()[0],
        "sheets": db.execute("SELECT count(*) FROM sheets").fetchone()[0],
        "sheet_songs": db.execute("SELECT count(*) FROM sheet_songs").fetchone()[0],
        "library_songs": len(song_ids),
    }
    db.close()
    log(f"    seeded {users} users, {sheets} sheets, {sheets * songs_per_sheet} sheet songs"
        f" in {time.time() - started:.1f} s")
    return counts, song_ids


# --- the server --------------------------------------------------------------------------------------

class Server:
    def __init__(self, server_bin, data, library, log_path):
        self.log_file = open(log_path, "a")
        self.log_path = log_path
        start = self.log_file.tell()
        self.process = subprocess.Popen(
            [server_bin, "serve", "--port", "0", "--data", data, "--music", library, "--log-level", "warning", "--signup-codes", "off"],
            stdout=self.log_file, stderr=subprocess.STDOUT)
        self.port = None
        for _ in range(200):
            with open(log_path) as f:
                f.seek(start)
                match = re.search(r"127\.0\.0\.1:(\d+)", f.read())
            if match:
                self.port = int(match.group(1))
                break
            if self.process.poll() is not None:
                break
            time.sleep(0.1)
        if self.port is None:
            self.stop()
            raise SystemExit(f"sheets-bench: the server did not start; see {log_path}")

    def wait_for_scan(self, songs):
        client = Client(self.port)
        deadline = time.time() + 1800
        while True:
            status = client.json("GET", "/v1/library/scan")
            report = status.get("lastReport") or {}
            if not status.get("running") and report.get("state") == "finished":
                total = client.json("GET", "/v1/songs?size=1")["total"]
                if total == songs:
                    return
            if time.time() > deadline or self.process.poll() is not None:
                raise SystemExit("sheets-bench: the server's startup scan did not finish")
            time.sleep(0.3)

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log_file.close()


# --- wrk ---------------------------------------------------------------------------------------------

def wrk(port, path, env, threads, connections, duration):
    command = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{duration}s", "--timeout", "10s", "-s", lua,
               f"http://127.0.0.1:{port}{path}"]
    result = subprocess.run(command, env=dict(os.environ, SHEETS_BENCH_THREADS=str(threads), **env),
                            capture_output=True, text=True, timeout=duration + 120)
    line = next((l for l in result.stdout.splitlines() if l.startswith("WRK_JSON ")), None)
    if result.returncode != 0 or line is None:
        raise SystemExit(f"sheets-bench: wrk failed ({result.returncode}):\n{result.stdout}\n{result.stderr}")
    figures = json.loads(line[len("WRK_JSON "):])
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", result.stdout)
    seconds = figures["duration_us"] / 1e6
    return {
        "threads": threads, "connections": connections, "duration_s": round(seconds, 2),
        "requests": figures["requests"], "requests_per_second": round(figures["requests"] / seconds, 1),
        "p50_ms": round(figures["latency_us"]["p50"] / 1000, 2), "p90_ms": round(figures["latency_us"]["p90"] / 1000, 2),
        "p99_ms": round(figures["latency_us"]["p99"] / 1000, 2), "max_ms": round(figures["latency_us"]["max"] / 1000, 2),
        "mean_ms": round(figures["latency_us"]["mean"] / 1000, 2),
        "non_2xx": int(non2xx.group(1)) if non2xx else 0,
        "socket_errors": {k: v for k, v in figures["errors"].items() if k != "status" and v},
    }


# --- one size ----------------------------------------------------------------------------------------

def prepare_size(args, template, users, sheets, index):
    """Seeds a data folder, starts a server on it, makes the real users and their sheets, measures detail."""
    log(f"==> size {index + 1}: {users} users, {sheets} sheets")
    data = os.path.join(args.work, f"data-{users}-{sheets}")
    shutil.rmtree(data, ignore_errors=True)
    shutil.copytree(template, data)
    counts, song_ids = seed(os.path.join(data, "cloudmusic.sqlite"), users, sheets, args.songs_per_sheet)
    server = Server(args.server_bin, data, args.library, args.log)
    ok = False
    try:
        server.wait_for_scan(len(song_ids))
        client = Client(server.port)
        # Real users: through the API (argon2id each), so they can sign in.
        tokens = []
        for i in range(args.real_users):
            email = f"bench{i}@example.com"
            client.json("POST", "/v1/users", {"email": email, "password": PASSWORD, "nickname": f"Bench {i}"})
            tokens.append(client.json("POST", "/v1/sessions",
                                      {"email": email, "password": PASSWORD, "device": "bench"})["session"])
        plan = []
        for i, token in enumerate(tokens):
            for j in range(args.sheets_per_real_user * args.rounds):
                sheet = client.json("POST", "/v1/sheets", {"title": f"Bench {i}.{j}"}, token)
                plan.append((sheet["id"], token))

        # Detail: a sheet of 1,000 songs (of the real user 0, not in the wrk plan).
        owner = tokens[0]
        detail_id = client.json("POST", "/v1/sheets", {"title": "Thousand"}, owner)["id"]
        thousand = [str(s) for s in random.Random(7).sample(song_ids, min(1000, len(song_ids)))]
        added = client.json("POST", f"/v1/sheets/{detail_id}/relations", {"songIds": thousand}, owner)
        assert added["songsCount"] == len(thousand), added["songsCount"]
        path = f"/v1/sheets/{detail_id}?songs=1000"
        detail = {"sheet_songs": len(thousand)}
        for name, token in (("owner", owner), ("signed_out", None)):
            for _ in range(20):  # warm-up
                client.call("GET", path, token=token)
            times = []
            for _ in range(args.requests):
                status, payload, ms = client.call("GET", path, token=token)
                assert status == 200, (status, payload[:200])
                times.append(ms)
            detail[name] = dict(summary(times), response_bytes=len(payload))
            assert len(json.loads(payload)["data"]["songs"]) == len(thousand)
        log(f"    detail (1,000 songs): owner p50 {detail['owner']['p50_ms']} ms p99 {detail['owner']['p99_ms']} ms;"
            f" signed out p50 {detail['signed_out']['p50_ms']} ms p99 {detail['signed_out']['p99_ms']} ms")
        if args.duration > 0:
            detail["wrk_signed_out"] = wrk(server.port, path, {"SHEETS_BENCH_MODE": "detail", "SHEETS_BENCH_PATH": path},
                                           args.threads, args.connections, args.duration)
            client = Client(server.port)
            log(f"    detail wrk: {detail['wrk_signed_out']['requests_per_second']} req/s,"
                f" p99 {detail['wrk_signed_out']['p99_ms']} ms")

        ok = True
    finally:
        if not ok:
            server.stop()
    # Each round of the relations run writes its own sheets (`sheets-per-real-user` per real user), so
    # every round starts on empty sheets.
    rounds = [plan[r::args.rounds] for r in range(args.rounds)]
    return {"users": users, "sheets": sheets, "data": data, "server": server, "counts": counts,
            "song_ids": song_ids, "detail": detail, "tokens": tokens, "rounds": rounds}


def relations_round(args, size, round_index):
    server, plan = size["server"], size["rounds"][round_index]
    plan_file = os.path.join(args.work, "plan.txt")
    songs_file = os.path.join(args.work, "songs.txt")
    with open(plan_file, "w") as f:
        f.writelines(f"{sheet} {token}\n" for sheet, token in plan)
    with open(songs_file, "w") as f:
        f.writelines(f"{s}\n" for s in size["song_ids"])
    figures = wrk(server.port, "/", {"SHEETS_BENCH_MODE": "relations", "SHEETS_BENCH_PLAN": plan_file,
                                      "SHEETS_BENCH_SONGS": songs_file,
                                      "SHEETS_BENCH_PER_REQUEST": str(args.per_request)},
                  args.threads, args.connections, args.duration)
    client = Client(server.port)
    inserted = sum(client.json("GET", f"/v1/sheets/{sheet}?songs=0", token=token)["songsCount"]
                   for sheet, token in plan)
    figures["sheets_written"] = len(plan)
    figures["songs_inserted"] = inserted
    # A few requests wrk counted may have been cut off at the end; the rest each inserted new songs.
    figures["share_of_songs_inserted"] = round(inserted / max(1, figures["requests"] * args.per_request), 3)
    log(f"    round {round_index + 1}, {size['users']} users / {size['sheets']} sheets: "
        f"{figures['requests_per_second']} req/s, p50 {figures['p50_ms']} ms, p99 {figures['p99_ms']} ms,"
        f" {inserted} songs inserted, non-2xx {figures['non_2xx']}")
    return figures


def finish_size(args, size, runs):
    size["server"].stop()
    data, counts = size["data"], size["counts"]
    db = sqlite3.connect(os.path.join(data, "cloudmusic.sqlite"))
    counts["sheet_songs_after"] = db.execute("SELECT count(*) FROM sheet_songs").fetchone()[0]
    db.close()
    counts["database_mib"] = round(os.path.getsize(os.path.join(data, "cloudmusic.sqlite")) / 2**20, 1)
    if not args.keep:
        shutil.rmtree(data, ignore_errors=True)
    relations = {"real_users": len(size["tokens"]), "songs_per_request": args.per_request,
                 "threads": args.threads, "connections": args.connections, "rounds": runs}
    if runs:
        relations["median_requests_per_second"] = statistics.median(r["requests_per_second"] for r in runs)
        relations["median_p50_ms"] = statistics.median(r["p50_ms"] for r in runs)
        relations["median_p99_ms"] = statistics.median(r["p99_ms"] for r in runs)
    return {"users_seeded": size["users"], "sheets_seeded": size["sheets"], "database": counts,
            "detail": size["detail"], "relations": relations}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--server-bin", required=True)
    parser.add_argument("--library", required=True)
    parser.add_argument("--work", required=True, help="an empty scratch folder")
    parser.add_argument("--users", default="1000,10000")
    parser.add_argument("--sheets", default="10000,100000")
    parser.add_argument("--songs-per-sheet", type=int, default=10)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--duration", type=int, default=10)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--connections", type=int, default=4)
    parser.add_argument("--real-users", type=int, default=8)
    parser.add_argument("--sheets-per-real-user", type=int, default=10)
    parser.add_argument("--per-request", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3, help="relations wrk runs per size, alternating sizes")
    parser.add_argument("--keep", action="store_true", help="keep the data folders")
    parser.add_argument("--log", help="the server's log (default: WORK/server.log)")
    args = parser.parse_args()
    args.log = args.log or os.path.join(args.work, "server.log")
    users = [int(x) for x in args.users.split(",")]
    sheets = [int(x) for x in args.sheets.split(",")]
    if len(users) != len(sheets) or min(users) < 1 or min(sheets) < 0:
        raise SystemExit("sheets-bench: --users and --sheets need as many sizes each (users >= 1)")
    if args.real_users > 19:
        raise SystemExit("sheets-bench: at most 19 real users (the server allows 20 sign-ups per address)")

    template = os.path.join(args.work, "template")
    log(f"==> scanning the library {args.library} into a template data folder")
    scan_template(args.server_bin, args.library, template)
    prepared = []
    try:
        for i, (u, n) in enumerate(zip(users, sheets)):
            prepared.append(prepare_size(args, template, u, n, i))
        # Rounds alternate between the sizes (all servers stay up, idle but for the one measured), so a
        # build starting on the machine meanwhile weighs on every size alike.
        runs = [[] for _ in prepared]
        if args.duration > 0:
            log(f"==> adding songs under wrk: {args.rounds} rounds of {args.duration} s per size, alternating")
            for r in range(args.rounds):
                for i, size in enumerate(prepared):
                    runs[i].append(relations_round(args, size, r))
        sizes = [finish_size(args, size, runs[i]) for i, size in enumerate(prepared)]
    finally:
        for size in prepared:
            size["server"].stop()
    result = {"library": os.path.abspath(args.library), "songs_per_seeded_sheet": args.songs_per_sheet,
              "sizes": sizes}
    if len(sizes) >= 2 and args.duration > 0:
        small, large = runs[0], runs[-1]

        def paired(key):  # the median over rounds of large / small, each pair measured back to back
            return round(statistics.median(l[key] / s[key] for s, l in zip(small, large)), 2)

        result["relations_growth"] = {
            "from": f"{sizes[0]['users_seeded']} users / {sizes[0]['sheets_seeded']} sheets",
            "to": f"{sizes[-1]['users_seeded']} users / {sizes[-1]['sheets_seeded']} sheets",
            "requests_per_second_ratio": paired("requests_per_second"),
            "p50_ratio": paired("p50_ms"),
            "p99_ratio": paired("p99_ms"),
        }
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
