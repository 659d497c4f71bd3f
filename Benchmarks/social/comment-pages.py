#!/usr/bin/env python3
"""Deep comment pages: does page 10,000 cost what page 1 costs?

    comment-pages.py --server-bin BIN --music DIR [--comments 1000000] [--size 20] [--deep 10000] [--requests 200]

Starts the server once on an empty data folder (migrations run, the music folder is scanned), stops it,
writes --comments comments on the first song straight into SQLite (one transaction; the schema's triggers
keep the counts), starts it again, and measures over one keep-alive connection:
  - page 1 (newest first, no cursor);
  - page --deep reached by cursor (the nextCursor of page deep-1, found by walking the pages once);
  - page --deep by offset (?page=N), for comparison;
  - the same three for order=hot.
Prints p50/p99 of each and the ratios deep/first; writes JSON to stdout's last line. Python 3 stdlib only.
"""
import argparse, http.client, json, os, signal, sqlite3, sys, tempfile, time

from benchserver import call, start, timed


def get(conn, path):
    return call(conn, "GET", path, expect=200)


def main():
    a = argparse.ArgumentParser()
    a.add_argument("--server-bin", required=True)
    a.add_argument("--music", required=True)
    a.add_argument("--comments", type=int, default=1_000_000)
    a.add_argument("--size", type=int, default=20)
    a.add_argument("--deep", type=int, default=10000)
    a.add_argument("--requests", type=int, default=200)
    args = a.parse_args()
    data = tempfile.mkdtemp(prefix="cm-social-")
    log = os.path.join(data, "server.log")

    proc, port = start(args.server_bin, data, args.music, log)
    conn = http.client.HTTPConnection("127.0.0.1", port)
    for _ in range(600):
        status = get(conn, "/v1/library/scan")
        if not status.get("running") and status.get("lastReport"):
            break
        time.sleep(0.1)
    song = get(conn, "/v1/songs?size=1")["data"][0]["id"]
    conn.close()
    proc.send_signal(signal.SIGTERM)
    proc.wait()

    t = time.time()
    db = sqlite3.connect(os.path.join(data, "cloudmusic.sqlite"))
    now = int(time.time())
    with db:
        db.executemany(
            "INSERT INTO users(email, nickname, nickname_key, password_hash, created_at, updated_at) VALUES (?, ?, ?, 'x', ?, ?)",
            [(f"u{i}@example.com", f"User {i}", f"user {i}", now, now) for i in range(1000)])
        users = [r[0] for r in db.execute("SELECT id FROM users")]
        start_time = now - args.comments
        db.executemany(
            "INSERT INTO comments(user_id, target_kind, target_id, content, hot, created_at, updated_at) VALUES (?, 1, ?, ?, ?, ?, ?)",
            ((users[i % len(users)], int(song), f"comment {i}", (start_time + i) / 45000.0, start_time + i, start_time + i)
             for i in range(args.comments)))
    db.close()
    seeded = time.time() - t
    print(f"    seeded {args.comments} comments on song {song} in {seeded:.1f} s", file=sys.stderr)

    proc, port = start(args.server_bin, data, args.music, log)
    conn = http.client.HTTPConnection("127.0.0.1", port)
    results = {"comments": args.comments, "size": args.size, "deep_page": args.deep, "seed_seconds": round(seeded, 1)}
    try:
        for order in ("new", "hot"):
            base = f"/v1/comments?songId={song}&order={order}&size={args.size}"
            cursor = None
            t = time.time()
            for _ in range(args.deep - 1):
                page = get(conn, base + (f"&cursor={cursor}" if cursor else ""))
                cursor = page["nextCursor"]
            walk = time.time() - t
            first = timed(conn, base, args.requests)
            deep_cursor = timed(conn, base + f"&cursor={cursor}", args.requests)
            deep_offset = timed(conn, base + f"&page={args.deep}", max(20, args.requests // 10))
            results[order] = {
                "first": first, "deep_by_cursor": deep_cursor, "deep_by_offset": deep_offset,
                "walk_seconds": round(walk, 1),
                "cursor_ratio_p50": round(deep_cursor["p50_ms"] / first["p50_ms"], 2),
                "offset_ratio_p50": round(deep_offset["p50_ms"] / first["p50_ms"], 2),
            }
            print(f"    order={order}: page 1 p50 {first['p50_ms']} ms p99 {first['p99_ms']} ms; "
                  f"page {args.deep} by cursor p50 {deep_cursor['p50_ms']} ms p99 {deep_cursor['p99_ms']} ms "
                  f"(ratio {results[order]['cursor_ratio_p50']}); by offset p50 {deep_offset['p50_ms']} ms "
                  f"(ratio {results[order]['offset_ratio_p50']})", file=sys.stderr)
    finally:
        conn.close()
        proc.send_signal(signal.SIGTERM)
        proc.wait()
    print(json.dumps(results))


if __name__ == "__main__":
    main()
