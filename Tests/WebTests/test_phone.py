"""The web player on a phone, as a new user tries it (issue 25): touch on a 390x844 viewport, zh-CN, and axe on
every screen visited. Each test waits for conditions, never for times."""
import json
import pathlib
import re

import pytest

from conftest import PHONE, SCREENSHOTS, SETTLED, api, axe_check, http, new_page, png, post_ad, wait_playing

XSS = '<img src=x onerror="window.__xss=1">'


@pytest.fixture(scope="module")
def people(server):
    """Two people on the shared server (sign-ups are limited per address, so the tests share them)."""
    return server.account("phone-a@example.com", XSS[:32]), server.account("phone-b@example.com", "看客")


@pytest.fixture(scope="module")
def listener(discovery_server):
    """Someone on the discovery server who played a few songs and searched twice."""
    admin = api("POST", discovery_server.url + "/v1/sessions", {"email": "admin@example.com", "password": "correct horse 42"})
    for title, colours in [("周末乐队 新专辑", ((46, 49, 146), (27, 255, 255))), ("雨后 · 林小雨", ((236, 0, 140), (252, 103, 103))),
                           ("城市夜曲 全新上线", ((15, 32, 39), (44, 83, 100)))]:
        post_ad(discovery_server, admin["session"], title, 10, png(750, 300, colours[0], to=colours[1]))
    user = discovery_server.account("listener@example.com", "听众")
    by_title = songs_by_title(discovery_server)
    for title in ["晚风", "山海", "雨后彩虹", "Paper Boats"]:
        api("POST", discovery_server.url + "/v1/plays", {"songId": by_title[title]["id"]}, token=user["session"])
    for query in ["晚风", "雨"]:
        api("POST", discovery_server.url + "/v1/searches/history", {"query": query}, token=user["session"])
    return user


def phone(browser, server, **options):
    return new_page(browser, server.url, touch=True, **options)


def songs_by_title(server):
    songs = api("GET", server.url + "/v1/songs?size=30&sort=name")["data"]
    return {song["title"]: song for song in songs}


def test_a_finger_on_the_record_opens_the_lyrics_and_a_tap_on_them_goes_back(browser, server):
    page = phone(browser, server)
    page.goto("/search?q=%E9%9B%A8%E5%90%8E%E5%BD%A9%E8%99%B9&tab=songs")
    page.locator(".results .song-row .song-main").first.tap()
    wait_playing(page)
    page.locator(".mini-open").tap()
    page.locator(".disc-cover").wait_for()
    axe_check(page, "play")
    page.locator(".disc-stage").tap()
    # The tap's own click lands on the lyric pane that replaced the record: the lyrics must stay.
    page.wait_for_function("() => document.querySelector('.play-main').dataset.view === 'lyric'")
    page.locator(".lyric-pane .lyric-line").first.wait_for()
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    assert page.evaluate("() => document.querySelector('.play-main').dataset.view") == "lyric"
    axe_check(page, "play-lyrics")
    page.locator(".lyric-pane").tap(position={"x": 10, "y": 10})
    page.wait_for_function("() => document.querySelector('.play-main').dataset.view === 'disc'")
    # A swipe is not a tap: the lyrics stay closed, the next song plays.
    assert not page.errors, page.errors
    page.context.close()


