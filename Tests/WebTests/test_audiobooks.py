"""Audiobooks in the web player (issue 30): a server with `--audiobooks` holding an m4b made by ffmpeg (three
chapters, a narrator, a series in its name). The 有声书 tab lists the book with its narrator and series, the
book's page lists its part without sorting, and the part's page lists the chapters from the file; one seeks."""
import os
import pathlib
import subprocess
import tempfile

import pytest

from conftest import PHONE, Server, api, new_page

CHAPTERS = """;FFMETADATA1
title=黑暗森林
artist=刘慈欣
composer=冯雪松
[CHAPTER]
TIMEBASE=1/1000
START=0
END=10000
title=序章
[CHAPTER]
TIMEBASE=1/1000
START=10000
END=20000
title=面壁者
[CHAPTER]
TIMEBASE=1/1000
START=20000
END=30000
title=破壁人
"""


@pytest.fixture(scope="module")
def book_world():
    folder = tempfile.mkdtemp(prefix="cloudmusic-web-books-")
    meta = os.path.join(tempfile.mkdtemp(prefix="cloudmusic-web-meta-"), "chapters.txt")
    pathlib.Path(meta).write_text(CHAPTERS)
    subprocess.run(["ffmpeg", "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "sine=frequency=330:duration=30",
                    "-i", meta, "-map", "0:a", "-map_metadata", "1", "-ac", "1", "-c:a", "aac", "-b:a", "32k",
                    os.path.join(folder, "三体 02 - 黑暗森林.m4b")], check=True)
    server = Server("--signup-codes", "off", "--podcast-refresh", "off", "--audiobooks", folder)
    admin = server.account("book-admin@example.com", "管理员")
    api("POST", server.url + "/v1/audiobooks/scan", token=admin["session"])
    yield server
    server.close()


def test_the_audiobooks_tab_lists_books_and_a_chapter_seeks(browser, book_world):
    server = book_world
    listener = server.account("book-listener@example.com", "听众")
    page = new_page(browser, server.url, viewport=PHONE, user=listener, touch=True)
    try:
        page.goto("/podcasts")
        page.locator(".podcast-kinds .kind-audiobook").tap()
        page.locator(".podcast-kinds .kind-audiobook[aria-pressed=true]").wait_for()
        row = page.locator(".all-podcasts .book-row", has_text="黑暗森林")
        row.wait_for()
        assert "演播：冯雪松" in row.inner_text()
        assert "三体 · 第 2 部" in row.inner_text()
        row.tap()
        page.locator(".detail-title", has_text="黑暗森林").wait_for()
        page.locator(".book-line", has_text="演播：冯雪松").wait_for()
        assert page.locator(".sort-newest").count() == 0
        page.locator(".episode-row .episode-text").first.tap()
        page.locator(".chapter", has_text="破壁人").wait_for()
        assert [t.strip() for t in page.locator(".chapter-title").all_inner_texts()] == ["序章", "面壁者", "破壁人"]
        page.locator(".chapter", has_text="面壁者").tap()
        page.wait_for_function("() => { const a = document.querySelector('audio[data-active]'); return a && a.currentTime >= 9.5; }")
    finally:
        page.context.close()
