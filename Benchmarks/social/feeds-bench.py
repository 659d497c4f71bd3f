#!/usr/bin/env python3
"""Moments at scale: the timeline and nearby.

    feeds-bench.py --server-bin BIN --music DIR [--users 10000] [--follows 500] [--moments 1000000]
                   [--requests 300] [--size 20] [--readers 5]

Starts the server once on an empty data folder (migrations run), signs up --readers people through the API
(so they have real sessions), stops it, and writes straight into SQLite (one transaction; the schema's
triggers keep every count and fill the R*Tree):
  - --users people in all, each following --follows others chosen at random;
  - --moments moments by random authors in time order, every one placed: 300 cities spread over China's
    latitudes and longitudes, each moment a normal spread (sigma 8 km) around its city.
Then starts the server again and times, over one keep-alive connection, for the readers in turn:
  - the first timeline page, and the page 50 deep (by cursor);
  - nearby (radius 5 km) at random city centres (the densest spots) and at random points anywhere;
  - everyone's moments, first page.
Prints p50/p99 of each and writes JSON to stdout's last line. Python 3 stdlib only.
"""
import argparse, http.client, json, math, os, random, signal, sqlite3, sys, tempfile, time

from benchserver import call, start, timed


def main():
    a = argparse.ArgumentParser()
    a.add_argument("--server-bin", required=True)
    a.add_argument("--music", required=True)
    a.add_argument("--users", type=int, default=10_000)
    a.add_argument("--follows", type=int, default=500)
    a.add_argument("--moments", type=int, default=1_000_000)
    a.add_argument("--requests", type=int, default=300)
    a.add_argument("--size", type=int, default=20)
    a.add_argument("--readers", type=int, default=5)
    args = a.parse_args()
    rng = random.Random(7)
    data = tempfile.mkdtemp(prefix="cm-feeds-")
    log = os.path.join(data, "server.log")

    proc, port = start(args.server_bin, data, args.music, log)
    conn = http.client.HTTPConnection("127.0.0.1", port)
    readers = []
    for i in range(args.readers):
        account = {"email": f"reader{i}@example.com", "password": "correct horse"}
        call(conn, "POST", "/v1/users", body=dict(account, nickname=f"Reader {i}"))
        readers.append(call(conn, "POST", "/v1/sessions", body=account)["session"])
    conn.close()
    proc.send_signal(signal.SIGTERM)
    proc.wait()

    t = time.time()
    db = sqlite3.connect(os.path.join(data, "cloudmusic.sqlite"))
    db.execute("PRAGMA synchronous=OFF")
    now = int(time.time())
    cities = [(rng.uniform(21.0, 42.0), rng.uniform(100.0, 122.0)) for _ in range(300)]
    with db:
        db.executemany(
            "INSERT INTO users(email, nickname, nickname_key, password_hash, created_at, updated_at) VALUES (?, ?, ?, 'x', ?, ?)",
            [(f"u{i}@example.com", f"User {i}", f"user {i}", now, now) for i in range(args.users - args.readers)])
        users = [r[0] for r in db.execute("SELECT id FROM users ORDER BY id")]

        def follows():
            for follower in users:
                for followee in rng.sample(users, args.follows + 1):
                    if followee != follower:
                        yield (follower, followee, now)
        db.executemany("INSERT OR IGNORE INTO follows(follower_id, followee_id, created_at) VALUES (?, ?, ?)", follows())

        start_time = now - args.moments
        degree = 111_320.0

        def moments():
            for i in range(args.moments):
                lat0, lng0 = cities[rng.randrange(len(cities))]
                lat = lat0 + rng.gauss(0, 8_000) / degree
                lng = lng0 + rng.gauss(0, 8_000) / (degree * math.cos(math.radians(lat0)))
                yield (users[rng.randrange(len(users))], f"moment {i}", lat, lng, start_time + i, start_time + i)
        db.executemany(
            "INSERT INTO feeds(user_id, content, latitude, longitude, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
            moments())
    db.execute("ANALYZE")
    db.close()
    seeded = time.time() - t
    print(f"    seeded {len(users)} people following {args.follows} each and {args.moments} placed moments "
          f"in {seeded:.1f} s", file=sys.stderr)

    proc, port = start(args.server_bin, data, args.music, log)
    conn = http.client.HTTPConnection("127.0.0.1", port)
    results = {"users": len(users), "follows_each": args.follows, "moments": args.moments, "size": args.size,
               "seed_seconds": round(seeded, 1)}
    try:
        first = f"/v1/feeds/timeline?size={args.size}"
        results["timeline_first"] = timed(conn, [first], args.requests, readers)
        deep_paths = []
        for reader in readers:
            cursor = None
            for _ in range(49):
                following = call(conn, "GET", first + (f"&cursor={cursor}" if cursor else ""), token=reader).get("nextCursor")
                if following is None:
                    break  # a shorter timeline than 50 pages: time its last page
                cursor = following
            deep_paths.append(first + (f"&cursor={cursor}" if cursor else ""))
        # Each reader's own deep page, so path i goes with token i.
        results["timeline_page_50"] = timed(conn, deep_paths, args.requests, readers)
        centres = [f"/v1/feeds/nearby?latitude={lat:.5f}&longitude={lng:.5f}&size={args.size}" for lat, lng in
                   rng.sample(cities, 50)]
        results["nearby_city_centre"] = timed(conn, centres, args.requests)
        anywhere = [f"/v1/feeds/nearby?latitude={rng.uniform(21, 42):.5f}&longitude={rng.uniform(100, 122):.5f}"
                    f"&size={args.size}" for _ in range(50)]
        results["nearby_anywhere"] = timed(conn, anywhere, args.requests)
        results["everyone_first"] = timed(conn, [f"/v1/feeds?size={args.size}"], args.requests)
        sample = call(conn, "GET", centres[0])["data"]
        results["nearby_sample_count"] = len(sample)
        results["nearby_sample_max_distance_m"] = round(max((m["distance"] for m in sample), default=0), 1)
        for name in ("timeline_first", "timeline_page_50", "nearby_city_centre", "nearby_anywhere", "everyone_first"):
            print(f"    {name}: p50 {results[name]['p50_ms']} ms p99 {results[name]['p99_ms']} ms", file=sys.stderr)
    finally:
        conn.close()
        proc.send_signal(signal.SIGTERM)
        proc.wait()
    print(json.dumps(results))


if __name__ == "__main__":
    main()
