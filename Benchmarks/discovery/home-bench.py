#!/usr/bin/env python3
"""GET /v1/home at 100k songs and 10k people: p99 per request, signed in and not.

Starts the server once on an empty music folder (so the schema is made), stops it, writes a large library and
its listeners straight into SQLite (100k songs on 10k albums of 1k artists in 8 genres, 10k people with a play
history each, public sheets with collections, three banner ads, sessions for the people whose homes are asked),
starts it again and asks for homes:

  1. sequential, one keep-alive connection: each signed-in person's first home (their personal modules are
     built then), then homes of random people and of visitors; p50/p99/max per kind;
  2. wrk -t2 -c<conns> for <seconds> with a Lua script that asks as a random person (or nobody, one in
     four requests), for throughput and p99 under concurrency.

Python 3 stdlib only, plus wrk. The songs belong to a music folder the server does not scan, so its start-up
scan of the (empty) music folder leaves them be. Results go to stdout as JSON (last line).
"""
import argparse, hashlib, http.client, json, os, random, secrets, sqlite3, statistics, subprocess, sys
import tempfile, time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "social"))
from benchserver import start, stop  # noqa: E402

GENRES = ["Pop", "Rock", "Jazz", "Folk", "Electronic", "Classical", "华语流行", "民谣"]


def get(conn, path, token=None):
    headers = {"Authorization": token} if token else {}
    t = time.perf_counter()
    conn.request("GET", path, headers=headers)
    response = conn.getresponse()
    body = response.read()
    elapsed = (time.perf_counter() - t) * 1000
    if response.status != 200:
        raise SystemExit(f"GET {path}: {response.status} {body[:200]!r}")
    return elapsed, json.loads(body)


def summary(times):
    times = sorted(times)
    return {"n": len(times), "p50_ms": round(statistics.median(times), 3),
            "p99_ms": round(times[max(0, int(len(times) * 0.99) - 1)], 3), "max_ms": round(times[-1], 3)}


