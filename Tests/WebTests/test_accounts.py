"""Signing up and in, and what a signed-in person has: My Music, likes, sheets, the play history and the
queue that follows them to another device."""
import json
import re

import pytest

from conftest import Server, api, new_page, wait_playing, PHONE


@pytest.fixture(scope="module")
def coded_server():
    """A server that sends sign-up codes (to its outbox: there is no SMTP relay here)."""
    running = Server()
    yield running
    running.close()


def test_sign_up_with_a_code_from_the_outbox_then_sign_out_and_in(browser, coded_server):
    page = new_page(browser, coded_server.url)
    page.goto("/mine")
    page.locator(".profile-card a", has_text="登录").click()
    page.locator(".tab-link", has_text="注册").click()
    page.wait_for_url("**mode=signup**")
    page.fill("input[name=account]", "ann@example.com")
    page.fill("input[name=nickname]", "小安")
    page.fill("input[name=password]", "correct horse 42")
    page.locator(".send-code").click()
    # Without SMTP the code waits in the outbox, and the page says where.
    hint = page.locator(".outbox-hint")
    hint.wait_for()
    assert "/v1/admin/outbox" in hint.inner_text()
    # Before any administrator exists, this machine may read the outbox.
    messages = api("GET", coded_server.url + "/v1/admin/outbox")["data"]
    code = next(m for m in messages if m["target"] == "ann@example.com")
    digits = re.search(r"\b(\d{6})\b", code["text"]).group(1)
    page.fill("input[name=code]", digits)
    page.locator(".submit").click()
    page.wait_for_url("**/mine")
    page.locator(".profile-name", has_text="小安").wait_for()
    # "I like" is there from the start.
    page.locator(".sheet-row", has_text="我喜欢的音乐").wait_for()
    # Signing out, then in again with the password.
    page.goto("/settings")
    page.locator(".sign-out").click()
    page.wait_for_function("() => !localStorage.getItem('cm.user')")
    page.goto("/login")
    page.fill("input[name=account]", "ann@example.com")
    page.fill("input[name=password]", "wrong password 1")
    page.locator(".submit").click()
    page.locator(".form-error").filter(has_text="").first.wait_for()
    page.wait_for_function("() => document.querySelector('.form-error').textContent.length > 0")
    page.fill("input[name=password]", "correct horse 42")
    page.locator(".submit").click()
    page.wait_for_url("**/mine")
    page.locator(".profile-name", has_text="小安").wait_for()
    assert not page.errors, page.errors
    page.context.close()


def test_like_add_to_a_new_sheet_and_the_history(browser, server):
    user = server.account("likes@example.com", "Likes")
    page = new_page(browser, server.url, user=user)
    page.goto("/search?q=%E5%B1%B1%E6%B5%B7")
    row = page.locator(".results .song-row", has_text="山海").first
    row.locator(".song-main").click()
    wait_playing(page, past=0.5)
    # Like from the play page.
    page.locator(".mini-open").click()
    page.locator(".act-like").click()
    page.wait_for_function("() => document.querySelector('.act-like').getAttribute('aria-pressed') === 'true'")
    # Add to a new sheet through the song's menu.
    page.go_back()
    row.locator(".song-more").click()
    page.locator(".sheet-item", has_text="收藏到歌单").click()
    page.locator(".sheet-item", has_text="新建歌单").click()
    page.fill(".modal input[name=value]", "周末歌单")
    page.locator(".modal .pill-btn.primary").click()
    page.locator(".toast", has_text="已收藏到歌单").wait_for()
    # My Music shows both; "I like" has the song.
    page.goto("/mine")
    page.locator(".sheet-row", has_text="周末歌单").wait_for()
    page.locator(".sheet-row", has_text="我喜欢的音乐").click()
    page.locator(".detail-body .song-row", has_text="山海").wait_for()
    # The play was reported: recently played lists it.
    page.goto("/mine/recent")
    page.locator(".detail-body .song-row", has_text="山海").wait_for()
    plays = api("GET", server.url + "/v1/plays", token=user["session"])
    assert any(entry["song"]["title"] == "山海" for entry in plays["data"])
    assert not page.errors, page.errors
    page.context.close()


def test_the_queue_follows_the_person_to_another_device(browser, server):
    user = server.account("queue@example.com", "Queue")
    phone = new_page(browser, server.url, user=user)
    phone.goto("/search?q=Northern%20Lights&tab=albums")
    phone.locator(".results .card").first.click()
    phone.locator(".detail-body .song-row").nth(1).locator(".song-main").click()
    wait_playing(phone)
    # The phone saves its queue soon after the change.
    saved = None
    for _ in range(100):
        saved = api("GET", server.url + "/v1/queue", token=user["session"])
        if saved["songIds"]:
            break
        phone.wait_for_timeout(100)
    assert len(saved["songIds"]) == 4 and saved["currentIndex"] == 1
    desktop = new_page(browser, server.url, user=user)
    desktop.goto("/")
    desktop.wait_for_function("() => window.cloudmusic.engine.queue.items.length === 4")
    assert desktop.evaluate("() => window.cloudmusic.engine.song.title") == "Paper Boats"
    # A change on the desktop reaches the phone when it comes back into view, with the version rule.
    desktop.evaluate("() => window.cloudmusic.engine.setMode('shuffle')")
    desktop.wait_for_function(
        "(v) => window.cloudmusic.engine.syncedVersion > v && !window.cloudmusic.engine.unsynced", arg=saved["version"])
    phone.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
    phone.wait_for_function("() => window.cloudmusic.engine.mode === 'shuffle'")
    # A save based on an old version is refused by the server (409): the newer queue wins.
    status = None
    try:
        api("PUT", server.url + "/v1/queue", {"songIds": [], "baseVersion": saved["version"]}, token=user["session"])
    except AssertionError as error:
        status = str(error)
    assert status and "409" in status
    for page in (phone, desktop):
        assert not page.errors, page.errors
        page.context.close()
