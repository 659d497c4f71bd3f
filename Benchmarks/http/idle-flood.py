#!/usr/bin/env python3
"""Idle-connection flood: opens COUNT TCP connections to the server from 127.0.0.2 (or from
SOURCES consecutive addresses starting there, round-robin), sends nothing on them and holds them, while requests from 127.0.0.1 to /health must keep being
answered. Reports how many flood connections were accepted, refused or reset, how many
the server closed soon after accepting them (a connection limit) and how many it dropped
later (its idle/header timeout), and the latency of the probes while the flood was held.

    idle-flood.py --port PORT [--count 10000] [--hold 15] [--probes 200]
                  [--host 127.0.0.1] [--source 127.0.0.2] [--sources 1] [--path /health]
                  [--server-pid PID] [--json FILE] [--max-time 180]

Loopback only (127.0.0.0/8): any other --host or --source is refused. Every phase is
bounded in time and the whole run is cut at --max-time seconds.
Exit status: 0 every probe answered 2xx while the flood was held, 1 some did not,
2 the flood itself could not be run.
Python 3 standard library only.
"""
import argparse
import errno
import http.client
import ipaddress
import json
import os
import resource
import select
import signal
import socket
import statistics
import sys
import threading
import time

IP_BIND_ADDRESS_NO_PORT = getattr(socket, "IP_BIND_ADDRESS_NO_PORT", 24)
EARLY_CLOSE_S = 2.0  # closed this soon after connecting: rejected (connection limit), not timed out