def seed(db, songs, users, tokens, sheets, plays_per_user, rng):
    now = int(time.time())
    cur = db.cursor()
    cur.execute("PRAGMA synchronous=OFF")
    cur.execute("BEGIN")
    cur.execute("INSERT INTO music_folders(path) VALUES ('/cloudmusic-bench/virtual')")
    folder = cur.lastrowid
    artists = max(1, songs // 100)
    albums = max(1, songs // 10)
    cur.executemany(
        "INSERT INTO artists(id, name, name_key, songs_count, albums_count, created_at, updated_at) "
        "VALUES (?, ?, ?, 100, 10, ?, ?)",
        [(a + 1, f"Artist {a}", f"artist {a}", now, now) for a in range(artists)])
    cur.executemany(
        "INSERT INTO albums(id, title, album_key, artist_id, year, songs_count, duration_ms, created_at, updated_at) "
        "VALUES (?, ?, ?, ?, ?, 10, 1200000, ?, ?)",
        [(b + 1, f"Album {b}", f"album {b}", b // 10 + 1, 1970 + b % 55, now - (albums - b) * 60, now)
         for b in range(albums)])
    cur.executemany("INSERT INTO genres(id, name, name_key, songs_count) VALUES (?, ?, ?, 0)",
                    [(g + 1, name, name.lower()) for g, name in enumerate(GENRES)])
    # Popularity falls off like a power law, so "most played" means something.
    popularity = [int(10000 / (1 + i) ** 0.8) for i in range(songs)]
    rng.shuffle(popularity)
    cur.executemany(
        "INSERT INTO songs(id, folder_id, path, size, mtime_ns, fingerprint, title, album_id, track_number, year, "
        "duration_ms, bit_rate, sample_rate, channels, format, plays_count, created_at, updated_at) "
        "VALUES (?, ?, ?, 4000000, 0, ?, ?, ?, ?, ?, 200000, 320, 44100, 2, 'mp3', ?, ?, ?)",
        [(s + 1, folder, f"/cloudmusic-bench/virtual/{s}.mp3", f"fp{s}", f"Song {s}", s // 10 + 1, s % 10 + 1,
          1970 + (s // 10) % 55, popularity[s], now, now) for s in range(songs)])
    cur.executemany("INSERT INTO song_artists(song_id, artist_id, position) VALUES (?, ?, 0)",
                    [(s + 1, s // 100 + 1) for s in range(songs)])
    cur.executemany("INSERT INTO song_genres(song_id, genre_id) VALUES (?, ?)",
                    [(s + 1, (s // 10) % len(GENRES) + 1) for s in range(songs)])
    cur.execute("UPDATE genres SET songs_count = (SELECT count(*) FROM song_genres WHERE genre_id = genres.id)")

    cur.executemany(
        "INSERT INTO users(id, email, nickname, nickname_key, password_hash, created_at, updated_at) "
        "VALUES (?, ?, ?, ?, 'not-a-hash', ?, ?)",
        [(u, f"listener{u}@bench.local", f"Listener {u}", f"listener {u}", now, now)
         for u in range(1000, 1000 + users)])
    # Each person keeps to two genres; their plays follow the songs' popularity within them.
    by_genre = [[] for _ in GENRES]
    for s in range(songs):
        by_genre[(s // 10) % len(GENRES)].append(s + 1)
    plays = []
    for u in range(1000, 1000 + users):
        liked = rng.sample(range(len(GENRES)), 2)
        chosen = set()
        while len(chosen) < plays_per_user:
            chosen.add(rng.choice(by_genre[rng.choice(liked)]))
        for song in chosen:
            plays.append((u, song, rng.randint(1, 20), now - rng.randint(0, 90 * 86400)))
    cur.executemany("INSERT INTO song_plays(user_id, song_id, plays_count, last_played_at) VALUES (?, ?, ?, ?)",
                    plays)

    for s in range(sheets):
        owner = 1000 + rng.randrange(users)
        genre = GENRES[rng.randrange(len(GENRES))]
        cur.execute("INSERT INTO sheets(user_id, title, tags, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
                    (owner, f"Sheet {s}", json.dumps([genre]), now, now))
        sheet = cur.lastrowid
        cur.executemany("INSERT INTO sheet_songs(sheet_id, song_id, position, added_at) VALUES (?, ?, ?, ?)",
                        [(sheet, song, i, now) for i, song in enumerate(rng.sample(range(1, songs + 1), 20))])
        collectors = rng.sample(range(1000, 1000 + users), min(users, int(200 / (1 + s) ** 0.5) + 1))
        cur.executemany("INSERT OR IGNORE INTO collections(user_id, sheet_id, created_at) VALUES (?, ?, ?)",
                        [(c, sheet, now) for c in collectors if c != owner])

    cur.executemany(
        "INSERT INTO ads(title, position, style, link, media_file, media_type, width, height, size, sort, "
        "created_at, updated_at) VALUES (?, 10, 0, ?, ?, 'image/jpeg', 1080, 420, 30000, ?, ?, ?)",
        [(f"Banner {i}", f"https://example.com/{i}", f"{i:016x}.jpg", i, now, now) for i in range(3)])

    sessions = []
    for u in rng.sample(range(1000, 1000 + users), tokens):
        token = secrets.token_hex(32)
        sessions.append((token, u))
        cur.execute(
            "INSERT INTO sessions(token_hash, chat_token_hash, user_id, device, created_at, last_seen_at, expires_at) "
            "VALUES (?, ?, ?, 'bench', ?, ?, ?)",
            (hashlib.blake2b(token.encode(), digest_size=32).hexdigest(), secrets.token_hex(32), u, now, now,
             now + 30 * 86400))
    cur.execute("COMMIT")
    return sessions


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--server-bin", required=True)
    p.add_argument("--songs", type=int, default=100_000)
    p.add_argument("--users", type=int, default=10_000)
    p.add_argument("--plays", type=int, default=30, help="distinct songs each person played")
    p.add_argument("--sheets", type=int, default=3_000)
    p.add_argument("--tokens", type=int, default=1_000, help="people whose homes are asked")
    p.add_argument("--requests", type=int, default=4_000, help="sequential requests after the first homes")
    p.add_argument("--seconds", type=int, default=20, help="wrk duration")
    p.add_argument("--connections", type=int, default=8)
    p.add_argument("--work", default=None, help="folder for the data (default: a new temporary one)")
    args = p.parse_args()
    rng = random.Random(16)
    work = args.work or tempfile.mkdtemp(prefix="cm-home-bench-")
    data, music, log = os.path.join(work, "data"), os.path.join(work, "music"), os.path.join(work, "server.log")
    os.makedirs(music, exist_ok=True)

    proc, _ = start(args.server_bin, data, music, log)
    stop(proc)
    t = time.time()
    db = sqlite3.connect(os.path.join(data, "cloudmusic.sqlite"), isolation_level=None)
    sessions = seed(db, args.songs, args.users, args.tokens, args.sheets, args.plays, rng)
    counts = {table: db.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
              for table in ["songs", "albums", "users", "song_plays", "sheets", "collections", "sessions"]}
    db.close()
    seeded_s = round(time.time() - t, 1)
    print(f"seeded in {seeded_s} s: {counts}", file=sys.stderr)

    proc, port = start(args.server_bin, data, music, log)
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port)
        # Wait for the start-up scan (of the empty folder) to finish.
        for _ in range(600):
            conn.request("GET", "/v1/library/scan")
            status = json.loads(conn.getresponse().read())
            if status.get("status", 0) != 0 or (status.get("data") or {}).get("running") is False:
                break
            time.sleep(0.1)
        _, home = get(conn, "/v1/home")
        shape = [(m["moduleType"], len(m["items"])) for m in home["data"]]
        print(f"a visitor's home: {shape}", file=sys.stderr)
        visitor_first = [get(conn, "/v1/home")[0] for _ in range(50)]

        first = [get(conn, "/v1/home", token)[0] for token, _ in sessions]
        _, mine = get(conn, "/v1/home", sessions[0][0])
        print(f"a person's home: {[(m['moduleType'], len(m['items'])) for m in mine['data']]}", file=sys.stderr)
        signed, visitors = [], []
        for i in range(args.requests):
            if i % 4 == 0:
                visitors.append(get(conn, "/v1/home")[0])
            else:
                signed.append(get(conn, "/v1/home", rng.choice(sessions)[0])[0])
        results = {
            "songs": counts["songs"], "users": counts["users"], "plays": counts["song_plays"],
            "sheets": counts["sheets"], "seeded_s": seeded_s, "home_bytes_visitor": len(json.dumps(home)),
            "sequential": {
                "visitor": summary(visitor_first + visitors),
                "signed_in_first_home": summary(first),
                "signed_in": summary(signed),
                "all_after_first": summary(signed + visitors),
            },
        }

        # Under concurrency: wrk with a random person (or nobody) per request.
        lua = os.path.join(work, "home.lua")
        with open(lua, "w") as f:
            f.write("local tokens = {\n")
            for token, _ in sessions:
                f.write(f'  "{token}",\n')
            f.write("}\n")
            f.write(
                "math.randomseed(16)\n"
                "request = function()\n"
                "  if math.random(4) == 1 then return wrk.format('GET', '/v1/home') end\n"
                "  return wrk.format('GET', '/v1/home', {Authorization = tokens[math.random(#tokens)]})\n"
                "end\n")
        out = subprocess.run(
            ["wrk", "-t2", f"-c{args.connections}", f"-d{args.seconds}s", "--latency", "-s", lua,
             f"http://127.0.0.1:{port}"], capture_output=True, text=True, check=True).stdout
        print(out, file=sys.stderr)
        wrk = {}
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 2 and parts[0] in ("50%", "90%", "99%"):
                value = parts[1]
                ms = float(value[:-2]) if value.endswith("ms") else (
                    float(value[:-2]) / 1000 if value.endswith("us") else float(value[:-1]) * 1000)
                wrk["p" + parts[0][:-1] + "_ms"] = ms
            if line.startswith("Requests/sec:"):
                wrk["requests_per_s"] = float(line.split()[1])
            if "Non-2xx" in line:
                wrk["non_2xx"] = int(line.split()[-1])
        results["wrk"] = dict(wrk, connections=args.connections, seconds=args.seconds)
        status = open(f"/proc/{proc.pid}/status").read()
        results["rss_mib"] = round(int(next(l for l in status.splitlines() if l.startswith("VmRSS")).split()[1]) / 1024, 1)
    finally:
        stop(proc)
    print(json.dumps(results))


if __name__ == "__main__":
    main()
