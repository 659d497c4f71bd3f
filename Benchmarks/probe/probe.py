#!/usr/bin/env python3
"""Probes a running CloudMusic server for the findings of issue 15 and prints PASS/FAIL per check.

    Benchmarks/probe/probe.py --base http://127.0.0.1:PORT [--music FOLDER] [--admin ACCOUNT:PASSWORD]
                              [--only symlinks,passwords,params,stalls,chunked,headers,idle]

See Benchmarks/probe/README.md. Standard library only. Exit status: 0 when nothing failed, 1 when a
check failed, 2 on bad usage.
"""

import argparse
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse

PASSWD_MARK = b"root:"


class Report:
    def __init__(self):
        self.rows = []

    def add(self, part, check, result, detail=""):
        self.rows.append((part, check, result, detail))
        print(f"  {result:<4} {part}: {check}  {detail}", flush=True)

    def table(self):
        widths = [max(len(r[i]) for r in self.rows + [("part", "check", "result", "")]) for i in range(3)]
        line = f"{'part':<{widths[0]}}  {'check':<{widths[1]}}  {'result':<{widths[2]}}  detail"
        print()
        print(line)
        print("-" * min(160, len(line) + 40))
        for part, check, result, detail in self.rows:
            print(f"{part:<{widths[0]}}  {check:<{widths[1]}}  {result:<{widths[2]}}  {detail}")
        failed = sum(1 for r in self.rows if r[2] == "FAIL")
        passed = sum(1 for r in self.rows if r[2] == "PASS")
        skipped = sum(1 for r in self.rows if r[2] == "SKIP")
        print(f"\n{passed} passed, {failed} failed, {skipped} skipped")
        return failed


# --- HTTP over raw sockets: every wait is bounded, and closes and timings are visible -------------------


class Response:
    def __init__(self, status, headers, body):
        self.status = status
        self.headers = headers
        self.body = body

    def header(self, name):
        for k, v in self.headers:
            if k.lower() == name.lower():
                return v
        return None

    def json(self):
        try:
            return json.loads(self.body.decode("utf-8"))
        except Exception:
            return None

    def envelope(self):
        j = self.json()
        return isinstance(j, dict) and j.get("status") == self.status and isinstance(j.get("message"), str)


class Conn:
    def __init__(self, host, port, timeout=10.0, source=None, rcvbuf=None):
        self.sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
        if rcvbuf:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        if source:
            self.sock.bind((source, 0))
        self.sock.settimeout(timeout)
        self.sock.connect((host, port))
        self.buf = b""

    def send(self, data):
        self.sock.sendall(data)

    def _fill(self):
        d = self.sock.recv(65536)
        if not d:
            raise ConnectionError("closed by the server")
        self.buf += d

    def _line(self):
        while b"\r\n" not in self.buf:
            self._fill()
        line, self.buf = self.buf.split(b"\r\n", 1)
        return line

    def _exact(self, n):
        while len(self.buf) < n:
            self._fill()
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def read_head(self):
        line = self._line()
        while not line:
            line = self._line()
        parts = line.decode("latin-1").split(" ", 2)
        status = int(parts[1])
        headers = []
        while True:
            h = self._line()
            if not h:
                break
            k, _, v = h.decode("latin-1").partition(":")
            headers.append((k.strip(), v.strip()))
        return status, headers

    def read_response(self, head_only=False):
        status, headers = self.read_head()
        r = Response(status, headers, b"")
        if head_only or status in (204, 304):
            return r
        te = r.header("Transfer-Encoding") or ""
        if "chunked" in te.lower():
            body = b""
            while True:
                size = int(self._line().split(b";")[0].strip(), 16)
                if size == 0:
                    while self._line():
                        pass
                    break
                body += self._exact(size)
                self._exact(2)
            r.body = body
        elif r.header("Content-Length") is not None:
            r.body = self._exact(int(r.header("Content-Length")))
        else:
            try:
                while True:
                    self._fill()
            except ConnectionError:
                pass
            r.body, self.buf = self.buf, b""
        return r

    def wait_closed(self, timeout):
        """Seconds until the server closes the connection, or None when it is still open at the deadline."""
        start = time.monotonic()
        self.sock.settimeout(0.5)
        while time.monotonic() - start < timeout:
            try:
                d = self.sock.recv(65536)
                if not d:
                    return time.monotonic() - start
            except socket.timeout:
                continue
            except OSError:
                return time.monotonic() - start
        return None

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


