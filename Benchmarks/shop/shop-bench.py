#!/usr/bin/env python3
"""The shop: order creation under 32 concurrent buyers, and the administrators' orders list at 100k orders.

Starts the server, signs up an administrator and <buyers> people, adds a product with a SKU of large stock,
then:
  1. <buyers> threads, each on its own keep-alive connection, each ordering one item as fast as it can for
     <seconds>: orders/s and p50/p99 per order;
  2. stops the server, writes <orders> orders (with a line each) straight into SQLite, starts it again and asks
     for the orders list sequentially: the first page and pages reached by cursor; p50/p99/max.

Python 3 stdlib only. Results go to stdout as JSON (last line).
"""
import argparse, http.client, json, os, random, sqlite3, statistics, sys, threading, time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "social"))
from benchserver import start, stop  # noqa: E402


def call(conn, method, path, body=None, token=None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = token
    t = time.perf_counter()
    conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
    response = conn.getresponse()
    data = response.read()
    return (time.perf_counter() - t) * 1000, response.status, json.loads(data) if data else {}


def summary(times):
    times = sorted(times)
    if not times:
        return {"n": 0}
    return {"n": len(times), "p50_ms": round(statistics.median(times), 3),
            "p99_ms": round(times[max(0, int(len(times) * 0.99) - 1)], 3), "max_ms": round(times[-1], 3)}


def account(conn, index):
    email = f"buyer{index}@example.com"
    _, status, answer = call(conn, "POST", "/v1/users", {"email": email, "nickname": f"Buyer {index}",
                                                         "password": "correct horse battery"})
    if status != 201:
        raise SystemExit(f"sign-up: {status} {answer}")
    _, status, answer = call(conn, "POST", "/v1/sessions", {"email": email, "password": "correct horse battery"})
    return answer["data"]["session"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server-bin", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--buyers", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--orders", type=int, default=100_000)
    parser.add_argument("--requests", type=int, default=2000)
    args = parser.parse_args()
    data, music, log = (os.path.join(args.work, n) for n in ("data", "music", "server.log"))
    os.makedirs(music, exist_ok=True)
    proc, port = start(args.server_bin, data, music, log, "--signups-per-address", "100000")
    conn = http.client.HTTPConnection("127.0.0.1", port)
    admin = account(conn, 0)
    _, status, product = call(conn, "POST", "/v1/admin/shop/products", {
        "title": "Bench", "onSale": True, "skus": [{"priceCents": 100, "stock": 1_000_000}]}, admin)
    if status != 201:
        raise SystemExit(f"product: {status} {product}")
    sku = product["data"]["skus"][0]["id"]
    tokens = [account(conn, i + 1) for i in range(args.buyers)]

    times, failures, lock = [], [0], threading.Lock()
    go, end = threading.Event(), [0.0]

    def buyer(token):
        c = http.client.HTTPConnection("127.0.0.1", port)
        go.wait()
        mine = []
        while time.perf_counter() < end[0]:
            elapsed, status, _ = call(c, "POST", "/v1/orders", {"skuId": sku, "quantity": 1}, token)
            if status == 201:
                mine.append(elapsed)
            else:
                with lock:
                    failures[0] += 1
        with lock:
            times.extend(mine)

    threads = [threading.Thread(target=buyer, args=(t,)) for t in tokens]
    for t in threads:
        t.start()
    began = time.perf_counter()
    end[0] = began + args.seconds
    go.set()
    for t in threads:
        t.join()
    took = time.perf_counter() - began
    creation = summary(times) | {"orders_per_s": round(len(times) / took, 1), "failures": failures[0],
                                 "buyers": args.buyers}
    stop(proc)

    db = sqlite3.connect(os.path.join(data, "cloudmusic.sqlite"))
    cur = db.cursor()
    cur.execute("PRAGMA synchronous=OFF")
    cur.execute("BEGIN")
    now = int(time.time())
    user_ids = [r[0] for r in cur.execute("SELECT id FROM users")]
    states = ["paid", "paid", "completed", "expired", "created", "cancelled", "refunded", "shipped"]
    start_id = cur.execute("SELECT coalesce(max(id), 0) FROM shop_orders").fetchone()[0] + 1
    cur.executemany(
        "INSERT INTO shop_orders(id, user_id, number, state, total_cents, currency, expires_at, created_at, "
        "updated_at) VALUES (?, ?, ?, ?, 100, 'CNY', ?, ?, ?)",
        [(start_id + i, random.choice(user_ids), f"B{start_id + i:020d}", states[i % len(states)], now + 3600,
          now, now) for i in range(args.orders)])
    cur.executemany(
        "INSERT INTO shop_order_lines(order_id, sku_id, title, options, price_cents, quantity) "
        "VALUES (?, ?, 'Bench', '{}', 100, 1)", [(start_id + i, int(sku)) for i in range(args.orders)])
    db.commit()
    db.close()
    proc, port = start(args.server_bin, data, music, log, "--signups-per-address", "100000")
    conn = http.client.HTTPConnection("127.0.0.1", port)
    first, deep, by_state = [], [], []
    cursor = None
    for i in range(args.requests):
        path = "/v1/admin/shop/orders?size=50" + (f"&cursor={cursor}" if cursor else "")
        elapsed, status, answer = call(conn, "GET", path, token=admin)
        if status != 200:
            raise SystemExit(f"orders list: {status} {answer}")
        (deep if cursor else first).append(elapsed)
        cursor = answer["data"].get("nextCursor")
        elapsed, status, _ = call(conn, "GET", "/v1/admin/shop/orders?size=50&state=expired", token=admin)
        by_state.append(elapsed)
    stop(proc)
    print(json.dumps({"order_creation": creation, "orders_total": args.orders + len(times),
                      "orders_list_first_page": summary(first), "orders_list_by_cursor": summary(deep),
                      "orders_list_one_state": summary(by_state)}))


if __name__ == "__main__":
    main()
