"""Podcasts in the web player (issue 30): a feed served from a local origin on 127.0.0.2 (the one block the
server may fetch from, `--fetch-allow 127.0.0.2/32`) with episodes made by ffmpeg, a cover, chapters and a
transcript. A person subscribes on the album page, pages and sorts the episodes, plays one at 1.5x (still 1.5x
after a reload), skips 15 s, sets the sleep timer, seeks by a chapter, reads the transcript; the place saved on
pause is read back through the API and resumed on the next visit, and "continue listening" lists the episode.
On an episode's page a person likes it (the count), comments on it and shares it in a moment, which draws the
podcast's cover and title, and draws the share as gone once the podcast is deleted.
axe and screenshots at 390x844 light and 1440x900 dark."""
import os
import pathlib
import subprocess
import tempfile

import pytest

from fileorigin import HOST, serve_folder
from conftest import SCREENSHOTS as SHOTS, DESKTOP, PHONE, SETTLED, Server, api, axe_check, new_page, png

EPISODES = 25


def feed(base):
    items = []
    for n in range(1, EPISODES + 1):
        extras = ""
        if n == EPISODES:
            extras = (f'<podcast:chapters url="{base}/chapters.json" type="application/json+chapters"/>'
                      f'<podcast:transcript url="{base}/transcript.vtt" type="text/vtt"/>')
        items.append(f"""<item><guid isPermaLink="false">web-ep-{n}</guid><title>第{n}集：山与海 &amp; 风</title>
          <description><![CDATA[<p>第{n}集的节目简介 <b>粗体</b><script>alert(1)</script></p>]]></description>
          <pubDate>{['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'][n % 7]}, {n:02d} Jun 2026 08:00:00 +0000</pubDate>
          <enclosure url="{base}/episode.mp3" type="audio/mpeg" length="200000"/>
          <itunes:duration>0:40</itunes:duration><itunes:episode>{n}</itunes:episode>{extras}</item>""")
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:podcast="https://podcastindex.org/namespace/1.0">
<channel><title>山海夜话</title><link>https://example.com/show</link>
<description><![CDATA[<p>一档关于<b>山与海</b>的播客。<img src="https://example.com/x.png"></p>]]></description>
<itunes:author>主播小王</itunes:author><itunes:image href="{base}/cover.png"/>
<itunes:category text="Arts"/>
{''.join(items)}
</channel></rss>"""


@pytest.fixture(scope="module")
def podcast_world():
    folder = tempfile.mkdtemp(prefix="cloudmusic-web-origin-")
    origin, base = serve_folder(folder)
    subprocess.run(["ffmpeg", "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "sine=frequency=330:duration=40",
                    "-ac", "1", "-ar", "22050", "-b:a", "32k", os.path.join(folder, "episode.mp3")], check=True)
    pathlib.Path(folder, "cover.png").write_bytes(png(300, 300, (255, 94, 98), to=(95, 39, 205)))
    pathlib.Path(folder, "chapters.json").write_text(
        '{"version":"1.2.0","chapters":[{"startTime":0,"title":"开场"},{"startTime":20,"title":"第二段：海"},'
        '{"startTime":30,"title":"Links","url":"javascript:alert(1)"}]}')
    pathlib.Path(folder, "transcript.vtt").write_text(
        "WEBVTT\n\n1\n00:00:00.000 --> 00:00:05.000\n大家好，欢迎收听山海夜话。\n\n2\n00:00:05.000 --> 00:00:09.000\n今天聊聊海。\n")
    pathlib.Path(folder, "feed.xml").write_text(feed(base))
    server = Server("--signup-codes", "off", "--fetch-allow", f"{HOST}/32", "--podcast-refresh", "off")
    admin = server.account("podcast-admin@example.com", "管理员")
    podcast = api("POST", server.url + "/v1/podcasts", {"url": f"{base}/feed.xml"}, admin["session"])
    assert podcast["episodesCount"] == EPISODES
    server.origin = (folder, base, admin)
    yield server, podcast
    server.close()
    origin.shutdown()


def audio(page, expression):
    return page.evaluate(f"() => {{ const a = document.querySelector('audio[data-active]'); return {expression}; }}")


def test_a_listener_subscribes_plays_and_resumes(browser, podcast_world):
    server, podcast = podcast_world
    listener = server.account("listener@example.com", "听众")
    page = new_page(browser, server.url, viewport=PHONE, user=listener, touch=True)
    try:
        page.goto("/")
        page.locator("a.entry[href='/podcasts']").tap()
        page.locator(".all-podcasts .podcast-row", has_text="山海夜话").tap()
        # The album page: cover through the server, description as text, 20 episodes of 25, newest first.
        page.locator(".detail-title", has_text="山海夜话").wait_for()
        assert "一档关于山与海的播客" in page.locator(".podcast-detail").inner_text()
        page.wait_for_function("() => [...document.images].some((i) => i.src.includes('/cover') && i.complete && i.naturalWidth > 0)")
        rows = page.locator(".episode-row")
        assert rows.count() == 20
        assert rows.first.inner_text().startswith(f"{EPISODES}")
        album_requests = []
        page.on("request", lambda r: album_requests.append(r.url) if "/episodes?" in r.url else None)
        page.locator(".next-page").tap()
        page.locator(".page-of", has_text="2").wait_for()
        assert page.locator(".episode-row").count() == EPISODES - 20
        # The next page goes by the cursor the first page gave, not by offset.
        assert any("cursor=" in url for url in album_requests), album_requests
        page.locator(".sort-oldest").tap()
        page.locator(".sort-oldest[aria-pressed=true]").wait_for()
        page.locator(".episode-row").first.locator(".episode-title", has_text="第1集").wait_for()
        page.locator("[data-head=subscribe]").tap()
        page.locator("[data-head=subscribe][aria-pressed=true]").wait_for()
        assert api("GET", server.url + "/v1/podcasts/subscribed", token=listener["session"])["total"] == 1

        # The newest episode's page: notes as text (no markup from the feed), chapters, transcript.
        page.goto("/podcast/%s" % podcast["id"])
        page.locator(".episode-row", has_text=f"第{EPISODES}集").locator(".episode-text").tap()
        page.locator(".notes-text", has_text=f"第{EPISODES}集的节目简介 粗体").wait_for()
        assert page.locator(".notes-text script, .notes-text b").count() == 0
        page.locator(".chapter", has_text="第二段：海").wait_for()
        assert page.locator(".chapter-link").count() == 0  # a javascript: link is never a link
        page.locator(".show-transcript").tap()
        page.locator(".transcript-text", has_text="大家好，欢迎收听山海夜话。").wait_for()
        assert "-->" not in page.locator(".transcript-text").inner_text()

        # Play at 1.5x; skip forward 15 s; the sleep timer; a chapter seeks.
        page.locator(".episode-speed").select_option("1.5")
        page.locator("[data-head=play]").tap()
        page.wait_for_function("() => { const a = document.querySelector('audio[data-active]'); return a && !a.paused && a.currentTime > 0.3; }")
        assert audio(page, "a.playbackRate") == 1.5
        page.locator(".mini-title", has_text=f"第{EPISODES}集").wait_for()
        before = audio(page, "a.currentTime")
        page.locator(".skip-forward").tap()
        page.wait_for_function(f"() => document.querySelector('audio[data-active]').currentTime >= {before + 14}")
        page.locator(".episode-sleep").select_option("15")
        page.locator(".sleep-note", has_text="后停止").wait_for()
        page.locator(".episode-sleep").select_option("end")
        page.locator(".sleep-note", has_text="本集播完后停止").wait_for()
        page.locator(".chapter", has_text="开场").tap()
        page.wait_for_function("() => document.querySelector('audio[data-active]').currentTime < 10")
        page.wait_for_function("() => document.querySelector('audio[data-active]').currentTime > 3")

        # Pause: the place goes to the server at once.
        page.locator(".episode-toggle").tap()
        page.wait_for_function("() => document.querySelector('audio[data-active]').paused")
        paused_at = audio(page, "a.currentTime")
        episode_id = page.url.rsplit("/", 1)[1]
        saved = {}

        def saved_place():
            saved.update(api("GET", f"{server.url}/v1/episodes/{episode_id}/progress", token=listener["session"]))
            return saved.get("updatedAt") and abs(saved["position"] - paused_at) < 0.5
        for _ in range(300):  # a bound for a hung test: the save is asked for on pause
            if saved_place():
                break
            page.wait_for_timeout(100)
        assert saved_place(), (saved, paused_at)
        assert not saved["finished"]
        shots(page, "podcast-episode-paused", PHONE, "light")

        # Continue listening lists it; the speed is remembered after a reload; the next visit resumes there.
        resumed = api("GET", server.url + "/v1/episodes/continue", token=listener["session"])
        assert [e["id"] for e in resumed["data"]] == [episode_id]
        page.goto("/podcasts")
        page.locator(".continue-listening .episode-row", has_text=f"第{EPISODES}集").wait_for()
        shots(page, "podcasts-continue", PHONE, "light")
        # The home carries it too, its card opening the episode.
        page.goto("/")
        page.locator(f".module-continueListening a[href='/episode/{episode_id}']").wait_for()
        page.locator(".module-continueListening").screenshot(path=str(SHOTS / "home-continue-phone-light.png"))
        page.goto(f"/episode/{episode_id}")
        page.locator("[data-head=play]", has_text="继续").wait_for()
        assert page.locator(".episode-speed").input_value() == "1.5"
        # Where playback stood when it first played: the saved place, not the start.
        page.evaluate("""() => { window.firstPlaying = null; for (const a of document.querySelectorAll('audio'))
            a.addEventListener('playing', () => { if (window.firstPlaying === null) window.firstPlaying = a.currentTime; }); }""")
        page.locator("[data-head=play]").tap()
        page.wait_for_function("() => window.firstPlaying !== null")
        assert page.evaluate("() => window.firstPlaying") >= paused_at - 0.5
        assert audio(page, "a.playbackRate") == 1.5
        page.locator(".episode-toggle").tap()
        page.wait_for_function("() => document.querySelector('audio[data-active]').paused")

        # Played from the album page the older episodes follow; the sleep timer's "end of episode" stops at its
        # end instead, and the episode is marked finished.
        page.goto(f"/podcast/{podcast['id']}")
        page.locator(".episode-row", has_text=f"第{EPISODES}集").locator(".episode-play").tap()
        page.locator(".mini-title", has_text=f"第{EPISODES}集").wait_for()
        page.goto(f"/episode/{episode_id}")
        page.locator(".episode-player").wait_for()
        page.wait_for_function("() => document.querySelector('.detail-body.is-current')")
        page.locator(".episode-sleep").select_option("end")
        page.locator(".chapter", has_text="Links").tap()
        page.wait_for_function("() => document.querySelector('audio[data-active]').ended")
        assert f"第{EPISODES}集" in page.locator(".mini-title").inner_text()
        for _ in range(300):  # a bound for a hung test: the finished place is saved at the end
            if api("GET", f"{server.url}/v1/episodes/{episode_id}/progress", token=listener["session"])["finished"]:
                break
            page.wait_for_timeout(100)
        assert api("GET", f"{server.url}/v1/episodes/{episode_id}/progress", token=listener["session"])["finished"]
        assert page.locator(".sleep-note").inner_text() == ""
        assert not page.errors, page.errors
    finally:
        page.context.close()


def test_an_episode_is_liked_commented_on_and_shared_in_a_moment(browser, podcast_world):
    server, _ = podcast_world
    folder, base, admin = server.origin
    # A podcast of its own, deleted at the end, so the other tests keep theirs.
    pathlib.Path(folder, "shared.xml").write_text(feed(base).replace("山海夜话", "分享&lt;b&gt;夜话&lt;/b&gt;")
                                                 .replace("web-ep-", "shared-ep-"))
    shared = api("POST", server.url + "/v1/podcasts", {"url": f"{base}/shared.xml"}, admin["session"])
    episode = api("GET", f"{server.url}/v1/podcasts/{shared['id']}/episodes?size=1")["data"][0]
    fan = server.account("fan@example.com", "粉丝")
    other = server.account("other-fan@example.com", "路人")
    page = new_page(browser, server.url, viewport=PHONE, user=fan, touch=True)
    try:
        page.goto(f"/episode/{episode['id']}")
        like = page.locator("[data-head=like]")
        like.wait_for()
        assert like.get_attribute("aria-pressed") == "false"
        like.tap()
        page.locator("[data-head=like][aria-pressed=true]", has_text="1").wait_for()
        mine = api("GET", f"{server.url}/v1/episodes/{episode['id']}", token=fan["session"])
        assert mine["likesCount"] == 1 and mine["likeId"]
        # Another listener's like is in the count on the next visit; the fan's own stays pressed.
        api("POST", server.url + "/v1/likes", {"episodeId": episode["id"]}, other["session"])
        page.reload()
        page.locator("[data-head=like][aria-pressed=true]", has_text="2").wait_for()
        shots(page, "podcast-episode-liked", PHONE, "light")
        # On a narrow phone the three actions stay inside the page, each label inside its button.
        page.set_viewport_size({"width": 320, "height": 640})
        assert page.evaluate("""() => [...document.querySelectorAll('.head-action')].every((b) =>
            b.getBoundingClientRect().right <= document.documentElement.clientWidth + 0.5 && b.scrollWidth <= b.clientWidth + 1)""")
        page.screenshot(path=str(SHOTS / "podcast-episode-actions-320-light.png"))
        page.set_viewport_size(PHONE)

        # A comment, markup shown as text; it is listed on the episode and counted in the heading.
        page.locator(".episode-comments .comment-empty").wait_for()
        page.locator(".episode-composer .composer-input").fill("好听！<img src=x onerror=alert(1)>")
        page.locator(".episode-composer .composer-send").tap()
        page.locator(".episode-comments .comment-text", has_text="好听！<img src=x onerror=alert(1)>").wait_for()
        assert page.locator(".episode-comments .comment-text img").count() == 0
        page.locator("#episode-comments-title", has_text="1").wait_for()
        listed = api("GET", f"{server.url}/v1/comments?episodeId={episode['id']}")
        assert [c["content"] for c in listed["data"]] == ["好听！<img src=x onerror=alert(1)>"]
        shots(page, "podcast-episode-social", PHONE, "light")

        # Unliking takes the fan's like off; liking again puts it back.
        page.locator("[data-head=like]").tap()
        page.locator("[data-head=like][aria-pressed=false]", has_text="1").wait_for()
        page.locator("[data-head=like]").tap()
        page.locator("[data-head=like][aria-pressed=true]", has_text="2").wait_for()

        # Share to moments: the new moment carries the episode, drawn with the podcast's cover and title.
        page.locator("[data-head=share]").tap()
        page.wait_for_url("**/moments/new?episode=*")
        page.locator(".post-share .moment-share .share-title", has_text=episode["title"]).wait_for()
        page.locator(".post-composer .composer-input").fill("推荐这一期")
        page.locator(".post-composer .composer-send").tap()
        page.wait_for_url("**/moments?tab=following")
        card = page.locator(".moment", has_text="推荐这一期").locator(".moment-share")
        card.locator(".share-sub", has_text="分享<b>夜话</b>").wait_for()
        page.wait_for_function("() => [...document.querySelectorAll('.moment-share img')].some((i) => i.complete && i.naturalWidth > 0)")
        assert page.locator(".moment-share b").count() == 0
        shots(page, "moment-shared-episode", PHONE, "light")
        card.tap()
        page.wait_for_url(f"**/episode/{episode['id']}")
        page.locator(".detail-title", has_text=episode["title"]).wait_for()

        # The podcast deleted, the moment still reads, its share drawn as gone.
        api("DELETE", f"{server.url}/v1/podcasts/{shared['id']}", token=admin["session"])
        page.goto("/moments?tab=following")
        page.locator(".moment", has_text="推荐这一期").locator(".moment-share.gone").wait_for()
        assert not page.errors, page.errors
    finally:
        page.context.close()


def shots(page, name, size, theme):
    page.wait_for_function(SETTLED)
    axe_check(page, name)
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}-{size['width']}-{theme}.png"))


@pytest.mark.parametrize("size,theme", [(PHONE, "light"), (DESKTOP, "dark")], ids=["phone-light", "desktop-dark"])
def test_podcast_screens_pass_axe_and_are_pictured(browser, podcast_world, size, theme):
    server, podcast = podcast_world
    page = new_page(browser, server.url, viewport=size, theme=theme)
    try:
        page.goto("/podcasts")
        page.locator(".all-podcasts .podcast-row").first.wait_for()
        shots(page, "podcasts-list", size, theme)
        page.goto(f"/podcast/{podcast['id']}")
        page.locator(".episode-row").first.wait_for()
        shots(page, "podcast-album", size, theme)
        page.locator(".episode-row .episode-text").first.click()
        page.locator(".notes-text").wait_for()
        page.locator(".chapter").first.wait_for()
        shots(page, "podcast-episode", size, theme)
        assert not page.errors, page.errors
    finally:
        page.context.close()