def request_bytes(method, target, host, headers=(), body=None, keep_alive=False):
    lines = [f"{method} {target} HTTP/1.1", f"Host: {host}"]
    lines += [f"{k}: {v}" for k, v in headers]
    if body is not None and not any(k.lower() == "transfer-encoding" for k, _ in headers):
        lines.append(f"Content-Length: {len(body)}")
    if not keep_alive:
        lines.append("Connection: close")
    data = ("\r\n".join(lines) + "\r\n\r\n").encode("utf-8")
    return data + (body or b"")


class Server:
    def __init__(self, base):
        u = urllib.parse.urlsplit(base)
        if u.scheme != "http" or not u.hostname:
            raise SystemExit("probe.py: --base must look like http://127.0.0.1:8080")
        self.host = u.hostname
        self.port = u.port or 80
        self.token = None

    def conn(self, **kw):
        return Conn(self.host, self.port, **kw)

    def call(self, method, target, body=None, headers=(), timeout=15.0):
        hdrs = list(headers)
        data = None
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            hdrs.append(("Content-Type", "application/json"))
        if self.token:
            hdrs.append(("Authorization", self.token))
        c = self.conn(timeout=timeout)
        try:
            c.send(request_bytes(method, target, self.host, hdrs, data))
            return c.read_response(head_only=(method == "HEAD"))
        finally:
            c.close()

    def timed_get(self, target, timeout=15.0):
        c = self.conn(timeout=timeout)
        start = time.monotonic()
        try:
            c.send(request_bytes("GET", target, self.host))
            r = c.read_response()
        except (ConnectionError, OSError) as e:
            r = e
        finally:
            c.close()
        return r, time.monotonic() - start


# --- (a) files swapped for symlinks after a scan ---------------------------------------------------------


def run_scan(server, report, why):
    """Starts a scan and waits for it; returns True when one finished."""
    r = server.call("POST", "/v1/library/scan")
    if r.status != 202:
        msg = (r.json() or {}).get("message", "")
        report.add("symlinks", f"scan ({why})", "SKIP", f"POST /v1/library/scan answered {r.status}: {msg}")
        return False
    started = (r.json() or {}).get("data", {}) or {}
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        s = server.call("GET", "/v1/library/scan").json() or {}
        d = s.get("data") or {}
        last = d.get("lastReport") or {}
        if not d.get("running") and last.get("state") in ("finished", "failed", "cancelled") and (
            not started.get("id") or last.get("id") == started.get("id")
        ):
            return True
        time.sleep(0.3)
    report.add("symlinks", f"scan ({why})", "FAIL", "the scan did not finish within 300 s")
    return False


def find_song(server, title):
    page = 1
    while page < 200:
        r = server.call("GET", f"/v1/songs?size=100&page={page}")
        data = (r.json() or {}).get("data") or {}
        for s in data.get("data") or []:
            if s.get("title") == title:
                return s
        if not data.get("next"):
            return None
        page = data["next"]
    return None


def ffmpeg(args):
    subprocess.run(["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y"] + args, check=True)


