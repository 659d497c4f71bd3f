"""A real Subsonic client library (py-opensonic, from PyPI) against the real server on the demo library.

The server is `cloudmusic-server serve --port 0` on a temporary data folder; its first person makes an app
password through the v1 API, which the library then signs in with (as a token, as enc: and as an API key).
Run by scripts/test after `swift test`: `pytest Tests/SubsonicClientTests` with the venv of install-deps.
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
import urllib.request

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def server_binary():
    """The newest built cloudmusic-server (debug or release), or $CLOUDMUSIC_SERVER."""
    if os.environ.get("CLOUDMUSIC_SERVER"):
        return os.environ["CLOUDMUSIC_SERVER"]
    built = [ROOT / ".build" / kind / "cloudmusic-server" for kind in ("debug", "release")]
    built = [path for path in built if path.exists()]
    if not built:
        raise RuntimeError("Build the server first: swift build --product cloudmusic-server")
    return str(max(built, key=lambda path: path.stat().st_mtime))


def demo_library():
    folder = pathlib.Path(tempfile.gettempdir()) / "cloudmusic-subsonic-demo"
    if not (folder / ".complete").exists():
        subprocess.run([server_binary(), "demo", str(folder)], check=True, stdout=subprocess.DEVNULL)
    return str(folder)


def v1(method, url, body=None, token=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", token)
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read() or b"{}").get("data")


class Server:
    def __init__(self, *extra):
        self.data = tempfile.mkdtemp(prefix="cloudmusic-subsonic-")
        self.process = subprocess.Popen(
            [server_binary(), "serve", "--port", "0", "--data", self.data, "--music", demo_library(),
             "--log-level", "warning", "--signup-codes", "off", *extra],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        found = re.search(r"127\.0\.0\.1:(\d+)/", self.process.stdout.readline())
        if not found:
            self.process.kill()
            raise RuntimeError("the server did not print its address")
        self.port = int(found.group(1))
        self.url = f"http://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            status = v1("GET", self.url + "/v1/library/scan")
            if not status["running"] and status.get("lastReport"):
                break
            time.sleep(0.1)
        else:
            raise RuntimeError("the demo library's scan did not finish")
        v1("POST", self.url + "/v1/users",
           {"email": "ann@example.com", "password": "correct horse 42", "nickname": "Ann"})
        login = v1("POST", self.url + "/v1/sessions", {"email": "ann@example.com", "password": "correct horse 42"})
        made = v1("POST", f"{self.url}/v1/users/{login['userId']}/app_passwords", {"name": "pytest"},
                  token=login["session"])
        self.username = made["username"]
        self.app_password = made["password"]

    def close(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.data, ignore_errors=True)


@pytest.fixture(scope="session")
def server():
    running = Server()
    yield running
    running.close()
