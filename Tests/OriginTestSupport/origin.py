#!/usr/bin/env python3
"""A web server for the fetcher's and the feed parser's tests: the files of a folder (with ETags and 304s),
redirects, loops, huge, lying, compressed and slow bodies, byte ranges.

Usage: origin.py ROOT HOST SECOND_HOST. It serves ROOT/<name> at /docs/<name> on HOST (the address the tests
allow) and everything on SECOND_HOST (an address they must never reach), both on free ports, and prints
"PORTS <first> <second>". /_stats answers JSON counts: requests per listener and path, connections per
listener, and the connections that asked for each path. It exits when its standard input closes (when the test process ends).
"""
import gzip
import hashlib
import json
import os
import sys
import threading
import time
import urllib.parse
from email.utils import formatdate, parsedate_to_datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

root = "."
types = {"xml": "application/rss+xml", "rss": "application/rss+xml", "atom": "application/atom+xml",
         "json": "application/feed+json", "opml": "text/x-opml", "dtd": "application/xml-dtd",
         "html": "text/html", "mp3": "audio/mpeg", "png": "image/png", "svg": "image/svg+xml", "vtt": "text/vtt"}
lock = threading.Lock()
requests = {}  # "listener path" -> count
connections = {}  # listener -> count
served_by = {}  # "listener path" -> the numbers of the connections that asked for it
LAST_MODIFIED = formatdate(1_700_000_000, usegmt=True)


