"""How the server serves the web player: the app at every page address, hashed files cached for a year,
ETag and 304, gzip, a strict Content-Security-Policy, and nothing outside the Web folder."""
import gzip
import json
import re

from conftest import http


def index(server):
    status, headers, body = http("GET", server.url + "/")
    assert status == 200
    return headers, body.decode()


def test_the_app_is_served_at_every_page_address_with_strict_headers(server):
    headers, html = index(server)
    assert headers["Content-Type"].startswith("text/html")
    assert headers["Cache-Control"] == "no-cache"
    csp = headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert "object-src 'none'" in csp and "frame-ancestors 'none'" in csp
    assert headers["Cross-Origin-Opener-Policy"] == "same-origin"
    assert headers["X-Content-Type-Options"] == "nosniff"
    # No inline script: every <script> has a src.
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html)
    for path in ["/sheet/1", "/play", "/mine/downloads", "/search?q=%E9%9B%A8"]:
        status, page_headers, body = http("GET", server.url + path)
        assert status == 200 and body.decode() == html, path


def test_hashed_files_are_immutable_and_revalidated_by_etag(server):
    _, html = index(server)
    main = re.search(r'src="(/assets/([0-9a-f]{12})/js/main\.js)"', html)
    assert main, "index.html points at the hashed main.js"
    status, headers, body = http("GET", server.url + main.group(1))
    assert status == 200
    assert headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert headers["Content-Type"].startswith("text/javascript")
    assert headers["X-Content-Type-Options"] == "nosniff"
    # The policy goes with documents (and the worker), not with every script.
    assert "Content-Security-Policy" not in headers
    etag = headers["ETag"]
    status, _, body = http("GET", server.url + main.group(1), headers={"If-None-Match": etag})
    assert status == 304 and body == b""
    # The same file under its plain name is revalidated each time; an old build's address is not cached.
    status, headers, _ = http("GET", server.url + "/js/main.js")
    assert status == 200 and headers["Cache-Control"] == "no-cache"
    status, headers, _ = http("GET", server.url + "/assets/000000000000/js/main.js")
    assert status == 200 and headers["Cache-Control"] == "no-cache"
    # index.html itself answers 304 to its ETag.
    _, index_headers, _ = http("GET", server.url + "/")
    status, _, _ = http("GET", server.url + "/", headers={"If-None-Match": index_headers["ETag"]})
    assert status == 304


def test_gzip_when_the_client_takes_it(server):
    status, headers, body = http("GET", server.url + "/css/app.css", headers={"Accept-Encoding": "gzip, br"})
    assert status == 200 and headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in headers["Vary"]
    css = gzip.decompress(body).decode()
    status, plain_headers, plain = http("GET", server.url + "/css/app.css", headers={"Accept-Encoding": "identity"})
    assert plain_headers.get("Content-Encoding") is None and plain.decode() == css
    assert len(body) < len(plain) / 3
    # Each encoding has its own ETag, and either revalidates.
    assert headers["ETag"] != plain_headers["ETag"]
    status, _, _ = http("GET", server.url + "/css/app.css", headers={"If-None-Match": plain_headers["ETag"], "Accept-Encoding": "gzip"})
    assert status == 304


def test_the_service_worker_knows_the_build_and_the_shell(server):
    status, headers, body = http("GET", server.url + "/sw.js")
    text = body.decode()
    assert status == 200 and headers["Cache-Control"] == "no-cache"
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    build = re.search(r'self\.CLOUDMUSIC_BUILD = "([0-9a-f]{12})"', text).group(1)
    files = json.loads(re.search(r"self\.CLOUDMUSIC_FILES = (\[.*?\]);", text).group(1))
    assert f"/assets/{build}/js/main.js" in files
    assert all(path.startswith(f"/assets/{build}/") for path in files)
    status, headers, body = http("GET", server.url + "/manifest.webmanifest")
    assert status == 200 and headers["Content-Type"].startswith("application/manifest+json")
    assert json.loads(body)["start_url"] == "/"


def test_the_api_keeps_its_own_answers(server):
    status, headers, body = http("GET", server.url + "/v1/no-such-thing")
    assert status == 404 and json.loads(body)["message"] == "There is nothing at this address."
    status, headers, body = http("GET", server.url + "/v1/sessions/current")
    assert status == 405 and "DELETE" in headers["Allow"]
    status, _, body = http("GET", server.url + "/health")
    assert status == 200 and json.loads(body)["data"]["status"] == "ok"
    status, _, body = http("GET", server.url + "/v1/server")
    assert status == 200 and json.loads(body)["data"]["name"] == "CloudMusic"


def test_nothing_outside_the_web_folder(server):
    for path in ["/%2e%2e/Package.swift", "/assets/x/%2e%2e/%2e%2e/Package.swift", "/js/%2e%2e/%2e%2e/README.md",
                 "/..%2fPackage.swift", "/assets/x/..%2F..%2FPackage.swift", "/Package.swift", "/js/nope.js"]:
        status, headers, body = http("GET", server.url + path)
        assert status in (400, 404), (path, status)
        assert b"swift-tools-version" not in body and b"# CloudMusic" not in body, path
