"""The social screens at phone (390x844) and desktop (1440x900) sizes, light and dark, written to
Tests/WebTests/screenshots/ for a person to look at; and the API requests each page makes on its first
render, which must be at most one per list it shows (no request per row)."""
import json
import re

import pytest

from conftest import SCREENSHOTS, DESKTOP, PHONE, api, new_page, png
from test_screens import go, shoot


@pytest.fixture(scope="module")
def scene(server):
    """People, comments, moments with pictures, follows and notifications, so the screens have something to show."""
    me = server.account("scene-me@example.com", "林间小鹿")
    friends = [server.account(f"scene-{i}@example.com", name) for i, name in enumerate(["夏日微风", "Luna", "北岛"])]
    for friend in friends:
        api("POST", server.url + "/v1/friends", {"userId": me["userId"]}, token=friend["session"])
        api("POST", server.url + "/v1/friends", {"userId": friend["userId"]}, token=me["session"])
    songs = api("GET", server.url + "/v1/songs?size=30&sort=name")["data"]
    song = next(s for s in songs if s["title"] == "晚风")
    mine = api("POST", server.url + "/v1/comments", {"content": "晚风吹过的夏夜，单曲循环了一整晚 🌙 #夜听#", "songId": song["id"]},
               token=me["session"])
    lines = [("夏日微风", "前奏一响就爱上了，@林间小鹿 你也听听"), ("Luna", "Love the guitar in the second verse 🎸"),
             ("北岛", "“晚风吹散了白天的喧嚣” 这句写得真好 #夜听#")]
    for (name, text), friend in zip(lines, friends):
        api("POST", server.url + "/v1/comments", {"content": text, "songId": song["id"]}, token=friend["session"])
    reply = api("POST", server.url + "/v1/comments", {"content": "同感！", "songId": song["id"], "parentId": mine["id"]},
                token=friends[0]["session"])
    api("POST", server.url + "/v1/likes", {"commentId": mine["id"]}, token=friends[1]["session"])
    api("POST", server.url + "/v1/likes", {"commentId": mine["id"]}, token=friends[2]["session"])
    # Moments with pictures (uploaded through the API).
    import urllib.request
    import uuid
    def upload(token, colours):
        boundary = uuid.uuid4().hex
        body = b"".join(f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"p{i}.png\"\r\nContent-Type: image/png\r\n\r\n".encode()
                        + png(240, 180 + 60 * (i % 3), c, to=tuple(max(0, v - 90) for v in c)) + b"\r\n" for i, c in enumerate(colours)) + f"--{boundary}--\r\n".encode()
        request = urllib.request.Request(server.url + "/v1/files/multi", data=body, method="POST", headers={
            "Content-Type": f"multipart/form-data; boundary={boundary}", "Authorization": f"Bearer {token}"})
        with urllib.request.urlopen(request, timeout=30) as response:
            return [{"uri": f["uri"]} for f in json.loads(response.read())["data"]]
    palette = [(236, 65, 65), (255, 159, 67), (254, 202, 87), (72, 219, 251), (10, 189, 227), (95, 39, 205),
               (200, 214, 229), (16, 172, 132), (243, 104, 224)]
    api("POST", server.url + "/v1/feeds", {"content": "周末去海边，风很大，歌很好听 #夏天#", "images": upload(friends[0]["session"], palette[:3]),
                                           "place": "舟山 · 东极岛"}, token=friends[0]["session"])
    api("POST", server.url + "/v1/feeds", {"content": "New playlist for rainy days ☔", "images": upload(friends[1]["session"], palette[3:4])},
        token=friends[1]["session"])
    feed = api("POST", server.url + "/v1/feeds", {"content": "九宫格 📷 @林间小鹿", "images": upload(friends[2]["session"], palette)},
               token=friends[2]["session"])
    api("POST", server.url + "/v1/likes", {"feedId": feed["id"]}, token=me["session"])
    # "I like" is private until shown (issue 26): a friend's profile lists a sheet they made public.
    for friend in friends:
        sheet = api("POST", server.url + "/v1/sheets", {"title": "夏夜循环"}, token=friend["session"])
        api("POST", server.url + f"/v1/sheets/{sheet['id']}/relations", {"songIds": [song["id"]]}, token=friend["session"])
    topic = api("GET", server.url + "/v1/topics?title=%E5%A4%8F%E5%A4%A9")["data"]
    videos = api("GET", server.url + "/v1/videos")["data"]
    return {"me": me, "friends": friends, "song": song, "feed": feed, "topic": topic[0] if topic else None,
            "video": videos[0] if videos else None, "reply": reply}


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390x844", "1440x900"])
def test_screenshots_of_the_social_screens(browser, server, scene, viewport, theme):
    size = f"{viewport['width']}x{viewport['height']}"
    page = new_page(browser, server.url, viewport=viewport, theme=theme, user=scene["me"])
    page.goto(f"/comments/song/{scene['song']['id']}")
    page.locator(".comment-quote").first.wait_for()
    # The first comment's replies open under it.
    page.locator(".comment-thread").first.click()
    page.locator(".comment-replies .comment", has_text="同感！").wait_for()
    shoot(page, "20-comments", size, theme)
    page.locator(".composer-tool[data-tool=emoji]").click()
    page.locator(".emoji").first.wait_for()
    shoot(page, "21-comment-emoji", size, theme)
    go(page, "/moments?tab=following")
    page.locator(".moment .pic").first.wait_for()
    shoot(page, "22-moments", size, theme)
    go(page, "/moments?tab=everyone")
    page.locator(".waterfall .wf-card img").first.wait_for()
    shoot(page, "22-moments-waterfall", size, theme)
    go(page, "/moments?tab=following")
    page.locator(".moment", has_text="九宫格").locator(".pic").nth(4).click()
    page.locator(".pic-viewer img").first.wait_for()
    shoot(page, "23-picture-viewer", size, theme)
    page.keyboard.press("Escape")
    go(page, "/moments/new")
    page.locator(".post-composer .composer-input").fill("今天的歌单 #夏天#")
    shoot(page, "24-post-moment", size, theme)
    go(page, f"/user/{scene['friends'][0]['userId']}?tab=moments")
    page.locator(".moment").first.wait_for()
    shoot(page, "25-profile", size, theme)
    go(page, f"/user/{scene['me']['userId']}/friends")
    page.locator(".user-row").first.wait_for()
    shoot(page, "26-friends", size, theme)
    go(page, "/inbox")
    page.locator(".notice").first.wait_for()
    # A mention in a moment says it was in a moment.
    page.locator(".notice", has_text="在动态中提到了你").wait_for()
    shoot(page, "27-inbox", size, theme)
    go(page, "/videos")
    page.locator(".video-card").first.wait_for(timeout=30000)
    shoot(page, "28-videos", size, theme)
    page.locator(".video-card", has_text="霓虹灯下").click()
    page.locator(".video-info").wait_for()
    page.wait_for_function("() => document.querySelector('.video-el').readyState >= 1")
    shoot(page, "29-video", size, theme)
    if scene["topic"]:
        go(page, f"/topic/{scene['topic']['id']}")
        page.locator(".topic-head").wait_for()
        shoot(page, "30-topic", size, theme)
    go(page, "/mine/profile")
    page.locator(".edit-form").wait_for()
    shoot(page, "31-edit-profile", size, theme)
    go(page, "/settings")
    page.locator(".sign-out-all").wait_for()
    shoot(page, "32-settings", size, theme)
    assert not page.errors, page.errors
    page.context.close()


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390x844", "1440x900"])
def test_screenshots_of_the_first_run(browser, discovery_server, viewport, theme):
    size = f"{viewport['width']}x{viewport['height']}"
    page = new_page(browser, discovery_server.url, viewport=viewport, theme=theme, first_run=True)
    page.goto("/")
    page.locator(".terms-dialog .terms-accept").wait_for()
    shoot(page, "40-terms", size, theme)
    page.locator(".terms-dialog .terms-accept").click()
    page.locator(".guide").wait_for()
    shoot(page, "41-guide", size, theme)
    page.locator(".guide-skip").click()
    page.reload()
    page.locator(".splash-media img").wait_for()
    page.wait_for_function("() => document.querySelector('.splash-media img').complete")
    page.screenshot(path=str(SCREENSHOTS / f"42-splash-{size}-{theme}.png"))
    assert not page.errors, page.errors
    page.context.close()