def count(table, key):
    with lock:
        table[key] = table.get(key, 0) + 1


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def setup(self):
        super().setup()
        count(connections, self.server.name)
        with lock:
            self.number = sum(connections.values())

    def log_message(self, *args):
        pass

    def send_body(self, status, body, content_type="application/octet-stream", headers=()):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        query = {k: v[0] for k, v in urllib.parse.parse_qs(url.query).items()}
        key = "%s %s" % (self.server.name, url.path)
        count(requests, key)
        with lock:
            served_by.setdefault(key, set()).add(self.number)
        path = url.path
        try:
            if path == "/_stats":
                with lock:
                    stats = {"requests": dict(requests), "connections": dict(connections),
                             "connectionsPerPath": {k: len(v) for k, v in served_by.items()}}
                return self.send_body(200, json.dumps(stats).encode(), "application/json")
            if path.startswith("/redirect"):
                return self.redirect(query["to"], int(query.get("status", "302")))
            if path.startswith("/chain/"):
                left = int(path.split("/")[2])
                if left == 0:
                    return self.send_body(200, b"<rss version='2.0'><channel><title>end</title></channel></rss>",
                                          "application/rss+xml")
                return self.redirect("/chain/%d" % (left - 1), int(query.get("status", "302")))
            if path == "/loop/a":
                return self.redirect("/loop/b", 302)
            if path == "/loop/b":
                return self.redirect("/loop/a", 302)
            if path == "/big":
                return self.big(int(query.get("bytes", "50000000")), query.get("length", "true"))
            if path == "/bomb":
                return self.bomb(int(query.get("bytes", "50000000")))
            if path == "/slow":
                return self.slow(int(query.get("bytes", "100000")), int(query.get("rate", "100")))
            if path == "/stall":
                return self.stall(query.get("after", "head"))
            if path == "/fatheaders":
                self.send_response(200)
                for i in range(2000):
                    self.send_header("X-Filler-%d" % i, "y" * 60)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            if path.startswith("/status/"):
                return self.send_body(int(path.split("/")[2]), b"status page\n", "text/html")
            if path == "/bytes":
                return self.ranged(int(query.get("size", "100000")), query.get("type", "audio/mpeg"))
            body = self.document(path)
            if body is None:
                return self.send_body(404, b"not found\n", "text/plain")
            content_type = types.get(path.rsplit(".", 1)[-1], "application/octet-stream")
            etag, modified = '"%s"' % hashlib.sha256(body).hexdigest()[:16], LAST_MODIFIED
            validators = [("ETag", etag), ("Last-Modified", modified)]
            if self.not_modified(etag, modified):
                self.send_response(304)
                for name, value in validators:
                    self.send_header(name, value)
                self.end_headers()
                return
            self.send_body(200, body, content_type, validators)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    def document(self, path):
        name = path[len("/docs/"):] if path.startswith("/docs/") else ""
        if not name or "/" in name or name.startswith("."):
            return None
        try:
            with open(os.path.join(root, name), "rb") as f:
                return f.read()
        except OSError:
            return None

    def not_modified(self, etag, modified):
        match = self.headers.get("If-None-Match")
        if match is not None:
            return etag in [tag.strip() for tag in match.split(",")] or match.strip() == "*"
        since = self.headers.get("If-Modified-Since")
        if since:
            try:
                return parsedate_to_datetime(since) >= parsedate_to_datetime(modified)
            except (TypeError, ValueError):
                return False
        return False

    def redirect(self, to, status):
        body = b"<html><body>moved</body></html>"
        self.send_body(status, body, "text/html", [("Location", to)])

    def big(self, size, length):
        # length=true: an honest Content-Length; none: no length, the body ends when the connection closes;
        # chunked: chunked transfer coding; small: a Content-Length under any limit, followed by much more.
        block = b"<!-- " + b"x" * 65526 + b" -->\n"
        self.send_response(200)
        self.send_header("Content-Type", "application/rss+xml")
        if length == "true":
            self.send_header("Content-Length", str(size))
        elif length == "chunked":
            self.send_header("Transfer-Encoding", "chunked")
        elif length == "small":
            self.send_header("Content-Length", "1000")
        else:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        sent = 0
        while sent < size:
            part = block[: min(len(block), size - sent)]
            if length == "chunked":
                self.wfile.write(b"%x\r\n%s\r\n" % (len(part), part))
            else:
                self.wfile.write(part)
            sent += len(part)
        if length == "chunked":
            self.wfile.write(b"0\r\n\r\n")

    def bomb(self, size):
        body = gzip.compress(b"\0" * size, 9)
        self.send_body(200, body, "application/rss+xml", [("Content-Encoding", "gzip")])

    def slow(self, size, rate):
        # `rate` bytes a second, in tenths of a second, until `size` or until the client leaves.
        self.send_response(200)
        self.send_header("Content-Type", "application/rss+xml")
        self.send_header("Content-Length", str(size))
        self.end_headers()
        sent = 0
        step = max(1, rate // 10)
        while sent < size:
            self.wfile.write(b"x" * min(step, size - sent))
            self.wfile.flush()
            sent += step
            time.sleep(0.1)

    def stall(self, after):
        # head: the head, then nothing; nothing: not even a head. Until the client leaves.
        if after == "head":
            self.send_response(200)
            self.send_header("Content-Type", "application/rss+xml")
            self.send_header("Content-Length", "100000")
            self.end_headers()
            self.wfile.write(b"<rss>")
            self.wfile.flush()
        self.connection.settimeout(None)
        while self.connection.recv(1024):
            pass

    def ranged(self, size, content_type):
        body = bytes(i % 251 for i in range(size))
        etag = '"bytes-%d"' % size
        headers = [("Accept-Ranges", "bytes"), ("ETag", etag), ("Last-Modified", LAST_MODIFIED)]
        spec = self.headers.get("Range")
        if_range = self.headers.get("If-Range")
        if spec and (if_range is None or if_range == etag) and spec.startswith("bytes="):
            first, _, last = spec[len("bytes="):].partition("-")
            if first == "":
                start, end = size - int(last), size - 1
            else:
                start, end = int(first), int(last) if last else size - 1
            if start >= size:
                return self.send_body(416, b"", content_type, [("Content-Range", "bytes */%d" % size)] + headers)
            end = min(end, size - 1)
            return self.send_body(206, body[start:end + 1], content_type,
                                  [("Content-Range", "bytes %d-%d/%d" % (start, end, size))] + headers)
        self.send_body(200, body, content_type, headers)

    do_HEAD = do_GET


class Listener(ThreadingHTTPServer):
    # The whole test process shares this origin, and on a loaded machine its accept loop falls behind: with
    # socketserver's backlog of 5 the kernel dropped further SYNs, whose retries outlasted the fetcher's 10 s
    # connect timeout (seen in CI as "did not answer within 10 s").
    request_queue_size = 512
    daemon_threads = True


def serve(host, name):
    server = Listener((host, 0), Handler)
    server.name = name
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server.server_address[1]


if __name__ == "__main__":
    root = sys.argv[1]
    ports = [serve(sys.argv[2], "allowed"), serve(sys.argv[3], "forbidden")]
    print("PORTS " + " ".join(str(p) for p in ports), flush=True)
    # Ends with the test process: its standard input closes when the test runner exits.
    sys.stdin.read()