def make_fixture(music, token):
    folder = os.path.join(music, f"CloudMusic Probe {token}", f"Probe Album {token}")
    os.makedirs(folder)
    tags = ["-metadata", f"artist=Probe Artist {token}", "-metadata", f"album=Probe Album {token}"]
    short = os.path.join(folder, f"01 Probe Song {token}.mp3")
    ffmpeg(["-f", "lavfi", "-i", "sine=frequency=440:duration=5", "-ac", "1", "-b:a", "64k",
            "-metadata", f"title=Probe Song {token}", "-metadata", "track=1"] + tags + [short])
    # Long enough that a transcode cannot finish into the socket buffers of a client that reads nothing.
    long = os.path.join(folder, f"02 Probe Long {token}.mp3")
    ffmpeg(["-f", "lavfi", "-i", "anoisesrc=duration=600:amplitude=0.3", "-ac", "1", "-ar", "22050",
            "-b:a", "32k", "-metadata", f"title=Probe Long {token}", "-metadata", "track=2"] + tags + [long])
    ffmpeg(["-f", "lavfi", "-i", "color=c=red:s=64x64", "-frames:v", "1", os.path.join(folder, "cover.jpg")])
    with open(os.path.join(folder, f"01 Probe Song {token}.lrc"), "w") as f:
        f.write("[00:01.00]probe lyric line\n")
    return folder


def swap_for_symlink(path, target):
    tmp = path + ".probe-link"
    os.symlink(target, tmp)
    os.replace(tmp, path)


def leaks(r):
    return isinstance(r, Response) and PASSWD_MARK in r.body and b":0:0:" in r.body


def check_swapped(server, report, song, when):
    sid, aid = song["id"], song["album"]["id"]
    for label, target in [
        ("album cover", f"/v1/albums/{aid}/cover"),
        ("song cover 256", f"/v1/songs/{sid}/cover?size=256"),
        ("lyric", f"/v1/songs/{sid}/lyric"),
        ("stream", f"/v1/songs/{sid}/stream"),
    ]:
        r, _ = server.timed_get(target)
        if not isinstance(r, Response):
            report.add("symlinks", f"{label} {when}", "PASS", f"GET {target}: connection closed ({r})")
        elif leaks(r):
            report.add("symlinks", f"{label} {when}", "FAIL",
                       f"GET {target} -> {r.status} {r.header('Content-Type')}: the body is /etc/passwd")
        else:
            report.add("symlinks", f"{label} {when}", "PASS", f"GET {target} -> {r.status}, not /etc/passwd")


def part_symlinks(server, report, args, state):
    if not args.music:
        report.add("symlinks", "symlink swap", "SKIP", "needs --music FOLDER (one of the server's music folders)")
        return
    if not shutil.which("ffmpeg"):
        report.add("symlinks", "symlink swap", "SKIP", "needs ffmpeg to make the probe's own album")
        return
    if not os.path.exists("/etc/passwd"):
        report.add("symlinks", "symlink swap", "SKIP", "no /etc/passwd to point at")
        return
    token = secrets.token_hex(4)
    folder = make_fixture(args.music, token)
    state["fixture"] = os.path.dirname(folder)
    if not run_scan(server, report, "after adding the probe album"):
        return
    song = find_song(server, f"Probe Song {token}")
    state["long_song"] = find_song(server, f"Probe Long {token}")
    if not song or not song.get("album"):
        report.add("symlinks", "probe album scanned", "FAIL", "the probe's song is not in /v1/songs after the scan")
        return
    lyric = server.call("GET", f"/v1/songs/{song['id']}/lyric")
    report.add("symlinks", "probe album scanned", "PASS",
               f"song {song['id']}, album {song['album']['id']}, lyric {lyric.status}")
    for name in ["cover.jpg", f"01 Probe Song {token}.lrc", f"01 Probe Song {token}.mp3"]:
        swap_for_symlink(os.path.join(folder, name), "/etc/passwd")
    check_swapped(server, report, song, "after swap")
    if run_scan(server, report, "after the swap"):
        check_swapped(server, report, song, "after rescan")


def cleanup_fixture(server, report, state):
    fixture = state.get("fixture")
    if fixture and os.path.isdir(fixture):
        shutil.rmtree(fixture, ignore_errors=True)
        if not server.token and state.get("session"):
            server.token = state["session"]
        try:
            r = server.call("POST", "/v1/library/scan")
            note = "rescan started" if r.status == 202 else f"rescan not allowed ({r.status}): run one to drop it"
        except OSError as e:
            note = f"rescan failed: {e}"
        print(f"  (removed the probe album {fixture}; {note})")


