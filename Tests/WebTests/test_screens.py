"""Every screen at phone (390x844) and desktop (1440x900) sizes, light and dark, written to
Tests/WebTests/screenshots/ for a person to look at; plus the desktop lyrics window and the language switch."""
import time

import pytest

from conftest import SCREENSHOTS, DESKTOP, PHONE, SETTLED, api, axe_check, new_page, wait_playing


@pytest.fixture(scope="module")
def person(server):
    """Someone with sheets, likes and history, so the screens have something to show."""
    user = server.account("screens@example.com", "云端听众")
    token = user["session"]
    songs = api("GET", server.url + "/v1/songs?size=30&sort=name")["data"]
    by_title = {song["title"]: song["id"] for song in songs}
    for title, detail, picks in [
        ("深夜城市漫步", "霓虹、晚风和末班车", ["霓虹灯下", "晚风", "地铁站", "旧照片", "星河"]),
        ("雨天的歌", "窗外下雨的时候听", ["雨后彩虹", "青石板路", "一把伞", "小城故事"]),
        ("Morning Folk", "Quiet songs for slow mornings", ["Northern Lights", "Paper Boats", "Winter Harbour"]),
        ("摇滚不死", "", ["山海", "少年", "夏夜", "Highway 99"]),
        ("Jazz Night", "", ["Last Train Home", "Blue Platform", "Coffee at Midnight"]),
        ("电子律动", "", ["Cloud Runner", "Midnight Drive", "星河"]),
    ]:
        sheet = api("POST", server.url + "/v1/sheets", {"title": title, "detail": detail or None}, token=token)
        api("POST", server.url + f"/v1/sheets/{sheet['id']}/relations",
            {"songIds": [by_title[t] for t in picks if t in by_title]}, token=token)
    for title in ["雨后彩虹", "山海", "Northern Lights"]:
        api("PUT", server.url + f"/v1/songs/{by_title[title]}/like", token=token)
    for title in ["晚风", "山海", "Paper Boats", "雨后彩虹"]:
        api("POST", server.url + "/v1/plays", {"songId": by_title[title]}, token=token)
    return user


def go(page, path):
    """Moves inside the app (a page load would stop the music the screenshots should show playing)."""
    # The router keeps the old screen until the new one's module has loaded: mark it, so the caller's next
    # locator cannot match something on the screen being left.
    page.evaluate("""(to) => {
        for (const view of document.querySelectorAll('#view > .view')) view.dataset.left = '1';
        window.cloudmusic.navigate(to);
    }""", path)
    page.wait_for_function("""(to) => location.pathname + location.search === to
        && document.querySelector('#view > .view:not([data-left])') !== null""", arg=path)


def shoot(page, name, size, theme):
    SCREENSHOTS.mkdir(exist_ok=True)
    # A long wait allowed: on a loaded machine (other builds, benchmarks) pictures can take a while.
    page.wait_for_function(SETTLED,
                           timeout=90000)
    page.wait_for_timeout(350)  # let transitions settle: a picture for people, not a condition for a test
    page.screenshot(path=str(SCREENSHOTS / f"{name}-{size}-{theme}.png"))
    # Every screen the suite photographs is also checked by axe-core: nothing serious or critical.
    axe_check(page, f"{name}-{size}-{theme}")


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390x844", "1440x900"])
def test_screenshots_of_every_screen(browser, server, person, viewport, theme):
    size = f"{viewport['width']}x{viewport['height']}"
    page = new_page(browser, server.url, viewport=viewport, theme=theme, user=person)
    # The home keeps its shared modules for a minute (an empty one for seconds): wait until it shows the sheets.
    deadline = time.monotonic() + 120
    while not any(m["moduleType"] == "hotSheets" for m in api("GET", server.url + "/v1/home", token=person["session"])):
        assert time.monotonic() < deadline, "the home never showed the hot sheets"
        time.sleep(0.2)
    page.goto("/")
    page.locator(".section-head", has_text="热门歌单").wait_for()
    shoot(page, "01-home", size, theme)
    page.locator(".card-grid .card").first.click()
    page.locator(".detail-body .song-row").first.wait_for()
    shoot(page, "02-sheet", size, theme)
    # Whichever sheet is hottest by now (other tests' sheets may hold one song), its first song plays.
    page.locator(".detail-body .song-row .song-main").first.click()
    wait_playing(page)
    go(page, "/search")
    page.locator(".search-input").fill("雨")
    page.locator(".suggest").first.wait_for()
    shoot(page, "03-search-suggestions", size, theme)
    page.locator(".search-input").press("Enter")
    page.locator(".results .song-row").first.wait_for()
    shoot(page, "04-search-results", size, theme)
    go(page, "/album/" + api("GET", server.url + "/v1/searches?q=%E5%9F%8E%E5%B8%82%E5%A4%9C%E6%9B%B2")["albums"][0]["id"])
    page.locator(".detail-body .song-row").first.wait_for()
    shoot(page, "05-album", size, theme)
    page.locator(".detail-body .song-row .song-more").nth(2).click()
    page.locator(".sheet-item", has_text="下载").click()
    page.locator(".toast", has_text="下载完成").wait_for(timeout=30000)
    # The next screens are pictured without it: wait until it has faded out entirely.
    page.wait_for_function("() => [...document.querySelectorAll('.toast')].every((t) =>"
                           " !t.classList.contains('show') && t.getAnimations().length === 0)", timeout=30000)
    page.locator(".detail-info .head-link").click()
    page.locator(".detail-body .song-row").first.wait_for()
    shoot(page, "06-artist", size, theme)
    go(page, "/browse/genres")
    page.locator(".genre-tile").first.wait_for()
    shoot(page, "07-genres", size, theme)
    page.locator(".genre-tile").first.click()
    page.locator(".detail-body .song-row").first.wait_for()
    shoot(page, "08-genre", size, theme)
    go(page, "/mine")
    page.locator(".sheet-row").first.wait_for()
    shoot(page, "09-my-music", size, theme)
    go(page, "/mine/recent")
    page.locator(".detail-body .song-row").first.wait_for()
    shoot(page, "10-recently-played", size, theme)
    go(page, "/mine/downloads")
    page.locator(".detail-body .song-row").first.wait_for()
    shoot(page, "11-downloads", size, theme)
    go(page, "/settings")
    page.locator(".segmented").first.wait_for()
    shoot(page, "12-settings", size, theme)
    go(page, "/search?q=%E9%9B%A8")
    page.locator(".results .song-row .song-main", has_text="雨后彩虹").first.click()
    wait_playing(page, past=1.2)
    page.locator(".mini-open").click()
    page.locator(".disc-cover").wait_for()
    shoot(page, "13-play", size, theme)
    if viewport is PHONE:
        page.locator(".disc-stage").click()
        page.wait_for_function("() => document.querySelector('.lyric-pane .w.active') !== null")
        shoot(page, "14-play-lyrics", size, theme)
    page.locator(".ctl-queue:visible, .mini-queue:visible").first.click()
    page.locator(".queue-drawer .queue-row").first.wait_for()
    page.wait_for_function("() => document.querySelector('.queue-drawer').getAnimations().every((a) => a.playState === 'finished')")
    shoot(page, "15-queue", size, theme)
    page.keyboard.press("Escape")
    go(page, "/browse/sheets")
    page.locator(".card").first.wait_for()
    shoot(page, "16-all-sheets", size, theme)
    page.evaluate("() => { localStorage.removeItem('cm.user'); }")
    page.goto("/login?mode=signup")
    page.locator(".login-form").wait_for()
    shoot(page, "17-sign-up", size, theme)
    assert not page.errors, page.errors
    page.context.close()