def loopback(value):
    try:
        addr = ipaddress.ip_address(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an IP address: {value}")
    if addr.version != 4 or not addr.is_loopback:
        raise argparse.ArgumentTypeError(f"{value} is not a loopback address (127.0.0.0/8 only)")
    return str(addr)


def percentile(values, p):
    """Nearest-rank percentile of a non-empty list."""
    s = sorted(values)
    k = max(0, min(len(s) - 1, int(round(p / 100.0 * len(s) + 0.5)) - 1))
    return s[k]


def raise_nofile(needed):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft >= needed:
        return soft
    target_hard = hard if hard == resource.RLIM_INFINITY or hard >= needed else needed
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (needed, target_hard))
    except (ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def one_probe(host, port, path, timeout):
    """One request on a fresh connection. Returns (latency_s, status or None, error or None)."""
    t0 = time.monotonic()
    conn = http.client.HTTPConnection(host, port, timeout=timeout)
    try:
        conn.request("GET", path, headers={"Connection": "close"})
        resp = conn.getresponse()
        resp.read()
        return time.monotonic() - t0, resp.status, None
    except (OSError, http.client.HTTPException) as e:
        return time.monotonic() - t0, None, type(e).__name__ + (f" {e.errno}" if getattr(e, "errno", None) else "")
    finally:
        conn.close()


class Prober(threading.Thread):
    """Sends `count` probes spaced evenly over `spread_s` seconds; stops sending at `stop_at`."""

    def __init__(self, host, port, path, count, spread_s, timeout, stop_at):
        super().__init__(daemon=True)
        self.args = (host, port, path, timeout)
        self.count, self.spread_s, self.stop_at = count, spread_s, stop_at
        self.results = []  # (latency_s, status, error)

    def run(self):
        start = time.monotonic()
        interval = self.spread_s / max(1, self.count)
        for i in range(self.count):
            due = start + i * interval
            now = time.monotonic()
            if now < due:
                time.sleep(due - now)
            if time.monotonic() >= self.stop_at:
                break
            self.results.append(one_probe(*self.args))


def summarize_probes(results, sent_target):
    ok = [lat for lat, status, _ in results if status is not None and 200 <= status < 300]
    failures = {}
    for _, status, err in results:
        if status is None or not 200 <= status < 300:
            key = err or f"HTTP {status}"
            failures[key] = failures.get(key, 0) + 1
    out = {"planned": sent_target, "sent": len(results), "ok": len(ok), "failures": failures}
    if ok:
        out.update(p50_ms=round(percentile(ok, 50) * 1e3, 3), p99_ms=round(percentile(ok, 99) * 1e3, 3),
                   max_ms=round(max(ok) * 1e3, 3), mean_ms=round(statistics.mean(ok) * 1e3, 3))
    return out


def fmt_probes(p):
    head = f"{p['ok']}/{p['planned']} answered" + ("" if p["sent"] == p["planned"] else f" ({p['sent']} sent)")
    if not p["ok"]:
        return head
    return (f"{head}, p50 {p['p50_ms']:.2f} ms, p99 {p['p99_ms']:.2f} ms, "
            f"max {p['max_ms']:.2f} ms")


def count_server_sockets(pid):
    """Open socket descriptors of the server process, or None if /proc does not tell us."""
    try:
        n = 0
        for fd in os.listdir(f"/proc/{pid}/fd"):
            try:
                if os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:"):
                    n += 1
            except OSError:
                pass
        return n
    except OSError:
        return None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--host", type=loopback, default="127.0.0.1", help="server address (loopback only)")
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--source", type=loopback, default="127.0.0.2", help="(first) source address of the flood")
    ap.add_argument("--sources", type=int, default=1,
                    help="spread the flood over this many consecutive source addresses (default 1); with more "
                         "than COUNT/limit addresses the server's per-address connection limit is not what stops it")
    ap.add_argument("--count", type=int, default=10000, help="idle connections to open (default 10000)")
    ap.add_argument("--hold", type=float, default=15.0, help="seconds to hold them once opened (default 15)")
    ap.add_argument("--probes", type=int, default=200, help="requests to --path while held (default 200)")
    ap.add_argument("--path", default="/health")
    ap.add_argument("--probe-timeout", type=float, default=5.0)
    ap.add_argument("--in-flight", type=int, default=512, help="connects in progress at once (default 512)")
    ap.add_argument("--connect-phase", type=float, default=30.0, help="max seconds to open the flood")
    ap.add_argument("--server-pid", type=int, help="count the server's open sockets during the hold")
    ap.add_argument("--json", help="write the results here")
    ap.add_argument("--max-time", type=float, default=180.0, help="hard limit on the whole run, seconds")
    a = ap.parse_args()
    if not 0 < a.port < 65536 or a.count < 1 or a.count > 60000 or a.hold <= 0 or a.probes < 1:
        ap.error("need 0 < port < 65536, 1 <= count <= 60000, hold > 0, probes >= 1")
    if not 1 <= a.sources <= 250:
        ap.error("--sources must be between 1 and 250")
    first = ipaddress.ip_address(a.source)
    sources = [str(first + i) for i in range(a.sources)]
    for src in sources:
        loopback(src)
        if src == a.host:
            ap.error(f"the flood's sources ({sources[0]}..{sources[-1]}) must not include the probe address {a.host}")

    def too_long(*_):
        print(f"idle-flood: gave up after --max-time {a.max_time:.0f} s", file=sys.stderr, flush=True)
        os._exit(2)

    signal.signal(signal.SIGALRM, too_long)
    signal.setitimer(signal.ITIMER_REAL, a.max_time)

    limit = raise_nofile(a.count + 256)
    if limit < a.count + 64:
        print(f"idle-flood: RLIMIT_NOFILE is {limit}; reducing --count from {a.count} to {limit - 64}",
              file=sys.stderr)
        a.count = limit - 64

    # The server must be there before we start.
    lat, status, err = one_probe(a.host, a.port, a.path, a.probe_timeout)
    if status is None:
        print(f"idle-flood: GET http://{a.host}:{a.port}{a.path} failed before the flood: {err}", file=sys.stderr)
        return 2
    before = [one_probe(a.host, a.port, a.path, a.probe_timeout) for _ in range(20)]
    before_summary = summarize_probes(before, 20)
    server_sockets_before = count_server_sockets(a.server_pid) if a.server_pid else None

    ep = select.epoll()
    socks = {}  # fd -> socket
    state = {}  # fd -> dict(connected_at, closed_at, how, data), open sockets only
    finished = []  # the same records, once the server closed them (fds get reused)
    connect_errors = {}  # errno name -> count
    created = 0
    in_flight = 0
    t_start = time.monotonic()
    connect_deadline = t_start + a.connect_phase

    def close_fd(fd):
        try:
            ep.unregister(fd)
        except OSError:
            pass
        socks.pop(fd).close()

    def connect_failed(fd, code):
        name = errno.errorcode.get(code, str(code))
        connect_errors[name] = connect_errors.get(name, 0) + 1
        close_fd(fd)
        state.pop(fd, None)

    def on_readable(fd, now):
        """A connected flood socket became readable: the server sent data, closed or reset."""
        st = state[fd]
        sock = socks[fd]
        while True:
            try:
                chunk = sock.recv(4096, socket.MSG_DONTWAIT)
            except BlockingIOError:
                return  # still open; data (if any) recorded
            except ConnectionResetError:
                st["how"] = "reset"
                break
            except OSError as e:
                st["how"] = errno.errorcode.get(e.errno, str(e.errno))
                break
            if not chunk:
                st["how"] = "closed"
                break
            if st["data"] is None:
                st["data"] = chunk.split(b"\r\n", 1)[0][:80].decode("latin-1")
        st["closed_at"] = now
        close_fd(fd)
        finished.append(state.pop(fd))

    def pump(timeout):
        now = time.monotonic()
        nonlocal in_flight
        for fd, ev in ep.poll(timeout, maxevents=4096):
            st = state.get(fd)
            if st is None:
                continue
            if st["connected_at"] is None:  # a connect finished
                in_flight -= 1
                code = socks[fd].getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
                if code:
                    connect_failed(fd, code)
                    continue
                st["connected_at"] = now
                ep.modify(fd, select.EPOLLIN | select.EPOLLRDHUP)
            else:
                on_readable(fd, now)

    # Phase 1: open the flood, at most --in-flight connects pending at once.
    while (created < a.count or in_flight > 0) and time.monotonic() < connect_deadline:
        while created < a.count and in_flight < a.in_flight:
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.setblocking(False)
            try:
                s.setsockopt(socket.IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, 1)
            except OSError:
                pass
            try:
                s.bind((sources[created % len(sources)], 0))
            except OSError as e:
                s.close()
                print(f"idle-flood: cannot bind to {sources[created % len(sources)]}: {e}", file=sys.stderr)
                return 2
            created += 1
            fd = s.fileno()
            socks[fd] = s
            state[fd] = {"connected_at": None, "closed_at": None, "how": None, "data": None}
            code = s.connect_ex((a.host, a.port))
            if code in (0, errno.EINPROGRESS):
                ep.register(fd, select.EPOLLOUT)
                in_flight += 1
            else:
                connect_failed(fd, code)
        pump(0.05)
    timed_out = [fd for fd, st in state.items() if st["connected_at"] is None]
    for fd in timed_out:
        connect_errors["connect timed out"] = connect_errors.get("connect timed out", 0) + 1
        close_fd(fd)
        del state[fd]
    connect_s = time.monotonic() - t_start
    connected = len(state) + len(finished)

    # Phase 2: hold, while probes from 127.0.0.1 must keep being answered.
    hold_start = time.monotonic()
    hold_end = hold_start + a.hold
    prober = Prober(a.host, a.port, a.path, a.probes, a.hold, a.probe_timeout,
                    stop_at=hold_end + 10.0)  # never send a probe more than 10 s past the hold
    prober.start()
    server_sockets = None  # the most seen, sampled about once a second
    next_sample = hold_start
    while time.monotonic() < hold_end or prober.is_alive():
        pump(0.1)
        if a.server_pid and time.monotonic() >= next_sample and time.monotonic() < hold_end:
            n = count_server_sockets(a.server_pid)
            if n is not None:
                server_sockets = n if server_sockets is None else max(server_sockets, n)
            next_sample += 1.0
        if time.monotonic() > hold_end + 10.0 + a.probe_timeout + 5.0:
            break
    held_s = time.monotonic() - hold_start

    # Phase 3: which flood connections are still open? (epoll already saw every close;
    # peek at each once more to be sure.)
    now = time.monotonic()
    for fd in list(socks):
        on_readable(fd, now)
    still_open = list(state)
    closed = finished
    early = [st for st in closed if st["closed_at"] - st["connected_at"] < EARLY_CLOSE_S]
    late = [st for st in closed if st["closed_at"] - st["connected_at"] >= EARLY_CLOSE_S]
    late_after = sorted(st["closed_at"] - st["connected_at"] for st in late)
    how = {}
    for st in closed:
        how[st["how"]] = how.get(st["how"], 0) + 1
    answers = {}
    for st in list(state.values()) + finished:
        if st["data"]:
            answers[st["data"]] = answers.get(st["data"], 0) + 1
    for fd in list(socks):
        close_fd(fd)
    ep.close()

    probes = summarize_probes(prober.results, a.probes)
    passed = probes["ok"] == a.probes
    result = {
        "target": f"{a.host}:{a.port}",
        "source": a.source,
        "sources": len(sources),
        "count": a.count,
        "connected": connected,
        "connect_errors": connect_errors,
        "connect_phase_s": round(connect_s, 2),
        "hold_s": round(held_s, 2),
        "closed_early": len(early),
        "closed_early_window_s": EARLY_CLOSE_S,
        "closed_late": len(late),
        "closed_late_after_s": ({"min": round(late_after[0], 2), "median": round(statistics.median(late_after), 2),
                                 "max": round(late_after[-1], 2)} if late_after else None),
        "closed_how": how,
        "server_answers_on_flood": answers,
        "still_open": len(still_open),
        "server_sockets_before": server_sockets_before,
        "server_sockets_max_during_hold": server_sockets,
        "probes_before_flood": before_summary,
        "probes": probes,
        "pass": passed,
    }

    refused = sum(connect_errors.values())
    origin = a.source if len(sources) == 1 else f"{len(sources)} addresses {sources[0]}..{sources[-1]}"
    print(f"idle flood: {a.count} connections from {origin} to {a.host}:{a.port}, "
          f"opened in {connect_s:.1f} s, held {held_s:.1f} s")
    print(f"  TCP connected:                {connected}   (handshake done by the kernel; see the server's sockets)")
    print(f"  refused/reset/timed out:      {refused}" + (f"  {connect_errors}" if connect_errors else ""))
    print(f"  closed by the server < {EARLY_CLOSE_S:.0f} s:   {len(early)}   (rejected: connection limit)")
    if late_after:
        print(f"  closed by the server later:   {len(late)}   after {late_after[0]:.1f} / "
              f"{statistics.median(late_after):.1f} / {late_after[-1]:.1f} s (min/median/max: its idle timeout)")
    else:
        print(f"  closed by the server later:   0")
    if how:
        print(f"  how they were closed:         {how}")
    if answers:
        print(f"  server wrote on flood sockets: {answers}")
    print(f"  still open after the hold:    {len(still_open)}")
    if server_sockets is not None:
        print(f"  server's open sockets:        {server_sockets_before} before, at most {server_sockets} during the hold "
              f"(pid {a.server_pid}): about {server_sockets - (server_sockets_before or 0)} flood connections accepted")
    print(f"  probes before the flood:      {fmt_probes(before_summary)}")
    print(f"  probes while held:            {fmt_probes(probes)}"
          + (f"  failures {probes['failures']}" if probes["failures"] else ""))
    print(f"  verdict: {'PASS' if passed else 'FAIL'} "
          f"({'every probe answered' if passed else 'some probes were not answered while the flood was held'})")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(result, f, indent=2)
            f.write("\n")
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