def test_each_page_makes_at_most_one_request_per_list_on_first_render(browser, server, scene):
    """Counts the JSON API requests (pictures and streams aside) a screen makes when it is opened inside the
    app, until the network is idle. `lists` is how many lists the screen shows; `single` how many single
    things (the subject above the list)."""
    page = new_page(browser, server.url, user=scene["me"])
    page.goto("/")
    page.locator(".home-sections .section").first.wait_for()
    page.wait_for_load_state("networkidle")
    seen = []
    pending = set()
    api_call = re.compile(r"/v1/(?!files/)(?!.*/(cover|avatar|stream|icon)(\?|$))")
    def started(request):
        if api_call.search(request.url):
            seen.append(request.url)
            pending.add(request)
    page.on("request", started)
    page.on("requestfinished", lambda r: pending.discard(r))
    page.on("requestfailed", lambda r: pending.discard(r))

    def settle():
        """Until no API request is open and no spinner shows (a condition, polled)."""
        for _ in range(400):
            if not pending and not page.locator(".spinner").count():
                return
            page.wait_for_timeout(25)
        raise AssertionError(f"still waiting for {pending}")
    friend = scene["friends"][0]["userId"]
    pages = [
        (f"/comments/song/{scene['song']['id']}", ".comment", 1, 1),
        (f"/moment/{scene['feed']['id']}", ".comment-section .state-block, .comment-section .comment", 1, 1),
        ("/moments?tab=following", ".moment", 1, 0),
        ("/moments?tab=everyone", ".wf-card", 1, 0),
        (f"/user/{friend}", ".user-body .sheet-row", 2, 2),  # the profile, and the blocked people once a visit
        (f"/user/{friend}?tab=moments", ".moment", 1, 1),
        (f"/user/{friend}/followers", ".user-row", 1, 0),
        ("/inbox", ".notice", 1, 0),
        ("/videos", ".video-card", 1, 0),
        (f"/video/{scene['video']['id']}", ".video-comments .tabs", 1, 1),
        ("/mine/profile", ".edit-form", 0, 1),
        ("/settings/blocks", ".people .state-block, .user-row", 1, 0),
    ]
    # "I like" is private until its owner shows it (issue 26): its owner lists it.
    likes = api("GET", server.url + f"/v1/users/{scene['me']['userId']}/create", token=scene["me"]["session"])["data"][0]
    pages.append((f"/comments/sheet/{likes['id']}", ".comment-section .state-block, .comment-section .comment", 1, 1))
    if scene["topic"]:
        pages.append((f"/topic/{scene['topic']['id']}", ".topic-head", 1, 0))
    counts = {}
    for path, ready, lists, single in pages:
        seen.clear()
        go(page, path)
        page.locator(ready).first.wait_for(timeout=30000)
        settle()
        counts[path] = list(seen)
        assert len(seen) <= lists + single, f"{path}: {seen}"
    SCREENSHOTS.mkdir(exist_ok=True)
    (SCREENSHOTS / "request-counts.json").write_text(json.dumps(
        {path: {"count": len(urls), "requests": [re.sub(r"^https?://[^/]+", "", u) for u in urls]} for path, urls in counts.items()},
        ensure_ascii=False, indent=2))
    assert not page.errors, page.errors
    page.context.close()
