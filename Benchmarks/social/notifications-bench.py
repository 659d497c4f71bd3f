#!/usr/bin/env python3
"""A long notifications inbox: do the first page and the unread badge stay fast at 100k notifications?

    notifications-bench.py --server-bin BIN [--notifications 100000] [--size 20] [--requests 300]

Starts the server on an empty data folder and music folder, signs one person up and in, stops it, writes
--notifications notifications for that person straight into SQLite (from 1,000 other people, every kind,
most about one of 10,000 comments; one transaction, so the schema's triggers keep the counts), starts it
again and measures over one keep-alive connection, with everything unread:
  - the first inbox page, GET /v1/notifications?size=N;
  - the unread counts, GET /v1/notifications/unread (kept counts);
  - the first unread page, ?unread=true (the partial index of unread rows);
  - a deep page by cursor (half way down);
  - as a control, the signed-in person's own profile, GET /v1/users/{id} (the tail the machine adds anyway);
then one POST /v1/notifications/read of everything, and the first unread page and counts again (now empty).
For comparison it times, in SQLite directly, what the unread count would cost without the kept counts:
count(*) over the partial index. Prints p50/p99 of each; writes JSON to stdout's last line. Python 3 stdlib only.
"""
import argparse, http.client, json, os, signal, sqlite3, sys, tempfile, time

from benchserver import call, start, summary, timed


def main():
    a = argparse.ArgumentParser()
    a.add_argument("--server-bin", required=True)
    a.add_argument("--notifications", type=int, default=100_000)
    a.add_argument("--size", type=int, default=20)
    a.add_argument("--requests", type=int, default=300)
    args = a.parse_args()
    data = tempfile.mkdtemp(prefix="cm-notify-")
    music = tempfile.mkdtemp(prefix="cm-notify-music-")
    log = os.path.join(data, "server.log")

    proc, port = start(args.server_bin, data, music, log)
    conn = http.client.HTTPConnection("127.0.0.1", port)
    account = {"email": "inbox@example.com", "password": "correct horse"}
    me = call(conn, "POST", "/v1/users", body=dict(account, nickname="inbox"), expect=201)["id"]
    token = call(conn, "POST", "/v1/sessions", body=account, expect=201)["session"]
    conn.close()
    proc.send_signal(signal.SIGTERM)
    proc.wait()

    t = time.time()
    path = os.path.join(data, "cloudmusic.sqlite")
    db = sqlite3.connect(path)
    now = int(time.time())
    with db:
        db.executemany(
            "INSERT INTO users(email, nickname, nickname_key, password_hash, created_at, updated_at) VALUES (?, ?, ?, 'x', ?, ?)",
            [(f"u{i}@example.com", f"User {i}", f"user {i}", now, now) for i in range(1000)])
        actors = [r[0] for r in db.execute("SELECT id FROM users WHERE id <> ?", (int(me),))]
        db.executemany(
            "INSERT INTO comments(user_id, target_kind, target_id, content, hot, created_at, updated_at) VALUES (?, 1, 1, ?, 0, ?, ?)",
            ((int(me) if i % 2 else actors[i % len(actors)], f"comment {i} " + "词" * 60, now, now) for i in range(10_000)))
        comments = [r[0] for r in db.execute("SELECT id FROM comments")]
        start_time = now - args.notifications
        rows = []
        for i in range(args.notifications):
            kind = i % 5 + 1
            comment = None if kind == 4 else comments[i % len(comments)]
            # Distinct (actor, kind, comment) per notification, as the unique index wants.
            actor = actors[(i // len(comments)) % len(actors)] if comment else actors[i % len(actors)]
            rows.append((int(me), actor, kind, comment, None if kind != 4 else i, start_time + i))
        # Follows carry a fake feed id only to stay distinct here; real follows have neither.
        db.executemany(
            "INSERT OR IGNORE INTO notifications(user_id, actor_id, kind, comment_id, feed_id, created_at) VALUES (?, ?, ?, ?, ?, ?)",
            rows)
    total = db.execute("SELECT count(*) FROM notifications WHERE user_id = ?", (int(me),)).fetchone()[0]
    seeded = time.time() - t
    print(f"    seeded {total} notifications for user {me} in {seeded:.1f} s", file=sys.stderr)
    # Without kept counts the badge would be this count over the partial index of unread rows.
    raw = []
    for _ in range(50):
        s = time.perf_counter()
        db.execute("SELECT count(*) FROM notifications WHERE user_id = ? AND read_at IS NULL", (int(me),)).fetchone()
        raw.append((time.perf_counter() - s) * 1000)
    plans = {
        "page": db.execute("EXPLAIN QUERY PLAN SELECT id FROM notifications n WHERE n.user_id = ? AND n.id < ? ORDER BY n.id DESC LIMIT 21", (1, 2)).fetchall(),
        "unread_page": db.execute("EXPLAIN QUERY PLAN SELECT id FROM notifications n WHERE n.user_id = ? AND n.read_at IS NULL AND n.id < ? ORDER BY n.id DESC LIMIT 21", (1, 2)).fetchall(),
    }
    db.close()
    print(f"    plans: {plans}", file=sys.stderr)

    proc, port = start(args.server_bin, data, music, log)
    conn = http.client.HTTPConnection("127.0.0.1", port)
    results = {"notifications": total, "size": args.size, "seed_seconds": round(seeded, 1),
               "sql_count_unread_without_kept_counts": summary(raw)}
    try:
        base = f"/v1/notifications?size={args.size}"
        first = call(conn, "GET", base, token, expect=200)
        assert first["total"] == total and len(first["data"]) == args.size, first["total"]
        counts = call(conn, "GET", "/v1/notifications/unread", token, expect=200)
        assert counts["count"] == total, counts
        # The floor: a signed-in request that reads nothing of the inbox (the viewer's own profile).
        results["control_own_profile"] = timed(conn, f"/v1/users/{me}", args.requests, token)
        results["first_page"] = timed(conn, base, args.requests, token)
        results["unread_counts"] = timed(conn, "/v1/notifications/unread", args.requests, token)
        results["first_unread_page"] = timed(conn, base + "&unread=true", args.requests, token)
        page = call(conn, "GET", f"/v1/notifications?size=100&page={total // 200}", token, expect=200)
        middle = page["data"][-1]["id"]
        results["deep_page_by_cursor"] = timed(conn, base + f"&cursor={middle}", args.requests, token)
        s = time.perf_counter()
        after = call(conn, "POST", "/v1/notifications/read", token, body={}, expect=200)
        results["mark_all_read_ms"] = round((time.perf_counter() - s) * 1000, 1)
        assert after["count"] == 0, after
        results["first_unread_page_all_read"] = timed(conn, base + "&unread=true", args.requests, token)
        results["unread_counts_all_read"] = timed(conn, "/v1/notifications/unread", args.requests, token)
        results["first_page_all_read"] = timed(conn, base, args.requests, token)
        for name, value in results.items():
            print(f"    {name}: {value}", file=sys.stderr)
    finally:
        conn.close()
        proc.send_signal(signal.SIGTERM)
        proc.wait()
    print(json.dumps(results))


if __name__ == "__main__":
    main()
