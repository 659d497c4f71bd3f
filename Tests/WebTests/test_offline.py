"""Offline: the app shell comes from the service worker, and a downloaded song plays from the Cache Storage
(with Range) while the server is stopped."""
from conftest import Server, new_page, wait_playing


def test_a_downloaded_song_plays_with_the_server_stopped(browser):
    server = Server("--signup-codes", "off")
    try:
        page = new_page(browser, server.url)
        page.goto("/")
        # The service worker installs the shell and takes control.
        page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=30000)
        page.goto("/search?q=%E9%9B%A8%E5%90%8E%E5%BD%A9%E8%99%B9")
        row = page.locator(".results .song-row", has_text="雨后彩虹").first
        row.locator(".song-more").click()
        page.locator(".sheet-item", has_text="下载").click()
        page.locator(".toast", has_text="下载完成").wait_for(timeout=30000)
        # A download asks the worker to keep the whole app (until then it keeps the first render's files).
        page.wait_for_function("""async () => { for (const name of await caches.keys()) {
            if (name.startsWith('cm-shell-') && (await (await caches.open(name)).keys()).some((r) => r.url.endsWith('/js/screens/play.js'))) return true; }
            return false; }""", polling=200)
        page.goto("/mine/downloads")
        page.locator(".detail-body .song-row", has_text="雨后彩虹").wait_for()
        assert "已用" in page.locator(".storage-line").inner_text()

        server.stop()
        # With the server gone: a fresh load of a deep address still opens the app ...
        page.goto("/mine/downloads")
        page.locator(".detail-body .song-row", has_text="雨后彩虹").wait_for()
        page.locator(".detail-body .song-row .song-main").first.click()
        # ... and the downloaded song plays, its lyric too.
        wait_playing(page, past=1.5)
        page.locator(".mini-open").click()
        page.locator(".disc-stage").click()
        page.locator(".lyric-pane .lyric-line.current").wait_for(timeout=20000)
        # Seeking inside the cached file is answered with Range.
        page.evaluate("() => { document.querySelector('audio[data-active]').currentTime = 20; }")
        wait_playing(page, past=20.3)
        # Freeing the storage removes it.
        page.goto("/mine/downloads")
        page.locator(".free-storage").click()
        page.locator(".modal .pill-btn.primary").click()
        page.locator(".state-block.empty").wait_for()
        assert page.evaluate("async () => (await caches.keys()).includes('cm-songs')") is False
        assert not page.errors, page.errors
        page.context.close()
    finally:
        server.close()


def test_the_app_shell_opens_offline(browser, server):
    page = new_page(browser, server.url)
    page.goto("/")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=30000)
    # A visit while the worker is in charge keeps the answers it saw.
    page.reload()
    page.locator(".section-head", has_text="新碟上架").wait_for()
    # Screens are kept when first used: settings, opened once online, opens offline too.
    page.goto("/settings")
    page.locator(".segmented").first.wait_for()
    page.goto("/")
    page.locator(".section-head", has_text="新碟上架").wait_for()
    page.context.set_offline(True)
    page.reload()
    # The shell, the chrome and the last answers of the API come from the device.
    page.locator(".tabbar .tab", has_text="发现").wait_for()
    page.locator("#offline-bar").wait_for()
    page.locator(".section-head", has_text="新碟上架").wait_for()
    page.goto("/settings")
    page.locator(".segmented").first.wait_for()
    page.context.set_offline(False)
    assert not page.errors, page.errors
    page.context.close()