# --- (b) passwords ---------------------------------------------------------------------------------------

BAD_PASSWORDS = [
    ("8 spaces", " " * 8),
    ("8 tabs", "\t" * 8),
    ("8 newlines", "\n" * 8),
    ("8 no-break spaces", "\u00a0" * 8),
    ("8 zero-width spaces", "\u200b" * 8),
    ("8 NULs", "\u0000" * 8),
    ("RLO + 7 letters", "\u202eabcdefg"),
    ("8 right-to-left overrides", "\u202e" * 8),
    ("12345678", "12345678"),
    ("password", "password"),
    ("password1", "password1"),
    ("iloveyou", "iloveyou"),
    ("aaaaaaaa", "aaaaaaaa"),
]


def part_passwords(server, report, args, state):
    token = secrets.token_hex(4)
    for i, (name, pw) in enumerate(BAD_PASSWORDS):
        body = {"email": f"probe-{token}-{i}@example.com", "nickname": f"probe{token}{i}", "password": pw}
        r = server.call("POST", "/v1/users", body)
        msg = (r.json() or {}).get("message", "")
        if r.status in (200, 201):
            report.add("passwords", f"refuse {name}", "FAIL", f"{r.status}: signed up")
        elif r.status == 400 and "password" in msg.lower():
            report.add("passwords", f"refuse {name}", "PASS", f"400: {msg}")
        else:
            report.add("passwords", f"refuse {name}", "FAIL", f"{r.status}: {msg}")
    good = "a long passphrase of 5 words"
    r = server.call("POST", "/v1/users", {"email": f"probe-{token}@example.com", "nickname": f"probe{token}",
                                          "password": good})
    msg = (r.json() or {}).get("message", "")
    if r.status in (200, 201):
        report.add("passwords", "accept a passphrase", "PASS", f"{r.status}: signed up")
        # On a fresh server the first account is an administrator: keep its session to rescan at the end.
        s = server.call("POST", "/v1/sessions", {"email": f"probe-{token}@example.com", "password": good})
        state["session"] = ((s.json() or {}).get("data") or {}).get("session")
    elif "code" in msg:
        report.add("passwords", "accept a passphrase", "SKIP", "sign-up needs a code: serve with --signup-codes off")
    else:
        report.add("passwords", "accept a passphrase", "FAIL", f"{r.status}: {msg}")


# --- (c) query parameters --------------------------------------------------------------------------------


def part_params(server, report, args, state):
    cases = [(n, "p=1") for n in (296, 297, 320, 3000)] + [(3000, "p{i}=1")]
    for count, form in cases:
        query = "&".join(form.format(i=i) for i in range(count))
        r, seconds = server.timed_get("/v1/songs?" + query, timeout=15)
        label = f"{count} params ({len(query)} bytes)"
        if not isinstance(r, Response):
            report.add("params", label, "FAIL", f"no answer after {seconds:.2f} s ({r})")
            continue
        detail = f"{r.status} in {seconds:.3f} s" + (", envelope" if r.envelope() else "")
        if r.status >= 400 and not r.envelope():
            detail += ", libmicrohttpd's own body (the request head is larger than its memory pool)"
        ok = seconds < 1.0 and (r.status == 200 or r.status in (414, 431))
        report.add("params", label, "PASS" if ok else "FAIL", detail)
    r, seconds = server.timed_get("/v1/songs?q=" + "x" * 8000)
    ok = isinstance(r, Response) and r.status == 200 and seconds < 1.0
    report.add("params", "one 8,000-character parameter", "PASS" if ok else "FAIL",
               f"{getattr(r, 'status', r)} in {seconds:.3f} s")


# --- (d) stalled stream readers --------------------------------------------------------------------------


