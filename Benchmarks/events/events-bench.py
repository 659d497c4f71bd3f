#!/usr/bin/env python3
"""Event-stream benchmark (issue 19): 10,000 open `GET /v1/events` streams held by one client, the server's
memory with them open, and the delay from sending a message to its arrival on the recipient's stream while
messages flow between random pairs at several rates.

Steps (see README.md):
  1. start the server on an empty data folder (`--signup-codes off`, an empty music folder);
  2. sign up a few people and sign them in through the API, timing it (argon2id), and check that a token's
     stored hash is BLAKE2b-256 of the token;
  3. stop it and write the other people, one session each, straight into SQLite (same password hash, random
     session and chat tokens stored as their BLAKE2b-256 digests, as the server stores them);
  4. start it again, read its idle memory, open one stream per session (10,000 by default) from many loopback
     source addresses (the server allows 256 connections per address), and read its memory again;
  5. send messages at each rate between random pairs (senders taken round-robin over everyone, so each sends
     once per 10,000 messages, far below 30 a minute), matching each POST's message id to the `message`
     event on the recipient's stream; arrival and answer times are the kernel's receive timestamps
     (SO_TIMESTAMPNS), so this client's own delays don't count; CPU and run-queue waits of the server, of
     this client and of the machine are read around each rate.

Results go to stdout and to --out (JSON). Python 3 standard library; uvloop is used when installed.
"""
import argparse, asyncio, collections, gc, hashlib, http.client, json, os, random, secrets, signal, socket
import sqlite3, subprocess, sys, tempfile, threading, time

try:
    import uvloop
except ImportError:  # the standard loop works, with more client CPU
    uvloop = None

CLK_TCK = os.sysconf("SC_CLK_TCK")
PASSWORD = "Events-bench-" + secrets.token_hex(8)


# ---------------------------------------------------------------- the server process