def test_the_home_is_drawn_from_the_servers_home_module_by_module(browser, discovery_server, listener):
    server = discovery_server
    user = listener
    page = phone(browser, server, user=user)
    seen = []
    page.on("response", lambda response: seen.append((response.url, response.status)))
    # A module type this app does not know is skipped; the others are drawn in the server's order.
    page.route("**/v1/home", lambda route: route.fulfill(
        status=200, content_type="application/json",
        body=json.dumps({"status": 0, "data": [{"id": "future", "moduleType": "future", "title": "Future",
                                               "items": [{"id": "1"}]}] + api("GET", server.url + "/v1/home",
                                                                              token=user["session"])})))
    page.goto("/")
    # A new user first accepts the terms (the discovery server publishes them).
    page.locator(".terms-accept").tap()
    page.wait_for_function("() => !document.querySelector('.terms-dialog')")
    page.locator(".home-module").first.wait_for()
    served = [m["moduleType"] for m in api("GET", server.url + "/v1/home", token=user["session"])]
    drawn = page.evaluate("() => [...document.querySelectorAll('.home-module')].map((m) => m.dataset.module)")
    assert "future" not in drawn
    assert drawn == [m for m in served if m != "personalRadio"], (drawn, served)
    for needed in ["dailySongs", "recommendedSongs", "newAlbums", "categories", "recentlyPlayed", "videos"]:
        assert needed in served, served
    page.locator(".entry", has_text="每日推荐").wait_for()
    page.locator(".entry", has_text="私人FM").wait_for()
    assert page.locator("h1").count() >= 1
    assert not [url for url, status in seen if status == 404], [url for url, status in seen if status == 404]
    axe_check(page, "home")
    # 每日推荐 plays the songs of the day; 私人FM the radio.
    page.locator(".entry", has_text="每日推荐").tap()
    wait_playing(page)
    daily = api("GET", server.url + "/v1/recommendations/songs", token=user["session"])["songs"]
    assert page.evaluate("() => window.cloudmusic.engine.song.id") == daily[0]["id"]
    # The reorder screen: move the last module first and hide one; the home follows.
    page.unroute("**/v1/home")
    before = api("GET", server.url + "/v1/home/layout", token=user["session"])
    page.locator(".arrange-home").tap()
    page.locator(".layout-row").first.wait_for()
    axe_check(page, "arrange-home")
    rows = page.locator(".layout-row")
    last = rows.count() - 1
    for i in range(last, 0, -1):
        page.locator(f"[data-up='{i}']").tap()
    page.locator(".layout-row").nth(1).locator("input").uncheck()
    page.locator(".layout-save").tap()
    page.locator(".toast", has_text="已保存").wait_for()
    layout = api("GET", server.url + "/v1/home/layout", token=user["session"])
    assert layout["customized"] and layout["modules"][1]["hidden"]
    assert layout["modules"][0]["moduleType"] == before["modules"][-1]["moduleType"]
    # The home follows: the hidden module is gone from it.
    hidden = layout["modules"][1]["moduleType"]
    page.wait_for_function("(type) => !document.querySelector(`.home-module[data-module='${type}']`)", arg=hidden)
    api("DELETE", server.url + "/v1/home/layout", token=user["session"])
    assert not page.errors, page.errors
    page.context.close()


def test_server_refusals_are_in_the_language_on_screen(browser, server):
    page = phone(browser, server)
    asked = []
    page.on("request", lambda request: asked.append(request.headers.get("accept-language")) if "/v1/" in request.url else None)
    page.goto("/login")
    page.locator("input[name=account]").fill("nobody@example.com")
    page.locator("input[name=password]").fill("wrong password 1")
    page.locator(".submit").tap()
    page.locator(".form-error", has_text="密码错误").wait_for()
    assert "zh-CN" in asked
    axe_check(page, "login")
    page.context.close()
    status, _, body = http("POST", server.url + "/v1/sessions", {"email": "nobody@example.com", "password": "x" * 9},
                           headers={"Accept-Language": "en-GB, zh;q=0.5"})
    assert status == 401 and json.loads(body) == {"status": 401, "message": "The phone number or email, or the password, is wrong."}


def test_search_shows_hot_searches_history_and_seven_tabs(browser, server, people):
    user, other = people
    by_title = songs_by_title(server)
    for token in [user["session"], other["session"]]:
        api("POST", server.url + "/v1/searches/history", {"query": "晚风"}, token=token)
        api("POST", server.url + "/v1/plays", {"songId": by_title["山海"]["id"]}, token=token)
    page = phone(browser, server, user=user)
    page.goto("/search")
    page.locator(".hot-row", has_text="晚风").wait_for()
    page.locator(".hot-row", has_text="山海").wait_for()
    page.locator(".search-history .chip", has_text="晚风").wait_for()
    axe_check(page, "search-start")
    page.locator(".search-input").fill("雨")
    page.locator(".search-input").press("Enter")
    page.locator(".search-tabs .tab-link").first.wait_for()
    tabs = page.locator(".search-tabs .tab-link").all_text_contents()
    assert tabs == ["综合", "单曲", "歌单", "专辑", "歌手", "用户", "视频"]
    page.locator(".results .song-row").first.wait_for()
    axe_check(page, "search-all")
    # The history is the server's: another device sees the new search, and deleting and clearing are kept.
    history = api("GET", server.url + "/v1/searches/history", token=user["session"])
    assert [entry["query"] for entry in history][:2] == ["雨", "晚风"]
    page.goto("/search")
    page.locator(".search-history .chip", has_text="雨").wait_for()
    page.locator(".chip-x").first.tap()
    page.wait_for_function("() => document.querySelectorAll('.search-history .chip').length === 1")
    assert [e["query"] for e in api("GET", server.url + "/v1/searches/history", token=user["session"])] == ["晚风"]
    page.locator(".history-clear").tap()
    page.wait_for_function("() => !document.querySelector('.search-history')")
    assert api("GET", server.url + "/v1/searches/history", token=user["session"]) == []
    for tab in ["users", "videos", "sheets"]:
        page.goto(f"/search?q=%E6%99%9A&tab={tab}")
        page.locator(".results .state-block, .results .artist-row, .results .video-card, .results .card").first.wait_for()
        axe_check(page, f"search-{tab}")
    assert not page.errors, page.errors
    page.context.close()


