"""News in the web player (issue 32): an administrator adds a source (an RSS feed served from a local origin on
127.0.0.2, the one block the server may fetch from, `--fetch-allow 127.0.0.2/32`) into a channel; a person reads
the channel (one-picture, three-picture and text rows), opens an article (marked read, greyed in the list), saves
one, goes offline and opens the saved article from the device. axe and screenshots at 390x844 and 1440x900, light
and dark."""
import os
import pathlib
import tempfile

import pytest

from fileorigin import HOST, serve_folder
from conftest import SCREENSHOTS as SHOTS, DESKTOP, PHONE, SETTLED, Server, api, axe_check, new_page, png



def feed(base):
    def item(n, title, body, day):
        return f"""<item><guid isPermaLink="false">news-{n}</guid><title>{title}</title>
          <link>https://example.com/news/{n}</link>
          <description><![CDATA[{body}]]></description>
          <pubDate>{day} Dec 2026 0{n}:00:00 +0000</pubDate></item>"""
    pictures = "".join(f'<p><img src="{base}/p{k}.png" alt="图{k}"></p>' for k in range(1, 4))
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>本地日报</title><link>https://example.com/</link><description>测试</description>
{item(5, "三图新闻：城市夜景", f"<p>三张图片的新闻。</p>{pictures}", "Sat, 05")}
{item(4, "单图新闻：山间晨雾", f'<p>晨雾里的山。</p><p><img src="{base}/p1.png" alt="晨雾"></p>', "Sat, 05")}
{item(3, "纯文字新闻：会议召开", "<p>会议今天召开，讨论了三件事。</p><p>第二段<script>alert(1)</script>。</p>", "Fri, 04")}
{item(2, "收藏这篇：离线也能读", f'<p>这篇文章要离线阅读。</p><p><img src="{base}/p2.png" alt="海"></p><p>最后一段。</p>', "Fri, 04")}
</channel></rss>"""


@pytest.fixture(scope="module")
def news_world():
    folder = tempfile.mkdtemp(prefix="cloudmusic-web-news-")
    origin, base = serve_folder(folder)
    for k, (a, b) in enumerate([((255, 94, 98), (95, 39, 205)), ((80, 140, 220), (240, 120, 80)),
                                ((40, 180, 120), (20, 60, 140))], start=1):
        pathlib.Path(folder, f"p{k}.png").write_bytes(png(320, 200, a, to=b))
    pathlib.Path(folder, "feed.xml").write_text(feed(base))
    server = Server("--signup-codes", "off", "--fetch-allow", f"{HOST}/32", "--news-refresh", "off")
    admin = server.account("news-admin@example.com", "管理员")
    channel = api("POST", server.url + "/v1/news/channels", {"title": "头条"}, admin["session"])
    api("POST", server.url + "/v1/news/channels", {"title": "科技"}, admin["session"])
    source = api("POST", server.url + "/v1/news/sources", {"url": f"{base}/feed.xml", "channelId": channel["id"]},
                 admin["session"])
    assert source.get("lastError") is None, source
    yield server, channel
    server.close()
    origin.shutdown()


def row(page, title):
    return page.locator(".news-row", has_text=title)


def test_a_reader_reads_saves_and_reads_offline(browser, news_world):
    server, channel = news_world
    reader = server.account("reader@example.com", "读者")
    page = new_page(browser, server.url, viewport=PHONE, user=reader, touch=True)
    try:
        page.goto("/")
        page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        page.locator("a.entry[href='/news']").tap()
        # The channel tabs with the unread count; rows drawn as news apps draw them.
        page.locator(".news-tab[aria-current=page]", has_text="头条").wait_for()
        assert page.locator(".news-tab[aria-current=page] .news-unread").inner_text() == "4"
        expect_kind = {"三图新闻": "row-three", "单图新闻": "row-one", "纯文字新闻": "row-plain"}
        for title, kind in expect_kind.items():
            assert kind in row(page, title).get_attribute("class")
        assert row(page, "三图新闻").locator(".news-pic").count() == 3
        page.wait_for_function("() => [...document.querySelectorAll('.news-pic')].every((i) => i.complete && i.naturalWidth > 0)")
        assert all("/v1/news/images/" in src for src in
                   page.locator(".news-pic").evaluate_all("(list) => list.map((i) => i.getAttribute('src'))"))

        # Opening an article marks it read: greyed in the list, one unread fewer.
        row(page, "纯文字新闻").locator(".news-link").tap()
        page.locator(".news-article-title", has_text="纯文字新闻").wait_for()
        assert "会议今天召开" in page.locator(".news-content").inner_text()
        assert page.locator(".news-content script").count() == 0
        page.locator(".back-link").tap()
        page.locator(".news-row.is-read", has_text="纯文字新闻").wait_for()
        assert "is-read" not in row(page, "单图新闻").get_attribute("class")
        for _ in range(300):  # a bound for a hung test: the read mark is sent as the article opens
            if next(c for c in api("GET", server.url + "/v1/news/channels", token=reader["session"])
                    if c["id"] == channel["id"])["unreadCount"] == 3:
                break
            page.wait_for_timeout(100)
        channels = api("GET", server.url + "/v1/news/channels", token=reader["session"])
        assert next(c for c in channels if c["id"] == channel["id"])["unreadCount"] == 3

        # Save one from its page; a picture opens full-screen.
        row(page, "收藏这篇").locator(".news-link").tap()
        page.locator(".news-content img").wait_for()
        page.locator(".news-save").tap()
        page.locator(".news-save.on").wait_for()
        saved = api("GET", server.url + "/v1/news/saved", token=reader["session"])
        assert [a["title"] for a in saved["list"]] == ["收藏这篇：离线也能读"]
        page.locator(".news-content img").first.tap()
        page.locator("dialog.news-viewer img").wait_for()
        page.locator(".news-viewer-close").tap()
        # Kept on the device: the answer and its picture in the news cache.
        page.wait_for_function("""async () => { const cache = await caches.open('cm-news');
            const keys = (await cache.keys()).map((r) => new URL(r.url).pathname);
            return keys.some((k) => k.startsWith('/v1/news/articles/')) && keys.some((k) => k.startsWith('/v1/news/images/')); }""",
                               polling=200)

        # Offline: the saved list and the saved article, its picture too, come from the device.
        page.goto("/news")
        page.locator(".news-row").first.wait_for()
        page.context.set_offline(True)
        page.locator("a[href='/news/saved']").tap()
        page.locator("#offline-bar").wait_for()
        page.locator(".news-row", has_text="收藏这篇").locator(".news-link").tap()
        page.locator(".news-article-title", has_text="收藏这篇").wait_for()
        assert "这篇文章要离线阅读" in page.locator(".news-content").inner_text()
        page.wait_for_function("() => { const i = document.querySelector('.news-content img'); return i && i.complete && i.naturalWidth > 0; }")
        page.context.set_offline(False)
        assert not page.errors, page.errors
    finally:
        page.context.close()


def shots(page, name, size, theme):
    page.wait_for_function(SETTLED)
    axe_check(page, name)
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}-{size['width']}-{theme}.png"))


@pytest.mark.parametrize("size,theme", [(PHONE, "light"), (PHONE, "dark"), (DESKTOP, "light"), (DESKTOP, "dark")],
                         ids=["phone-light", "phone-dark", "desktop-light", "desktop-dark"])
def test_news_screens_pass_axe_and_are_pictured(browser, news_world, size, theme):
    server, channel = news_world
    viewer = server.account(f"viewer-{size['width']}-{theme}@example.com", f"看客{size['width']}{theme}")
    page = new_page(browser, server.url, viewport=size, theme=theme, user=viewer)
    try:
        page.goto("/news")
        page.locator(".news-row").first.wait_for()
        row(page, "纯文字新闻").locator(".news-link").click()
        page.locator(".news-content").wait_for()
        page.locator(".back-link").click()
        page.locator(".news-row.is-read").first.wait_for()
        shots(page, "news-list", size, theme)
        row(page, "三图新闻").locator(".news-link").click()
        page.locator(".news-content img").first.wait_for()
        shots(page, "news-article", size, theme)
        assert not page.errors, page.errors
    finally:
        page.context.close()