def test_english_follows_the_browser_and_the_switch_wins(browser, server):
    page = new_page(browser, server.url, locale="en-US")
    page.goto("/")
    page.locator(".tab", has_text="Discover").wait_for()
    assert page.evaluate("() => document.documentElement.lang") == "en"
    page.goto("/settings")
    page.locator(".seg", has_text="中文").click()
    page.locator(".tab", has_text="发现").wait_for()
    page.reload()
    page.locator(".tab", has_text="发现").wait_for()
    page.locator(".seg", has_text="深色").click()
    assert page.evaluate("() => document.documentElement.dataset.theme") == "dark"
    assert not page.errors, page.errors
    page.context.close()


def test_desktop_lyrics_float_over_the_page(browser, server):
    page = new_page(browser, server.url, viewport=DESKTOP)
    page.goto("/search?q=%E9%9B%A8%E5%90%8E%E5%BD%A9%E8%99%B9")
    page.locator(".results .song-row .song-main").first.click()
    wait_playing(page, past=1.2)
    page.locator(".mini-lyrics").click()
    page.wait_for_function("() => document.querySelector('.float-holder') || window.documentPictureInPicture?.window")
    # Document Picture-in-Picture where the browser has it (this Chromium does), else a window in the page.
    root = ("documentPictureInPicture.window.document" if page.evaluate("() => !document.querySelector('.float-holder')")
            else "document")
    current = f"{root}.querySelector('.float-lyrics .current-slot')"
    page.wait_for_function(f"() => {current}?.querySelector('.w.active') != null", timeout=20000)
    size = page.evaluate(f"() => getComputedStyle({current}).fontSize")
    page.evaluate(f"() => {root}.querySelector('.f-larger').click()")
    page.wait_for_function(f"(s) => getComputedStyle({current}).fontSize !== s", arg=size)
    assert page.evaluate("() => JSON.parse(localStorage.getItem('cm.lyricsPrefs')).size") == 30
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "18-desktop-lyrics-1440x900-light.png"))
    for other in page.context.pages:
        if other is not page:  # the Picture-in-Picture window
            other.screenshot(path=str(SCREENSHOTS / "18-desktop-lyrics-window.png"))
    page.evaluate(f"() => {root}.querySelector('.f-close').click()")
    page.wait_for_function("() => !document.querySelector('.float-holder') && !window.documentPictureInPicture?.window")
    assert not page.errors, page.errors
    page.context.close()


def test_nothing_overflows_a_360_pixel_phone(browser, server, person):
    page = new_page(browser, server.url, viewport={"width": 360, "height": 740}, user=person)
    page.goto("/")
    page.locator(".section-head", has_text="猜你喜欢").wait_for()
    page.locator(".module-recommendedSongs .song-main").first.click()
    wait_playing(page)
    for path, ready in [("/", ".home-module"), ("/search?q=%E9%9B%A8", ".results .song-row"), ("/mine", ".sheet-row"),
                        ("/browse/genres", ".genre-tile"), ("/settings", ".segmented"), ("/play", ".disc-cover"),
                        ("/login?mode=signup", ".login-form")]:
        go(page, path)
        page.locator(ready).first.wait_for()
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= 360, (path, width)
    page.screenshot(path=str(SCREENSHOTS / "19-sign-up-360x740-light.png"))
    assert not page.errors, page.errors
    page.context.close()