def test_a_song_from_search_goes_after_the_current_one_and_play_all_replaces_the_queue(browser, server):
    page = phone(browser, server)
    page.goto("/album/" + api("GET", server.url + "/v1/searches?q=%E5%9F%8E%E5%B8%82%E5%A4%9C%E6%9B%B2")["albums"][0]["id"])
    page.locator(".detail-body .song-row .song-main").first.tap()
    wait_playing(page)
    before = page.evaluate("() => window.cloudmusic.engine.queue.items.map((item) => item.song.id)")
    assert len(before) > 1
    page.goto("/search?q=%E5%B1%B1%E6%B5%B7&tab=songs")
    page.locator(".results .song-row .song-main").first.tap()
    page.wait_for_function("() => window.cloudmusic.engine.song?.title === '山海'")
    after = page.evaluate("() => window.cloudmusic.engine.queue.items.map((item) => item.song.id)")
    assert len(after) == len(before) + 1 and after[0] == before[0] and after[1] == page.evaluate("() => window.cloudmusic.engine.song.id")
    page.locator(".play-all").tap()
    page.wait_for_function("(n) => window.cloudmusic.engine.queue.items.length !== n", arg=len(after))
    found = api("GET", server.url + "/v1/searches?q=%E5%B1%B1%E6%B5%B7")["songs"]
    assert page.evaluate("() => window.cloudmusic.engine.queue.items.length") == len(found)
    assert not page.errors, page.errors
    page.context.close()


def test_the_splash_shows_once_per_cold_start_and_never_on_a_deep_link(browser, discovery_server):
    page = new_page(browser, discovery_server.url, touch=True)
    page.context.add_init_script("localStorage.setItem('cm.terms', '[\"1\",\"2\",\"3\",\"4\"]');")
    page.goto("/sheet/1")
    page.locator("#view .view").first.wait_for()
    page.wait_for_function("() => performance.getEntriesByName('cm-first-screen').length > 0")
    page.wait_for_function("() => sessionStorage.getItem('cm.splashShown') === null && !document.querySelector('.splash-ad')")
    page.goto("/")
    page.locator(".splash-ad").wait_for()
    axe_check(page, "splash")
    page.locator(".splash-skip").tap()
    page.wait_for_function("() => !document.querySelector('.splash-ad')")
    page.reload()
    page.wait_for_function("() => performance.getEntriesByName('cm-first-screen').length > 0")
    page.locator(".home-module").first.wait_for()
    assert page.locator(".splash-ad").count() == 0
    page.context.close()


def test_the_offline_bar_is_at_the_top(browser, server):
    page = phone(browser, server)
    page.goto("/")
    page.locator(".home-module").first.wait_for()
    page.context.set_offline(True)
    bar = page.locator("#offline-bar")
    bar.wait_for()
    box = bar.bounding_box()
    assert box["y"] == 0 and box["width"] == PHONE["width"], box
    page.context.set_offline(False)
    page.context.close()


def test_nothing_a_person_writes_becomes_markup(browser, server, people):
    """Every user-written field carries markup that would run if it were not escaped; the pages showing it must
    show it as text and create no element from it."""
    bad, fan = people
    token = bad["session"]
    by_title = songs_by_title(server)
    song = by_title["晚风"]["id"]
    sheet = api("POST", server.url + "/v1/sheets", {"title": XSS, "detail": XSS, "tags": [XSS[:20]]}, token=token)
    api("POST", server.url + f"/v1/sheets/{sheet['id']}/relations", {"songIds": [song]}, token=token)
    api("POST", server.url + "/v1/comments", {"content": XSS, "songId": song}, token=token)
    api("POST", server.url + "/v1/feeds", {"content": XSS}, token=token)
    api("POST", server.url + "/v1/friends", {"userId": bad["userId"]}, token=fan["session"])
    api("POST", server.url + "/v1/friends", {"userId": fan["userId"]}, token=token)
    api("POST", server.url + "/v1/messages", {"userId": fan["userId"], "kind": "text", "content": XSS}, token=token)
    page = phone(browser, server, user=fan)
    for path, ready in [(f"/sheet/{sheet['id']}", ".detail-info"), (f"/comments/song/{song}", ".comment"),
                        ("/moments", ".moment"), (f"/user/{bad['userId']}", ".user-actions"),
                        ("/messages", ".conv"), ("/search?q=img&tab=sheets", ".results")]:
        page.goto(path)
        page.locator(ready).first.wait_for()
        page.wait_for_function("() => !document.querySelector('.spinner')")
        assert page.evaluate("() => window.__xss") is None, path
        assert page.locator("img[src='x']").count() == 0, path
        assert "<img" in page.locator("#view").inner_text() or path.startswith("/search"), path
    assert not page.errors, page.errors
    page.context.close()


