"""The web player's end-to-end tests: Debian's Chromium driven by Playwright, against the real server.

The server is `cloudmusic-server serve --port 0` on a temporary data folder and the demo library (generated
once per machine into the temporary folder, like the Swift tests' fixture). Tests wait for conditions,
never for fixed times: the machine may be loaded.
"""
import json
import os
import pathlib
import re
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.error
import urllib.request

import pytest
from playwright.sync_api import expect, sync_playwright

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCREENSHOTS = pathlib.Path(__file__).resolve().parent / "screenshots"
CHROMIUM = os.environ.get("CLOUDMUSIC_CHROMIUM", "/usr/bin/chromium")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1440, "height": 900}

# Playwright's 5 s default is a stopwatch on a loaded two-core machine (a terms dialog took longer to fill
# once while a build ran): every wait is a bound for a hung test, not a speed check.
WAIT_MS = 30_000
expect.set_options(timeout=WAIT_MS)


def server_binary():
    """The newest built cloudmusic-server (debug from `swift test`, or release), or $CLOUDMUSIC_SERVER."""
    if os.environ.get("CLOUDMUSIC_SERVER"):
        return os.environ["CLOUDMUSIC_SERVER"]
    built = [ROOT / ".build" / kind / "cloudmusic-server" for kind in ("debug", "release")]
    built = [path for path in built if path.exists()]
    if not built:
        raise RuntimeError("Build the server first: swift build --product cloudmusic-server")
    return str(max(built, key=lambda path: path.stat().st_mtime))


def demo_library():
    """The demo library's folder; its two videos are beside it, in `<folder>-videos`."""
    folder = pathlib.Path(tempfile.gettempdir()) / "cloudmusic-web-demo"
    videos = pathlib.Path(str(folder) + "-videos")
    if not (folder / ".complete").exists() or not videos.is_dir():
        subprocess.run([server_binary(), "demo", str(folder)], check=True, stdout=subprocess.DEVNULL)
    return str(folder)


def http(method, url, body=None, token=None, headers=None):
    """One request; returns (status, headers, body bytes)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers=dict(headers or {}))
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def api(method, url, body=None, token=None):
    status, _, data = http(method, url, body, token)
    envelope = json.loads(data) if data else {}
    assert 200 <= status < 300, f"{method} {url}: {status} {envelope}"
    return envelope.get("data")


class Server:
    """A running cloudmusic-server on a loopback port."""

    def __init__(self, *extra):
        self.data = tempfile.mkdtemp(prefix="cloudmusic-web-")
        self.process = subprocess.Popen(
            [server_binary(), "serve", "--port", "0", "--data", self.data, "--music", demo_library(),
             "--videos", demo_library() + "-videos", "--log-level", "warning", "--web", str(ROOT / "Web"),
             # Every account of a session's tests comes from 127.0.0.1; the per-address limit has its own tests.
             "--signups-per-address", "10000", *extra],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline()
        found = re.search(r"127\.0\.0\.1:(\d+)/", line)
        if not found:
            self.process.kill()
            raise RuntimeError(f"the server did not print its address: {line!r}")
        self.port = int(found.group(1))
        self.url = f"http://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            status = api("GET", self.url + "/v1/library/scan")
            if not status["running"] and status.get("lastReport"):
                break
            time.sleep(0.1)
        else:
            raise RuntimeError("the demo library's scan did not finish")

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def close(self):
        self.stop()
        shutil.rmtree(self.data, ignore_errors=True)

    def account(self, email, nickname, password="correct horse 42"):
        """An account made through the API (sign-up codes are off on this server); returns its session."""
        api("POST", self.url + "/v1/users", {"email": email, "password": password, "nickname": nickname})
        login = api("POST", self.url + "/v1/sessions", {"email": email, "password": password})
        return {"userId": login["userId"], "session": login["session"], "nickname": nickname, "icon": None}


@pytest.fixture(scope="session")
def server():
    running = Server("--signup-codes", "off")
    yield running
    running.close()


@pytest.fixture(scope="session")
def playwright_instance():
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(playwright_instance):
    browser = playwright_instance.chromium.launch(
        executable_path=CHROMIUM, headless=True,
        args=["--autoplay-policy=no-user-gesture-required", "--disable-gpu"])
    yield browser
    browser.close()


def new_page(browser, base, *, viewport=PHONE, theme="light", locale="zh-CN", user=None, reduced_motion="no-preference",
             first_run=False, touch=False):
    """A page in a new context; the first run's guide is marked seen unless `first_run`; `touch` makes it a
    phone's (touch events, `tap()`, a mobile viewport)."""
    context = browser.new_context(viewport=viewport, color_scheme=theme, locale=locale, reduced_motion=reduced_motion,
                                  base_url=base, service_workers="allow", has_touch=touch, is_mobile=touch)
    if not first_run:
        context.add_init_script("localStorage.setItem('cm.guided', 'true');")
    if user:
        context.add_init_script(f"localStorage.setItem('cm.user', {json.dumps(json.dumps(user))});")
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    return page


