#!/usr/bin/env python3
"""Login latency against a running server: sequential and concurrent sign-ins, and failed sign-ins
for known and unknown accounts (which must cost the same). Prints JSON."""
import http.client, json, statistics, sys, threading, time

host, port = sys.argv[1], int(sys.argv[2])
count, concurrency = int(sys.argv[3]), int(sys.argv[4])
account, password = sys.argv[5], sys.argv[6]
known_wrong = sys.argv[7].split(",")  # registered emails to try a wrong password on


def post(connection, body):
    started = time.perf_counter()
    connection.request("POST", "/v1/sessions", json.dumps(body), {"Content-Type": "application/json"})
    response = connection.getresponse()
    response.read()
    return response.status, (time.perf_counter() - started) * 1000


def percentile(values, p):
    values = sorted(values)
    index = min(len(values) - 1, max(0, int(round(p / 100 * len(values) + 0.5)) - 1))
    return values[index]


def summary(values):
    return {"n": len(values), "p50_ms": round(percentile(values, 50), 1), "p99_ms": round(percentile(values, 99), 1),
            "mean_ms": round(statistics.mean(values), 1), "max_ms": round(max(values), 1)}


connection = http.client.HTTPConnection(host, port)
body = {"email": account, "password": password, "device": "bench"}
post(connection, body)  # warm-up (the first sign-in also makes the decoy hash)
sequential = []
for _ in range(count):
    status, ms = post(connection, body)
    assert status == 201, status
    sequential.append(ms)

concurrent = []
lock = threading.Lock()
per_thread = max(1, count // concurrency)


def worker():
    c = http.client.HTTPConnection(host, port)
    for _ in range(per_thread):
        status, ms = post(c, body)
        assert status == 201, status
        with lock:
            concurrent.append(ms)


threads = [threading.Thread(target=worker) for _ in range(concurrency)]
started = time.perf_counter()
for t in threads:
    t.start()
for t in threads:
    t.join()
elapsed = time.perf_counter() - started

# Failed sign-ins: a wrong password on real accounts against unknown accounts (3 each per account, under
# the per-account limit of 5 and the per-address limit of 20 in all).
wrong, unknown = [], []
for index, email in enumerate(known_wrong):
    for attempt in range(3):
        status, ms = post(connection, {"email": email, "password": "not the password"})
        assert status == 401, status
        wrong.append(ms)
        status, ms = post(connection, {"email": f"nobody{index}-{attempt}@example.com", "password": "not the password"})
        assert status == 401, status
        unknown.append(ms)

print(json.dumps({
    "sequential": summary(sequential),
    "concurrent": dict(summary(concurrent), clients=concurrency, logins_per_second=round(len(concurrent) / elapsed, 1)),
    "wrong_password_known_account": summary(wrong),
    "wrong_password_unknown_account": summary(unknown),
}, indent=2))
