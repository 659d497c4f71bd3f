#!/usr/bin/env python3
"""The web player's figures (see run.sh): first-render bytes, open-to-home, tap-to-playing, the play page's
trace. Starts its own server on a temporary data folder and the demo library."""
import argparse
import json
import pathlib
import re
import shutil
import statistics
import subprocess
import tempfile
import time
import urllib.request

from playwright.sync_api import sync_playwright

PHONE = {"width": 390, "height": 844}


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def start_server(binary, web, library, data):
    process = subprocess.Popen(
        [binary, "serve", "--port", "0", "--data", data, "--music", library, "--web", web, "--log-level", "warning",
         "--signup-codes", "off"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    port = int(re.search(r"127\.0\.0\.1:(\d+)/", process.stdout.readline()).group(1))
    url = f"http://127.0.0.1:{port}"
    while True:
        with urllib.request.urlopen(url + "/v1/library/scan") as response:
            status = json.load(response)["data"]
        if not status["running"] and status.get("lastReport"):
            return process, url
        time.sleep(0.1)


def home_rendered(page):
    page.wait_for_function("() => performance.getEntriesByName('cm-home-rendered').length > 0", timeout=30000)
    return page.evaluate("() => performance.getEntriesByName('cm-home-rendered')[0].startTime")


def first_render(browser, url):
    context = browser.new_context(viewport=PHONE, locale="zh-CN")
    page = context.new_page()
    responses = []
    page.on("requestfinished", lambda request: responses.append(request))
    page.goto(url + "/")
    home_rendered(page)
    files = []
    for request in list(responses):
        if request.resource_type not in ("document", "script", "stylesheet"):
            continue
        sizes = request.sizes()
        response = request.response()
        files.append({
            "url": request.url.replace(url, ""),
            "wire": sizes["responseBodySize"] + sizes["responseHeadersSize"],
            "body": sizes["responseBodySize"],
            "encoding": response.headers.get("content-encoding", "identity") if response else "?",
        })
    context.close()
    return files


def open_to_home(browser, url, runs):
    cold, warm = [], []
    for _ in range(runs):
        context = browser.new_context(viewport=PHONE, locale="zh-CN")
        page = context.new_page()
        page.goto(url + "/")
        cold.append(home_rendered(page))
        page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=30000)
        page.goto(url + "/")
        warm.append(home_rendered(page))
        context.close()
    return cold, warm


def tap_to_playing(browser, url, runs):
    context = browser.new_context(viewport=PHONE, locale="zh-CN")
    # A returning person: the first run's guide (a layer over the home) was seen.
    context.add_init_script("localStorage.setItem('cm.guided', 'true');")
    page = context.new_page()
    page.goto(url + "/")
    home_rendered(page)
    page.evaluate("""() => {
        window.__taps = [];
        document.addEventListener('pointerdown', () => { window.__down = performance.now(); }, true);
        for (const audio of document.querySelectorAll('audio')) {
            audio.addEventListener('playing', () => {
                if (window.__down) { window.__taps.push(performance.now() - window.__down); window.__down = 0; }
            });
        }
    }""")
    # The home's song list: "new songs" before issue 25, the server's recommended songs (猜你喜欢) after it.
    rows = page.locator(".new-songs .song-row .song-main, .module-recommendedSongs .song-row .song-main")
    count = rows.count()
    for i in range(runs):
        rows.nth(i % count).click()
        page.wait_for_function("(n) => window.__taps.length > n", arg=i, timeout=30000)
        page.evaluate("() => window.cloudmusic.engine.pause()")
    taps = page.evaluate("() => window.__taps")
    context.close()
    return taps


def play_page_trace(browser, url, seconds, out):
    context = browser.new_context(viewport=PHONE, locale="zh-CN")
    context.add_init_script("localStorage.setItem('cm.guided', 'true');")
    page = context.new_page()
    page.goto(url + "/search?q=" + urllib.request.quote("雨后彩虹"))
    page.locator(".results .song-row .song-main").first.click()
    page.wait_for_function("() => document.querySelector('audio[data-active]')?.currentTime > 0.3")
    page.locator(".mini-open").click()
    page.locator(".disc-stage").click()
    page.locator(".lyric-pane .lyric-line").first.wait_for()
    page.evaluate("() => { window.cloudmusic.engine.setMode('single'); }")
    page.evaluate("""() => {
        window.__frames = 0; window.__long = [];
        const count = () => { window.__frames++; requestAnimationFrame(count); };
        requestAnimationFrame(count);
        try {
            new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__long.push(e.duration); })
                .observe({ type: 'longtask', buffered: false });
        } catch {}
    }""")
    trace = out / "web-play-trace.json"
    browser.start_tracing(page=page, path=str(trace), categories=["devtools.timeline", "disabled-by-default-devtools.timeline"])
    start = time.monotonic()
    frames0 = page.evaluate("() => window.__frames")
    page.wait_for_timeout(seconds * 1000)  # a measuring window, not a wait for a condition
    frames1 = page.evaluate("() => window.__frames")
    elapsed = time.monotonic() - start
    browser.stop_tracing()
    karaoke = page.evaluate("() => document.querySelectorAll('.lyric-pane .w.active').length")
    observed = page.evaluate("() => window.__long")
    context.close()
    events = json.loads(trace.read_text())
    events = events["traceEvents"] if isinstance(events, dict) else events
    main_threads = {(e["pid"], e["tid"]) for e in events
                    if e.get("name") == "thread_name" and e.get("args", {}).get("name") == "CrRendererMain"}
    main = [e for e in events if e.get("ph") == "X" and (e.get("pid"), e.get("tid")) in main_threads and "dur" in e]
    runs = [e for e in main if e.get("name") == "RunTask"]
    tasks = [e["dur"] / 1000 for e in runs]
    # What ran inside each long task: scripts, style, layout and paint. A long task with none of it is the
    # renderer waiting for a core (a loaded machine), not work of the page.
    work_names = {"FunctionCall", "EvaluateScript", "FireAnimationFrame", "TimerFire", "EventDispatch",
                  "UpdateLayoutTree", "Layout", "PrePaint", "Paint", "Layerize", "Commit", "ParseHTML", "v8.run"}
    long_work = []
    for task in (e for e in runs if e["dur"] > 50_000):
        end = task["ts"] + task["dur"]
        inside = [e for e in main if e.get("name") in work_names and task["ts"] <= e["ts"] < end
                  and e["tid"] == task["tid"]]
        top = [e for e in inside if not any(o is not e and o["ts"] <= e["ts"] and e["ts"] + e["dur"] <= o["ts"] + o["dur"] for o in inside)]
        long_work.append(round(sum(e["dur"] for e in top) / 1000, 1))
    return {
        "seconds": round(elapsed, 1),
        "fps": round((frames1 - frames0) / elapsed, 1),
        "tasks": len(tasks),
        "long_tasks_over_50ms": sum(1 for d in tasks if d > 50),
        "longest_task_ms": round(max(tasks, default=0), 1),
        "work_inside_long_tasks_ms": long_work,
        "p99_task_ms": round(percentile(tasks, 99), 2) if tasks else 0,
        "longtask_observer_entries": len(observed),
        "karaoke_word_active": karaoke,
        "trace": str(trace),
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", required=True)
    parser.add_argument("--web", required=True)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--seconds", type=int, default=12)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    out = pathlib.Path(args.out)
    library = out / "demo-library"
    if not (library / ".complete").exists():
        subprocess.run([args.server, "demo", str(library)], check=True, stdout=subprocess.DEVNULL)
    data = tempfile.mkdtemp(prefix="cloudmusic-web-bench-")
    process, url = start_server(args.server, args.web, str(library), data)
    results = []

    def report(figure):
        figure["load_average"] = round(__import__("os").getloadavg()[0], 2)
        print(json.dumps(figure, ensure_ascii=False), flush=True)
        results.append(figure)

    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                        args=["--autoplay-policy=no-user-gesture-required"])
            files = first_render(browser, url)
            report({"figure": "first-render bytes (HTML+CSS+JS on the wire until home rendered)",
                    "bytes": sum(f["wire"] for f in files), "body_bytes": sum(f["body"] for f in files),
                    "files": len(files), "all_gzip": all(f["encoding"] == "gzip" for f in files),
                    "target_bytes": 60 * 1024})
            cold, warm = open_to_home(browser, url, args.runs)
            report({"figure": "open / to home rendered, cold (fresh profile)", "runs": len(cold),
                    "p50_ms": round(statistics.median(cold), 1), "p95_ms": round(percentile(cold, 95), 1), "target_ms": 300})
            report({"figure": "open / to home rendered, warm (service worker and cache)", "runs": len(warm),
                    "p50_ms": round(statistics.median(warm), 1), "p95_ms": round(percentile(warm, 95), 1), "target_ms": 300})
            taps = tap_to_playing(browser, url, args.runs)
            report({"figure": "tap a song to playing", "runs": len(taps), "p50_ms": round(statistics.median(taps), 1),
                    "p95_ms": round(percentile(taps, 95), 1), "target_p50_ms": 300})
            trace = play_page_trace(browser, url, args.seconds, out)
            report({"figure": "play page with karaoke lyrics while playing (Chrome trace)", **trace, "target_long_tasks": 0})
            browser.close()
    finally:
        process.terminate()
        process.wait()
        shutil.rmtree(data, ignore_errors=True)
    (out / "web-results.json").write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in results) + "\n")


if __name__ == "__main__":
    main()
