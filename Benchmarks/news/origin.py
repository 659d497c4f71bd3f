#!/usr/bin/env python3
"""Feeds for the refresh benchmark: /feed/N is a small RSS feed with an ETag; a matching If-None-Match gets a
304. GET /_change?count=K gives the first K feeds a new article; /_stats counts answers and says when the first
and last request since /_reset came."""
import http.server
import json
import sys
import threading
import time
import urllib.parse

lock = threading.Lock()
generation = {}
stats = {"200": 0, "304": 0, "first": None, "last": None}


def feed(n, gen):
    items = "".join(
        "<item><guid>f%d-%d</guid><title>Feed %d article %d</title><link>https://bench.example.com/%d/%d</link>"
        "<description>&lt;p&gt;Text of article %d.&lt;/p&gt;</description></item>" % (n, i, n, i, n, i, i)
        for i in range(gen, gen + 5))
    return ("<?xml version='1.0'?><rss version='2.0'><channel><title>Feed %d</title>%s</channel></rss>"
            % (n, items)).encode()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, status, body=b"", headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        query = dict(urllib.parse.parse_qsl(url.query))
        if url.path == "/_stats":
            with lock:
                return self.send(200, json.dumps(stats).encode(), [("Content-Type", "application/json")])
        if url.path == "/_reset":
            with lock:
                stats.update({"200": 0, "304": 0, "first": None, "last": None})
            return self.send(200)
        if url.path == "/_change":
            with lock:
                for n in range(int(query.get("count", "10"))):
                    generation[n] = generation.get(n, 0) + 1
            return self.send(200)
        if not url.path.startswith("/feed/"):
            return self.send(404)
        n = int(url.path.split("/")[2])
        with lock:
            gen = generation.get(n, 0)
            now = time.time()
            stats["first"] = stats["first"] or now
            stats["last"] = now
        etag = '"%d-%d"' % (n, gen)
        if self.headers.get("If-None-Match") == etag:
            with lock:
                stats["304"] += 1
            return self.send(304, headers=[("ETag", etag)])
        with lock:
            stats["200"] += 1
        self.send(200, feed(n, gen), [("Content-Type", "application/rss+xml"), ("ETag", etag)])


server = http.server.ThreadingHTTPServer((sys.argv[1], 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