def pick_long_song(server, state):
    if state.get("long_song"):
        return state["long_song"]
    best, page = None, 1
    while page < 50:
        data = (server.call("GET", f"/v1/songs?size=100&page={page}").json() or {}).get("data") or {}
        for s in data.get("data") or []:
            if best is None or (s.get("duration") or 0) > (best.get("duration") or 0):
                best = s
        if not data.get("next"):
            break
        page = data["next"]
    return best


def part_stalls(server, report, args, state):
    song = pick_long_song(server, state)
    if not song:
        report.add("stalls", "stalled readers", "SKIP", "the catalog has no song")
        return
    target = f"/v1/songs/{song['id']}/stream?format=mp3&maxBitRate=320"
    source = args.stall_from if server.host in ("127.0.0.1", "localhost") else None
    stalled, statuses = [], []
    for _ in range(4):
        try:
            c = server.conn(timeout=10, source=source, rcvbuf=4096)
            c.send(request_bytes("GET", target, server.host))
            status, _ = c.read_head()
            statuses.append(status)
            stalled.append(c)  # and never read again
        except OSError as e:
            statuses.append(f"error {e}")
    report.add("stalls", "4 readers that stop reading", "PASS",
               f"song {song['id']} ({(song.get('duration') or 0) // 1000} s) from {source or 'this host'}: "
               f"{statuses}")
    start = time.monotonic()
    tries, got, last = 0, None, None
    while time.monotonic() - start < args.stall_wait:
        tries += 1
        c = server.conn(timeout=10)
        try:
            c.send(request_bytes("GET", target, server.host))
            status, headers = c.read_head()
            last = status
            if status == 200:
                c.sock.settimeout(10)
                first = c.sock.recv(4096)
                got = time.monotonic() - start if first else None
                break
        except OSError as e:
            last = f"error {e}"
        finally:
            c.close()
        time.sleep(0.5)
    for c in stalled:
        c.close()
    if got is not None and got <= args.stall_pass:
        report.add("stalls", "a fifth client gets its transcode", "PASS", f"after {got:.1f} s ({tries} tries)")
    elif got is not None:
        report.add("stalls", "a fifth client gets its transcode", "FAIL",
                   f"only after {got:.1f} s ({tries} tries; more than {args.stall_pass} s)")
    else:
        report.add("stalls", "a fifth client gets its transcode", "FAIL",
                   f"not within {args.stall_wait} s ({tries} tries, last answer {last})")


# --- (e) a chunked 4 MB body -----------------------------------------------------------------------------


def part_chunked(server, report, args, state):
    c = server.conn(timeout=20)
    start = time.monotonic()
    try:
        c.send(request_bytes("POST", "/v1/sessions", server.host,
                             [("Transfer-Encoding", "chunked"), ("Content-Type", "application/json")],
                             body=b"", keep_alive=True))
        piece = b"a" * (64 << 10)
        for _ in range(64):  # 4 MiB
            c.send(b"%x\r\n" % len(piece) + piece + b"\r\n")
        c.send(b"0\r\n\r\n")
        r = c.read_response()
        seconds = time.monotonic() - start
        ok = r.status == 413 and r.envelope()
        report.add("chunked", "4 MiB chunked body", "PASS" if ok else "FAIL",
                   f"{r.status} in {seconds:.2f} s: {r.body[:100].decode('utf-8', 'replace')}")
        try:
            c.send(request_bytes("GET", "/health", server.host, keep_alive=True))
            after = c.read_response()
            report.add("chunked", "same connection afterwards", "PASS" if after.status == 200 else "FAIL",
                       f"GET /health -> {after.status}")
        except (ConnectionError, OSError) as e:
            report.add("chunked", "same connection afterwards", "PASS", f"closed by the server ({e})")
    except (ConnectionError, OSError) as e:
        report.add("chunked", "4 MiB chunked body", "FAIL",
                   f"no answer: {e} after {time.monotonic() - start:.2f} s")
    finally:
        c.close()


# --- headers and the idle timeout ------------------------------------------------------------------------


