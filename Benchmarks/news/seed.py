#!/usr/bin/env python3
"""Seeds a news channel with N articles straight into the server's SQLite file (schema version 70).

usage: seed.py DATABASE CHANNEL_ID [--articles 1000000]

One shared source in the channel; articles one minute apart, each linked to the source and listed in the
channel, with a title, a summary, one picture and a little content (no search rows: search is not measured).
"""
import argparse
import json
import sqlite3
import time

parser = argparse.ArgumentParser()
parser.add_argument("database")
parser.add_argument("channel", type=int)
parser.add_argument("--articles", type=int, default=1_000_000)
args = parser.parse_args()

db = sqlite3.connect(args.database, timeout=60)
db.execute("PRAGMA busy_timeout = 60000")
now = int(time.time())
base = now - args.articles * 60
with db:
    cur = db.execute(
        "INSERT INTO news_sources(owner_id, channel_id, url, title, next_refresh_at, created_at) "
        "VALUES (NULL, ?, 'https://bench.example.com/feed.xml', '基准新闻', ?, ?)",
        (args.channel, now + 86_400 * 365, now))
    source = cur.lastrowid
    first = (db.execute("SELECT coalesce(max(id), 0) FROM news_articles").fetchone()[0]) + 1
    batch = 50_000
    for start in range(0, args.articles, batch):
        rows, links, entries = [], [], []
        for i in range(start, min(start + batch, args.articles)):
            aid = first + i
            at = base + i * 60
            rows.append((aid, "https://bench.example.com/a/%d" % i, "第 %d 条新闻：基准测试 headline %d" % (i, i),
                         "摘要 summary of article %d, a sentence or two long." % i,
                         "<p>正文 %d</p>" % i, at, json.dumps(["https://img.example.com/%d.jpg" % i]),
                         source, now, now))
            links.append((source, "g%d" % i, aid))
            entries.append((args.channel, aid, at))
        db.executemany(
            "INSERT INTO news_articles(id, url, title, summary, content_html, published_at, images, source_id, "
            "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
        db.executemany("INSERT INTO news_links(source_id, guid, article_id) VALUES (?, ?, ?)", links)
        db.executemany("INSERT INTO news_entries(channel_id, article_id, published_at) VALUES (?, ?, ?)", entries)
db.execute("ANALYZE")
middle = first + args.articles // 2
at = db.execute("SELECT published_at FROM news_articles WHERE id = ?", (middle,)).fetchone()[0]
print("%d:%d" % (at, middle))