@pytest.fixture
def page(browser, server):
    page = new_page(browser, server.url)
    yield page
    assert not page.errors, page.errors
    page.context.close()


def playing_time(page):
    """The active audio element's currentTime."""
    return page.evaluate("() => document.querySelector('audio[data-active]').currentTime")


def wait_playing(page, past=0.3, timeout=30000):
    """Waits until the active audio element plays past `past` seconds."""
    page.wait_for_function(
        "(past) => { const a = document.querySelector('audio[data-active]'); return a && !a.paused && a.currentTime > past; }",
        arg=past, timeout=timeout)


def png(width, height, rgb, to=None):
    """A small PNG (no imaging library needed): one colour, or a top-to-bottom gradient `to` another."""
    import struct
    import zlib
    to = to or rgb
    raw = b"".join(b"\x00" + bytes(round(a + (b - a) * y / max(1, height - 1)) for a, b in zip(rgb, to)) * width
                   for y in range(height))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def post_ad(server, token, title, position, picture):
    """Publishes an ad (0 splash, 10 home banner) with a picture, as an administrator."""
    import uuid
    boundary = uuid.uuid4().hex
    parts = []
    for name, value in [("title", title), ("position", str(position)), ("style", "0")]:
        parts.append(f"--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n".encode())
    parts.append(f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"ad.png\"\r\nContent-Type: image/png\r\n\r\n".encode()
                 + picture + b"\r\n")
    parts.append(f"--{boundary}--\r\n".encode())
    request = urllib.request.Request(server.url + "/v1/admin/ads", data=b"".join(parts), method="POST", headers={
        "Content-Type": f"multipart/form-data; boundary={boundary}", "Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.status == 201


@pytest.fixture(scope="session")
def discovery_server():
    """A server whose first account (an administrator) published terms and a splash ad."""
    running = Server("--signup-codes", "off")
    admin = running.account("admin@example.com", "管理员")
    for kind, title in [("privacy", "隐私政策"), ("user", "用户协议")]:
        api("POST", running.url + "/v1/admin/terms", {"kind": kind, "title": title, "text": f"{title}的第一段。\n\n第二段。"},
            token=admin["session"])
    post_ad(running, admin["session"], "新歌首发", 0, png(390, 700, (255, 94, 98), to=(95, 39, 205)))
    yield running
    running.close()




# The screen has settled for a picture: nothing loading, no toast half faded (it has half its contrast then,
# which axe rightly counts), every picture on screen drawn (a lazy one out of sight is fetched
# only when scrolled to).
SETTLED = """() => !document.querySelector('.spinner')
  && [...document.querySelectorAll('.toast')].every((t) => t.getAnimations().length === 0)
  && [...document.images].every((i) => {
  const r = i.getBoundingClientRect();
  return i.complete || (i.loading === 'lazy' && (r.top > innerHeight || r.bottom < 0 || r.left > innerWidth || r.right < 0));
})"""


def axe_check(page, screen):
    """Runs axe-core (shipped by axe-playwright-python) on the page; fails on a serious or critical violation."""
    from axe_playwright_python.sync_playwright import Axe
    results = Axe().run(page)
    bad = [v for v in results.response["violations"] if v.get("impact") in ("serious", "critical")]
    assert not bad, (screen, [(v["id"], v["impact"], [n["target"] for n in v["nodes"][:3]]) for v in bad])