def test_markup_is_only_made_through_the_html_template():
    """No screen puts a string into innerHTML: only ui.js's setHTML does, and it takes only `html` markup."""
    web = pathlib.Path(__file__).resolve().parents[2] / "Web" / "js"
    offenders = []
    for path in sorted(web.rglob("*.js")):
        text = path.read_text()
        for pattern in [r"\.innerHTML\s*=", r"\.outerHTML\s*=", r"insertAdjacentHTML", r"document\.write"]:
            for found in re.finditer(pattern, text):
                if path.name == "ui.js" and "markup.text" in text[found.start():found.start() + 60]:
                    continue
                offenders.append(f"{path.name}:{text[:found.start()].count(chr(10)) + 1}")
    assert not offenders, offenders


def test_the_worker_precaches_the_shell_only(browser, server):
    status, _, body = http("GET", server.url + "/sw.js")
    files = json.loads(re.search(r"self\.CLOUDMUSIC_FILES = (\[.*?\]);", body.decode()).group(1))
    _, _, index = http("GET", server.url + "/")
    assert files and all(f'"{path}"' in index.decode() for path in files)
    assert not any(path.endswith(("/screens/messages.js", "/css/social.css", "/js/live.js")) for path in files)
    page = phone(browser, server)
    page.goto("/")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null || navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function("async () => (await caches.keys()).some((name) => name.startsWith('cm-shell-'))")
    cached = page.evaluate("""async () => { const name = (await caches.keys()).find((n) => n.startsWith('cm-shell-'));
        return (await (await caches.open(name)).keys()).map((r) => new URL(r.url).pathname); }""")
    assert not any(path.endswith("/screens/messages.js") for path in cached), cached
    page.context.close()


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("viewport", [PHONE, {"width": 1440, "height": 900}], ids=["390x844", "1440x900"])
def test_screenshots_of_the_home_search_and_lyrics(browser, discovery_server, listener, viewport, theme):
    server = discovery_server
    user = listener
    size = f"{viewport['width']}x{viewport['height']}"
    page = new_page(browser, server.url, viewport=viewport, theme=theme, user=user, touch=viewport is PHONE)
    page.context.add_init_script("sessionStorage.setItem('cm.splashShown', '1'); localStorage.setItem('cm.terms', '[\"1\",\"2\",\"3\",\"4\"]');")
    page.goto("/")
    page.locator(".home-module").first.wait_for()

    def shoot(name):
        SCREENSHOTS.mkdir(exist_ok=True)
        page.wait_for_function(SETTLED,
                               timeout=90000)
        page.wait_for_timeout(350)  # transitions settle: a picture for people, not a condition for a test
        page.screenshot(path=str(SCREENSHOTS / f"{name}-{size}-{theme}.png"))

    shoot("20-home-from-v1-home")
    axe_check(page, f"home {size} {theme}")
    page.goto("/search")
    page.locator(".hot-row").first.wait_for()
    shoot("21-search-hot")
    page.goto("/search?q=%E9%9B%A8")
    page.locator(".results .song-row").first.wait_for()
    shoot("22-search-tabs")
    axe_check(page, f"search {size} {theme}")
    page.locator(".results .song-row .song-main").first.click()
    wait_playing(page, past=1.2)
    page.goto("/play")
    page.locator(".disc-cover").wait_for()
    if viewport is PHONE:
        page.locator(".disc-stage").tap()
    page.wait_for_function("() => document.querySelector('.lyric-pane .lyric-line.current') !== null")
    shoot("23-play-lyrics-by-finger")
    axe_check(page, f"lyrics {size} {theme}")
    assert not page.errors, page.errors
    page.context.close()