def part_headers(server, report, args, state):
    for target in ["/v1/songs?size=1", "/v1/nothing-here", "/health"]:
        r = server.call("GET", target)
        missing = []
        if (r.header("X-Content-Type-Options") or "").lower() != "nosniff":
            missing.append("X-Content-Type-Options: nosniff")
        if not r.header("Referrer-Policy"):
            missing.append("Referrer-Policy")
        if (r.header("Content-Type") or "").startswith("application/json") and not r.header(
            "Content-Security-Policy"
        ):
            missing.append("Content-Security-Policy")
        report.add("headers", f"GET {target}", "FAIL" if missing else "PASS",
                   f"{r.status}; missing {', '.join(missing)}" if missing else
                   f"{r.status}; Referrer-Policy: {r.header('Referrer-Policy')}; "
                   f"CSP: {r.header('Content-Security-Policy')}")


def part_idle(server, report, args, state):
    c = server.conn(timeout=10)
    c.send(request_bytes("GET", "/health", server.host, keep_alive=True))
    c.read_response()
    closed = c.wait_closed(args.idle_expect + 15)
    c.close()
    if closed is None:
        report.add("idle", "idle keep-alive connection", "FAIL", f"still open after {args.idle_expect + 15} s")
    else:
        ok = closed >= args.idle_expect - 2
        report.add("idle", "idle keep-alive connection", "PASS" if ok else "FAIL",
                   f"closed after {closed:.1f} s (expected about {args.idle_expect} s)")


PARTS = {
    "symlinks": part_symlinks,
    "passwords": part_passwords,
    "params": part_params,
    "stalls": part_stalls,
    "chunked": part_chunked,
    "headers": part_headers,
    "idle": part_idle,
}


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--base", required=True, help="the server, e.g. http://127.0.0.1:8080")
    p.add_argument("--music", help="one of the server's music folders: the probe adds an album there (and removes it)")
    p.add_argument("--admin", help="ACCOUNT:PASSWORD of an administrator, to start scans (a fresh server "
                   "lets loopback scan before any administrator exists)")
    p.add_argument("--only", default="symlinks,params,chunked,headers,stalls,passwords",
                   help="comma-separated parts (default: all but idle); also: idle")
    p.add_argument("--stall-from", default="127.0.0.2", help="source address of the stalled readers")
    p.add_argument("--stall-wait", type=float, default=60, help="how long the fifth client keeps asking (s)")
    p.add_argument("--stall-pass", type=float, default=20, help="a transcode after at most this long passes (s)")
    p.add_argument("--idle-expect", type=float, default=30, help="the idle timeout the README promises (s)")
    args = p.parse_args()
    parts = [x.strip() for x in args.only.split(",") if x.strip()]
    for x in parts:
        if x not in PARTS:
            p.error(f"unknown part {x!r}; choose from {', '.join(PARTS)}")
    server = Server(args.base)
    try:
        server.call("GET", "/health", timeout=5)
    except OSError as e:
        print(f"probe.py: {args.base} does not answer: {e}", file=sys.stderr)
        return 1
    if args.admin:
        account, _, password = args.admin.partition(":")
        key = "email" if "@" in account else "phone"
        r = server.call("POST", "/v1/sessions", {key: account, "password": password})
        token = ((r.json() or {}).get("data") or {}).get("session")
        if not token:
            print(f"probe.py: --admin sign-in failed: {r.status} {r.body[:200]!r}", file=sys.stderr)
            return 2
        server.token = token
    report, state = Report(), {}
    print(f"Probing {args.base} ({', '.join(parts)})")
    try:
        for name in parts:
            try:
                PARTS[name](server, report, args, state)
            except Exception as e:  # one broken part must not hide the others
                report.add(name, "probe itself", "FAIL", f"{type(e).__name__}: {e}")
    finally:
        cleanup_fixture(server, report, state)
    return 1 if report.table() else 0


if __name__ == "__main__":
    sys.exit(main())