class Server:
    def __init__(self, binary, data, music, log, extra=(), env=None):
        self.binary, self.data, self.music, self.log, self.extra = binary, data, music, log, list(extra)
        self.env = env
        self.proc = None
        self.port = None

    def start(self):
        self.proc = subprocess.Popen(
            [self.binary, "serve", "--port", "0", "--data", self.data, "--music", self.music,
             "--log-level", "warning", "--signup-codes", "off"] + self.extra,
            stdout=subprocess.PIPE, stderr=open(self.log, "a"), text=True, env=self.env)
        line = self.proc.stdout.readline()
        if "127.0.0.1:" not in line:
            raise SystemExit(f"server did not start: {line!r}; see {self.log}")
        self.port = int(line.split("127.0.0.1:")[1].split("/")[0])
        # Keep reading its stdout so that it never blocks on a full pipe.
        threading.Thread(target=lambda: [None for _ in self.proc.stdout], daemon=True).start()
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                api("GET", "/v1/server", port=self.port)
                return
            except (OSError, http.client.HTTPException):
                time.sleep(0.1)
        raise SystemExit("server did not answer /v1/server")

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def status(self):
        """VmRSS, VmHWM (KiB) and threads from /proc/<pid>/status."""
        out = {}
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key in ("VmRSS", "VmHWM", "RssAnon", "RssFile", "Threads"):
                    out[key] = int(value.split()[0])
        return out

    def schedstat(self):
        """(seconds on a CPU, seconds runnable but waiting for one) summed over the live threads."""
        return schedstat(self.proc.pid)

    def cpu(self):
        """user + system CPU seconds so far."""
        with open(f"/proc/{self.proc.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLK_TCK


def smaps(server):
    """Resident KiB by kind of mapping: the main heap, anonymous maps (thread arenas, stacks), files."""
    out = collections.Counter()
    name = None
    with open(f"/proc/{server.proc.pid}/smaps") as f:
        for line in f:
            first = line.split()
            if "-" in first[0] and len(first) >= 5 and not line.startswith(("Rss", "Pss")) and first[0][0] in "0123456789abcdef":
                path = first[5] if len(first) > 5 else ""
                name = "heap" if path == "[heap]" else "stack" if path.startswith("[stack") else \
                    "anonymous" if path == "" else "other" if path.startswith("[") else "files"
            elif line.startswith("Rss:"):
                out[name] += int(first[1])
    return dict(out)


def machine_cpu():
    """(busy, total) jiffies of the whole machine, from /proc/stat."""
    with open("/proc/stat") as f:
        parts = [int(x) for x in f.readline().split()[1:]]
    idle = parts[3] + parts[4]
    return sum(parts) - idle, sum(parts)


def schedstat(pid="self"):
    """(seconds on a CPU, seconds runnable but waiting for one) of a process, summed over its live threads."""
    run = wait = 0
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                r, w, _ = f.read().split()
            run, wait = run + int(r), wait + int(w)
        except (OSError, ValueError):
            pass
    return run / 1e9, wait / 1e9


def client_cpu():
    t = os.times()
    return t.user + t.system


def api(method, path, port, token=None, body=None, source="127.0.0.1", expect=None):
    """One blocking request; returns (status, data)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60, source_address=(source, 0))
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if token:
        headers["Authorization"] = token
    conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
    response = conn.getresponse()
    raw = response.read()
    conn.close()
    if expect is not None and response.status != expect:
        raise SystemExit(f"{method} {path}: {response.status} {raw[:300]!r}")
    try:
        return response.status, json.loads(raw).get("data")
    except ValueError:
        return response.status, None


def pct(values, p):
    if not values:
        return None
    values = sorted(values)
    k = min(len(values) - 1, max(0, int(round(p / 100 * len(values))) - 1))
    return values[k]


def ms(value):
    return None if value is None else round(value * 1000, 2)


# ---------------------------------------------------------------- preparing people and sessions

def b2(token):
    return hashlib.blake2b(token.encode(), digest_size=32).hexdigest()


def prepare(args, server):
    """Signs up and signs in `--api-people` through the API, then writes the rest straight into SQLite."""
    report = {}
    people = []  # (userId, session, chatToken)
    t0 = time.time()
    signups = []
    for i in range(args.api_people):
        t = time.perf_counter()
        status, data = api("POST", "/v1/users", server.port, body={
            "email": f"api{i}@events-bench.local", "nickname": f"api{i}", "password": PASSWORD})
        if status not in (200, 201):
            raise SystemExit(f"sign-up {i}: {status} {data}")
        signups.append(time.perf_counter() - t)
    signins, lock = [], threading.Lock()
    results = {}

    def sign_in(i, round_):
        t = time.perf_counter()
        status, data = api("POST", "/v1/sessions", server.port, body={
            "email": f"api{i}@events-bench.local", "password": PASSWORD, "device": f"bench-{round_}"})
        if status != 201:
            raise SystemExit(f"sign-in {i}: {status} {data}")
        with lock:
            signins.append(time.perf_counter() - t)
            if round_ == 0:
                results[i] = (int(data["userId"]), data["session"], data["chatToken"])

    t = time.perf_counter()
    threads = [threading.Thread(target=sign_in, args=(i, r)) for r in range(2) for i in range(args.api_people)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    wall = time.perf_counter() - t
    people = [results[i] for i in range(args.api_people)]
    report["api_signups"] = args.api_people
    report["signup_ms_p50"] = ms(pct(signups, 50))
    report["signin_concurrent"] = len(signins)
    report["signin_ms_p50"] = ms(pct(signins, 50))
    report["signins_per_second"] = round(len(signins) / wall, 2)
    report["minutes_to_sign_in_10k_estimate"] = round(10_000 / (len(signins) / wall) / 60, 1)
    server.stop()

    db = sqlite3.connect(os.path.join(server.data, "cloudmusic.sqlite"))
    stored = {row[0] for row in db.execute("SELECT chat_token_hash FROM sessions")}
    if b2(people[0][2]) not in stored:
        raise SystemExit("a chat token's stored hash is not BLAKE2b-256 of the token: cannot seed sessions")
    password_hash = db.execute("SELECT password_hash FROM users WHERE id = ?", (people[0][0],)).fetchone()[0]
    now = int(time.time())
    t = time.perf_counter()
    with db:
        for i in range(args.streams - len(people)):
            uid = db.execute(
                "INSERT INTO users(email, nickname, nickname_key, password_hash, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (f"p{i}@events-bench.local", f"p{i}", f"p{i}", password_hash, now, now)).lastrowid
            session, chat = secrets.token_hex(32), secrets.token_hex(32)
            db.execute(
                "INSERT INTO sessions(token_hash, chat_token_hash, user_id, device, user_agent, address, "
                "created_at, last_seen_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (b2(session), b2(chat), uid, "events-bench", "events-bench", "127.0.0.1", now, now,
                 now + 30 * 86400))
            people.append((uid, session, chat))
    db.close()
    report["seeded_people"] = args.streams - args.api_people
    report["seed_seconds"] = round(time.perf_counter() - t, 2)
    report["prepare_seconds"] = round(time.time() - t0, 1)
    return people, report


# ---------------------------------------------------------------- the client

# Linux: the kernel's receive time of each read, so that this client's own delays (a burst of 10,000
# heartbeats to parse, the machine's other load) do not count as the server's.
SO_TIMESTAMPNS = 35
SCM_TIMESTAMPNS = SO_TIMESTAMPNS
ANC_SIZE = socket.CMSG_SPACE(16)


def received(sock, size=65536):
    """(data, kernel receive time in seconds) of one recvmsg; data is b"" at end of stream."""
    data, anc, _, _ = sock.recvmsg(size, ANC_SIZE)
    for level, kind, value in anc:
        if level == socket.SOL_SOCKET and kind == SCM_TIMESTAMPNS:
            sec, nsec = int.from_bytes(value[:8], "little"), int.from_bytes(value[8:16], "little")
            return data, sec + nsec / 1e9
    return data, time.time()


def new_socket(source):
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setblocking(False)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
    sock.bind((source, 0))
    return sock


class Bench:
    def __init__(self, args, port, people):
        self.args, self.port, self.people = args, port, people
        self.ready = 0
        self.arrivals = []  # (message id, user id, kernel time)
        self.pings = []  # kernel times
        self.dropped = 0
        self.stream_errors = collections.Counter()
        self.replaced = 0
        self.streams = []
        self.loop_lags = []  # (time, how late a 5 ms sleep woke)


class Stream:
    """One `GET /v1/events`: de-chunks the body and splits it into events, stamped with the kernel's time."""

    def __init__(self, bench, loop, sock, uid):
        self.bench, self.loop, self.sock, self.uid = bench, loop, sock, uid
        self.head = b""
        self.head_done = False
        self.raw = b""
        self.chunk_left = 0
        self.body = b""
        self.opened_at = time.time()
        self.ready_at = None
        self.ready_future = loop.create_future()
        self.closing = False

    def close(self, dropped=False):
        if self.sock is None:
            return
        if dropped and not self.closing:
            self.bench.dropped += 1
        self.loop.remove_reader(self.sock.fileno())
        self.sock.close()
        self.sock = None
        if not self.ready_future.done():
            self.ready_future.set_result(False)

    def readable(self):
        try:
            data, now = received(self.sock)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            self.close(dropped=True)
            return
        if not data:
            self.close(dropped=True)
            return
        if not self.head_done:
            self.head += data
            i = self.head.find(b"\r\n\r\n")
            if i < 0:
                return
            head, data = self.head[:i], self.head[i + 4:]
            self.head = b""
            self.head_done = True
            status = int(head[9:12])
            if status != 200 or b"chunked" not in head.lower():
                self.bench.stream_errors[f"status {status}"] += 1
                self.close()
                return
        raw = self.raw + data
        out = []
        while raw:
            if self.chunk_left == 0:
                j = raw.find(b"\r\n")
                if j < 0:
                    break
                if j == 0:  # the CRLF after a chunk's data
                    raw = raw[2:]
                    continue
                size = int(raw[:j].split(b";")[0], 16)
                raw = raw[j + 2:]
                if size == 0:
                    break
                self.chunk_left = size
            take = raw[:self.chunk_left]
            out.append(take)
            self.chunk_left -= len(take)
            raw = raw[len(take):]
        self.raw = raw
        body = self.body + b"".join(out)
        bench = self.bench
        while True:
            k = body.find(b"\n\n")
            if k < 0:
                break
            block, body = body[:k], body[k + 2:]
            if block.startswith(b":"):
                bench.pings.append(now)
                continue
            event = data = None
            for line in block.split(b"\n"):
                if line.startswith(b"event: "):
                    event = line[7:]
                elif line.startswith(b"data: "):
                    data = line[6:]
            if event == b"message":
                # Both people's streams get it; the join keeps the recipient's.
                bench.arrivals.append((json.loads(data)["message"]["id"], self.uid, now))
            elif event == b"ready":
                self.ready_at = now
                bench.ready += 1
                if not self.ready_future.done():
                    self.ready_future.set_result(True)
            elif event == b"replaced":
                bench.replaced += 1
        self.body = body


class ApiConn:
    """A keep-alive connection for POSTs: one request at a time, Content-Length answers, kernel times."""

    def __init__(self, loop, sock):
        self.loop, self.sock = loop, sock
        self.buf = b""
        self.waiter = None
        self.lost = False
        loop.add_reader(sock.fileno(), self.readable)

    def close(self):
        if not self.lost:
            self.lost = True
            self.loop.remove_reader(self.sock.fileno())
            self.sock.close()
        if self.waiter and not self.waiter.done():
            self.waiter.set_exception(ConnectionError("closed"))

    def readable(self):
        try:
            data, now = received(self.sock)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:
            self.close()
            return
        self.buf += data
        i = self.buf.find(b"\r\n\r\n")
        if i < 0:
            return
        head = self.buf[:i].decode("latin-1")
        length = 0
        for line in head.split("\r\n")[1:]:
            name, _, value = line.partition(":")
            if name.strip().lower() == "content-length":
                length = int(value)
        if len(self.buf) < i + 4 + length:
            return
        body = self.buf[i + 4:i + 4 + length]
        self.buf = self.buf[i + 4 + length:]
        if self.waiter and not self.waiter.done():
            self.waiter.set_result((int(head[9:12]), body, now))

    async def request(self, raw):
        """Sends `raw`; returns (status, body, send time, kernel time of the answer)."""
        self.waiter = self.loop.create_future()
        t0 = time.time()
        self.sock.sendall(raw)  # small: fits the empty socket buffer
        status, body, t1 = await self.waiter
        return status, body, t0, t1


def stream_source(i, per_address):
    n = i // per_address
    return f"127.1.{n // 250}.{n % 250 + 1}"


async def open_streams(bench, loop):
    """Opens one stream per person, `--open-concurrency` at a time (each until its `ready`)."""
    gate = asyncio.Semaphore(bench.args.open_concurrency)
    port = bench.port

    async def one(i, person):
        uid, _, chat = person
        async with gate:
            request = (f"GET /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: {chat}\r\n"
                       "Accept: text/event-stream\r\n\r\n").encode()
            for attempt in range(5):
                sock = new_socket(stream_source(i, bench.args.per_address))
                try:
                    await loop.sock_connect(sock, ("127.0.0.1", port))
                    break
                except OSError as e:
                    sock.close()
                    bench.stream_errors[f"connect: {e.strerror or e}"] += 1
                    await asyncio.sleep(0.2 * (attempt + 1))
            else:
                return
            stream = Stream(bench, loop, sock, uid)
            loop.add_reader(sock.fileno(), stream.readable)
            sock.sendall(request)
            bench.streams.append(stream)
            try:
                await asyncio.wait_for(asyncio.shield(stream.ready_future), 60)
            except asyncio.TimeoutError:
                bench.stream_errors["no ready in 60 s"] += 1

    t = time.time()
    await asyncio.gather(*(one(i, p) for i, p in enumerate(bench.people)))
    return time.time() - t


async def watch_loop(bench):
    """How late this client's event loop wakes from 5 ms sleeps: its own delay, for reading the figures."""
    while True:
        t = time.perf_counter()
        await asyncio.sleep(0.005)
        bench.loop_lags.append((time.time(), time.perf_counter() - t - 0.005))


async def run_rate(bench, loop, rate, seconds, senders, sessions, label, server):
    """Sends `rate` messages a second for `seconds` between random pairs; returns this rate's figures."""
    args = bench.args
    jobs = asyncio.Queue()
    sends = {}
    errors = collections.Counter()
    error_samples = []
    lags = []
    uids = [p[0] for p in bench.people]

    async def worker(w):
        source = f"127.2.0.{w // 100 + 1}"
        conn = None
        while True:
            job = await jobs.get()
            if job is None:
                break
            sender, recipient, scheduled = job
            try:
                if conn is None or conn.lost:
                    sock = new_socket(source)
                    await loop.sock_connect(sock, ("127.0.0.1", bench.port))
                    conn = ApiConn(loop, sock)
                body = json.dumps({"userId": str(recipient), "kind": "text",
                                   "content": f"hello {recipient} from {sender}"}).encode()
                request = (b"POST /v1/messages HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: "
                           + sessions[sender] + b"\r\nContent-Type: application/json\r\nContent-Length: "
                           + str(len(body)).encode() + b"\r\n\r\n" + body)
                status, answer, t0, t1 = await conn.request(request)
                lags.append(t0 - scheduled)
                if 200 <= status < 300:
                    sends[json.loads(answer)["data"]["id"]] = (t0, t1, recipient)
                else:
                    errors[status] += 1
                    if len(error_samples) < 3:
                        error_samples.append(answer[:200].decode(errors="replace"))
            except (OSError, ConnectionError) as e:
                errors[f"connection: {e}"] += 1
                conn = None
        if conn:
            conn.close()

    workers = [asyncio.ensure_future(worker(w)) for w in range(args.senders)]
    arrivals_before = len(bench.arrivals)
    pings_before = len(bench.pings)
    lags_before = len(bench.loop_lags)
    cpu_s0, cpu_c0, (busy0, total0) = server.cpu(), client_cpu(), machine_cpu()
    load0 = open("/proc/loadavg").read().split()[0]
    (_, swait0), (_, cwait0) = server.schedstat(), schedstat()
    profiler = None
    if args.profile and label == f"{args.rates[-1]}/s":
        profiler = subprocess.Popen(["perf", "record", "-F", "499", "-g", "-o", args.profile,
                                     "-p", str(server.proc.pid)], stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL)
    start = time.time()
    total = int(rate * seconds)
    n = 0
    while n < total:
        due = min(total, int((time.time() - start) * rate) + 1)
        while n < due:
            sender = next(senders)
            recipient = sender
            while recipient == sender:
                recipient = random.choice(uids)
            jobs.put_nowait((sender, recipient, start + n / rate))
            n += 1
        await asyncio.sleep(max(0.0, start + n / rate - time.time()))
    for _ in workers:
        jobs.put_nowait(None)
    await asyncio.gather(*workers)
    elapsed = time.time() - start
    cpu_s1, cpu_c1, (busy1, total1) = server.cpu(), client_cpu(), machine_cpu()
    (_, swait1), (_, cwait1) = server.schedstat(), schedstat()
    if profiler:
        profiler.send_signal(signal.SIGINT)
        profiler.wait()
    await asyncio.sleep(args.settle)  # stragglers
    arrived = {}
    for mid, uid, t in bench.arrivals[arrivals_before:]:
        arrived.setdefault((mid, uid), t)
    ping_times = bench.pings[pings_before:]
    # A second with a heartbeat burst (every stream gets `: ping` at once, every 25 s).
    burst = {int(t - start) for t in ping_times}
    rows = []  # (send, answer, arrival)
    missing = 0
    for mid, (t0, t1, recipient) in sends.items():
        t = arrived.get((mid, recipient))
        if t is None:
            missing += 1
        else:
            rows.append((t0, t1, t))
    from_start = [t - t0 for t0, t1, t in rows]
    from_answer = [t - t1 for t0, t1, t in rows]
    quiet = [t - t0 for t0, t1, t in rows if int(t0 - start) not in burst and int(t - start) not in burst]
    answer_times = [t1 - t0 for t0, t1 in ((v[0], v[1]) for v in sends.values())]
    loop_lags = [lag for _, lag in bench.loop_lags[lags_before:]]
    result = {
        "label": label,
        "rate_asked": rate,
        "seconds": round(elapsed, 1),
        "sent_ok": len(sends),
        "rate_achieved": round(len(sends) / elapsed, 1),
        "errors": {str(k): v for k, v in errors.items()},
        "error_samples": error_samples,
        "arrived": len(rows),
        "missing": missing,
        "send_to_arrival_ms": {"p50": ms(pct(from_start, 50)), "p90": ms(pct(from_start, 90)),
                               "p99": ms(pct(from_start, 99)), "max": ms(max(from_start, default=None))},
        "send_to_arrival_outside_heartbeat_seconds_ms": {
            "messages": len(quiet), "p50": ms(pct(quiet, 50)), "p99": ms(pct(quiet, 99))},
        "answer_to_arrival_ms": {"p50": ms(pct(from_answer, 50)), "p99": ms(pct(from_answer, 99)),
                                 "arrived_before_answer": round(
                                     sum(1 for x in from_answer if x < 0) / max(1, len(from_answer)), 3)},
        "post_answer_ms": {"p50": ms(pct(answer_times, 50)), "p99": ms(pct(answer_times, 99))},
        "schedule_lag_ms": {"p50": ms(pct(lags, 50)), "p99": ms(pct(lags, 99))},
        "client_loop_lag_ms": {"p50": ms(pct(loop_lags, 50)), "p99": ms(pct(loop_lags, 99)),
                               "max": ms(max(loop_lags, default=None))},
        "heartbeats_during": len(ping_times),
        "heartbeat_seconds": sorted(burst),
        "cpu_percent_of_one_core": {
            "server": round(100 * (cpu_s1 - cpu_s0) / elapsed, 1),
            "client": round(100 * (cpu_c1 - cpu_c0) / elapsed, 1),
            "machine_busy_of_all_cores": round(100 * (busy1 - busy0) / max(1, total1 - total0), 1),
            "cores": os.cpu_count(),
        },
        "server_cpu_ms_per_message": round(1000 * (cpu_s1 - cpu_s0) / max(1, len(sends)), 3),
        # Time runnable threads spent waiting for a CPU (the run queue), in percent of the phase:
        # over 100 % means more than one thread was waiting on average.
        "run_queue_wait_percent": {"server": round(100 * max(0, swait1 - swait0) / elapsed, 1),
                                   "client": round(100 * max(0, cwait1 - cwait0) / elapsed, 1)},
        "loadavg_1min_before": load0,
    }
    by_second = collections.defaultdict(list)
    for t0, t1, t in rows:
        by_second[int(t0 - start)].append(t - t0)
    result["p99_ms_by_second"] = [ms(pct(by_second[k], 99)) for k in sorted(by_second)]
    return result


async def bench_main(args, server, people, report):
    loop = asyncio.get_running_loop()
    bench = Bench(args, server.port, people)
    sessions = {p[0]: p[1].encode() for p in people}

    print(f"server pid {server.proc.pid} port {server.port}", flush=True)
    # Warm the server a little, then read its idle memory.
    for _ in range(20):
        await loop.run_in_executor(None, lambda: api("GET", "/v1/server", server.port))
    await asyncio.sleep(args.settle)
    report["rss_idle_kib"] = server.status()
    report["smaps_idle"] = smaps(server)
    report["server_cpu_seconds_at_start"] = round(server.cpu(), 2)

    watcher = asyncio.ensure_future(watch_loop(bench))
    cpu_s0, cpu_c0, (busy0, total0) = server.cpu(), client_cpu(), machine_cpu()
    opened = await open_streams(bench, loop)
    cpu_s1, cpu_c1, (busy1, total1) = server.cpu(), client_cpu(), machine_cpu()
    ready_times = [s.ready_at - s.opened_at for s in bench.streams if s.ready_at]
    report["open"] = {
        "streams_asked": len(people),
        "connected": len(bench.streams),
        "ready": bench.ready,
        "seconds": round(opened, 2),
        "per_second": round(bench.ready / opened, 1),
        "connect_to_ready_ms": {"p50": ms(pct(ready_times, 50)), "p99": ms(pct(ready_times, 99))},
        "errors": dict(bench.stream_errors),
        "cpu_seconds": {"server": round(cpu_s1 - cpu_s0, 2), "client": round(cpu_c1 - cpu_c0, 2)},
        "machine_busy_percent": round(100 * (busy1 - busy0) / max(1, total1 - total0), 1),
    }
    print(f"open: {bench.ready}/{len(people)} ready in {opened:.1f} s", flush=True)
    await asyncio.sleep(args.settle)
    # What the open streams cost when nothing happens (no heartbeat falls in 5 s unless by chance).
    cpu0 = server.cpu()
    await asyncio.sleep(5)
    report["server_cpu_percent_streams_open_no_messages"] = round(100 * (server.cpu() - cpu0) / 5, 1)
    report["rss_open_kib"] = server.status()
    report["smaps_open"] = smaps(server)
    if args.hold:
        print(f"holding {args.hold} s with the streams open: server pid {server.proc.pid}", flush=True)
        await asyncio.sleep(args.hold)
    print(f"rss idle {report['rss_idle_kib']['VmRSS']} KiB, with streams {report['rss_open_kib']['VmRSS']} KiB",
          flush=True)

    # The cyclic collector's full passes over 10,000 streams' objects would pause this client for tens of
    # milliseconds, bunching the sends that follow; nothing here needs it.
    gc.collect()
    gc.freeze()
    gc.disable()
    order = [p[0] for p in people]
    random.shuffle(order)

    def cycle():
        while True:
            yield from order
    senders = cycle()
    report["rates"] = []
    for rate, seconds in zip(args.rates, args.seconds):
        result = await run_rate(bench, loop, rate, seconds, senders, sessions, f"{rate}/s", server)
        report["rates"].append(result)
        print(f"{rate:>5}/s: sent {result['sent_ok']} (errors {result['errors']}), arrived {result['arrived']}, "
              f"send->arrival p50 {result['send_to_arrival_ms']['p50']} p99 {result['send_to_arrival_ms']['p99']} ms, "
              f"answer->arrival p50 {result['answer_to_arrival_ms']['p50']} p99 {result['answer_to_arrival_ms']['p99']} ms, "
              f"cpu server {result['cpu_percent_of_one_core']['server']}% client {result['cpu_percent_of_one_core']['client']}%",
              flush=True)
    report["rss_after_messages_kib"] = server.status()
    report["streams_dropped"] = bench.dropped
    report["streams_replaced"] = bench.replaced
    report["heartbeats_received"] = len(bench.pings)
    report["message_events_received"] = len(bench.arrivals)
    # Each heartbeat burst: how long the server took to write `: ping` to every stream (first to last
    # arrival), a fan-out of 10,000 writes.
    bursts = []
    for t in sorted(bench.pings):
        if bursts and t - bursts[-1][-1] < 5:
            bursts[-1].append(t)
        else:
            bursts.append([t])
    report["heartbeat_bursts"] = [{"streams": len(b), "first_to_last_ms": ms(b[-1] - b[0]),
                                   "p50_after_first_ms": ms(pct([t - b[0] for t in b], 50))} for b in bursts]
    watcher.cancel()
    for s in bench.streams:
        s.closing = True
        s.close()
    await asyncio.sleep(args.settle + 2)
    report["rss_after_close_kib"] = server.status()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--server-bin", required=True)
    ap.add_argument("--streams", type=int, default=10_000, help="people, one session and stream each")
    ap.add_argument("--api-people", type=int, default=16, help="of them, signed up and in through the API")
    ap.add_argument("--per-address", type=int, default=200, help="streams per loopback source address")
    ap.add_argument("--open-concurrency", type=int, default=256)
    ap.add_argument("--rates", type=int, nargs="*", default=[100, 500, 1000])
    ap.add_argument("--seconds", type=int, nargs="+", default=[20, 20, 30])
    ap.add_argument("--server-arg", action="append", default=[],
                    help="one more argument for `serve` (repeat), e.g. --server-arg=--threads --server-arg=8")
    ap.add_argument("--mhd-shim", help="mhd-sizes.so, built by run.sh for --mhd-block/--mhd-pool")
    ap.add_argument("--mhd-block", type=int, help="experiment: block size of stream responses (server: 32768)")
    ap.add_argument("--mhd-pool", type=int, help="experiment: MHD connection memory limit (server: 20480)")
    ap.add_argument("--profile", help="perf record -g the server during the last rate, into this file")
    ap.add_argument("--hold", type=float, default=0, help="seconds to wait with the streams open, before the rates")
    ap.add_argument("--senders", type=int, default=64, help="keep-alive connections sending messages")
    ap.add_argument("--settle", type=float, default=3.0)
    ap.add_argument("--data", help="data folder (default: a new temporary one, removed after)")
    ap.add_argument("--out", default=None, help="JSON results file")
    args = ap.parse_args()
    if len(args.seconds) == 1 or not args.rates:
        args.seconds = args.seconds[:1] * len(args.rates)
    if len(args.seconds) != len(args.rates):
        ap.error("--seconds takes one value, or one per rate")
    if args.api_people > 19:
        ap.error("--api-people: at most 19 (sign-up allows 20 per address before back-off)")

    tmp = tempfile.TemporaryDirectory(prefix="events-bench-")
    data = args.data or os.path.join(tmp.name, "data")
    music = os.path.join(tmp.name, "music")
    os.makedirs(data, exist_ok=True)
    os.makedirs(music, exist_ok=True)
    log = os.path.join(tmp.name, "server.log")
    report = {"date": time.strftime("%Y-%m-%d %H:%M:%S"), "streams": args.streams, "server_args": args.server_arg,
              "loop": "uvloop" if uvloop else "asyncio", "loadavg_before": open("/proc/loadavg").read().split()[:3]}
    env = None
    if args.mhd_shim:
        # The experiment of mhd-sizes.c: only the server gets it.
        env = dict(os.environ, LD_PRELOAD=args.mhd_shim)
        if args.mhd_block:
            env["EVENTS_BENCH_BLOCK_SIZE"] = str(args.mhd_block)
        if args.mhd_pool:
            env["EVENTS_BENCH_POOL_SIZE"] = str(args.mhd_pool)
        report["mhd_experiment"] = {"block_size": args.mhd_block, "pool_size": args.mhd_pool}
    server = Server(args.server_bin, data, music, log, args.server_arg, env)
    try:
        server.start()
        people, prep = prepare(args, server)
        report["prepare"] = prep
        print(f"prepared {len(people)} people: {json.dumps(prep)}", flush=True)
        server.start()
        if uvloop:
            uvloop.install()
        asyncio.run(bench_main(args, server, people, report))
        report["loadavg_after"] = open("/proc/loadavg").read().split()[:3]
    finally:
        server.stop()
        with open(log) as f:
            lines = f.read().splitlines()
        report["server_log_tail"] = lines[-10:]
    idle, opened = report["rss_idle_kib"]["VmRSS"], report["rss_open_kib"]["VmRSS"]
    report["rss_delta_mib"] = round((opened - idle) / 1024, 1)
    report["rss_per_stream_kib"] = round((opened - idle) / max(1, report["open"]["ready"]), 2)
    text = json.dumps(report, indent=2)
    print(text)
    if args.out:
        os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
        with open(args.out, "w") as f:
            f.write(text + "\n")
    tmp.cleanup()


if __name__ == "__main__":
    main()
