"""Messages and the live event stream (issue 19) in the web player: two people in two browser contexts, where
what one does reaches the other's open screens without a reload; a queue and a like saved by another device;
the server's refusals shown as they are; and the conversation list and the chat at phone and desktop sizes,
light and dark, written to Tests/WebTests/screenshots/ for a person to look at."""
import json
import re
import urllib.request
import uuid

import pytest
from playwright.sync_api import expect

from conftest import DESKTOP, PHONE, Server, api, new_page, png
from test_screens import go, shoot


@pytest.fixture(scope="module")
def server():
    """This module's own server: its people do not count against the sign-ups per address of the shared one."""
    running = Server("--signup-codes", "off")
    yield running
    running.close()


@pytest.fixture(scope="module")
def pair(server):
    """小红 (A) and Kai (B), who have not talked yet."""
    a = server.account("chat-a@example.com", "小红")
    b = server.account("chat-b@example.com", "Kai")
    songs = api("GET", server.url + "/v1/songs?size=30&sort=name")["data"]
    return {"a": a, "b": b, "songs": songs}


CONVERSATION = re.compile(r"/messages/\d+$")


def close(*pages):
    for page in pages:
        assert not page.errors, page.errors
        page.context.close()


def wait_live(page):
    """Until the page's event stream is open (it opens after the first screen)."""
    page.wait_for_function("() => window.cloudmusic.live && window.cloudmusic.live.state === 'open'", timeout=30000)


def unread_messages(server, user):
    return api("GET", server.url + "/v1/messages/unread", token=user["session"])["count"]


def post_picture(server, user, path, picture):
    """A PNG posted as `user` in a multipart field named `file`; returns the answer's data."""
    boundary = uuid.uuid4().hex
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"p.png\"\r\nContent-Type: image/png\r\n\r\n".encode()
            + picture + f"\r\n--{boundary}--\r\n".encode())
    request = urllib.request.Request(server.url + path, data=body, method="POST", headers={
        "Content-Type": f"multipart/form-data; boundary={boundary}", "Authorization": f"Bearer {user['session']}"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())["data"]


def upload(server, user, picture):
    """A picture uploaded as `user` (POST /v1/files/multi); returns the stored file."""
    return post_picture(server, user, "/v1/files/multi", picture)[0]


def test_a_message_reaches_b_open_list_badge_and_chat_live_and_opening_the_chat_clears_the_badge(browser, server, pair):
    a, b = pair["a"], pair["b"]
    page_b = new_page(browser, server.url, viewport=DESKTOP, user=b)
    page_b.goto("/messages")
    expect(page_b.locator(".conv-empty")).to_be_visible()
    wait_live(page_b)
    page_b.evaluate("() => { window.notReloaded = true; }")
    page_a = new_page(browser, server.url, user=a)
    page_a.goto(f"/user/{b['userId']}")
    # The "Message" button of B's page opens an empty chat with B.
    page_a.locator(".message-btn").click()
    page_a.wait_for_url(f"**/messages/user/{b['userId']}")
    expect(page_a.locator(".chat-start")).to_be_visible()
    expect(page_a.locator(".chat-who")).to_contain_text("Kai")
    wait_live(page_a)
    page_a.locator(".chat-input").fill("你好，Kai 👋")
    page_a.locator(".chat-input").press("Enter")
    expect(page_a.locator(".msg.mine .bubble")).to_have_text("你好，Kai 👋")
    expect(page_a.locator(".chat-input")).to_have_value("")
    page_a.wait_for_url(CONVERSATION)
    # B, without a reload: the conversation in the list with its unread count, and the side bar's badge.
    row = page_b.locator(".conv", has_text="小红")
    expect(row.locator(".conv-last")).to_have_text("你好，Kai 👋")
    expect(row.locator(".conv-badge")).to_have_text("1")
    side_badge = page_b.locator(".side-link[href='/messages'] .badge-slot")
    expect(side_badge).to_have_text("1")
    assert page_b.evaluate("() => window.notReloaded") is True
    # Opening the chat reads it: the badges go.
    row.locator(".conv-link").click()
    expect(page_b.locator(".msg.theirs .bubble")).to_have_text("你好，Kai 👋")
    expect(side_badge).to_be_hidden()
    expect(page_b.locator(".conv-badge")).to_have_count(0)
    page_b.wait_for_function("() => !window.cloudmusic.store.get().messagesUnread?.count")
    assert unread_messages(server, b) == 0
    # The next one appears in B's open chat, which reads it at once.
    page_a.locator(".chat-input").fill("第二条")
    page_a.locator(".chat-send").click()
    expect(page_b.locator(".msg.theirs .bubble", has_text="第二条")).to_be_visible()
    expect(page_b.locator(".conv", has_text="小红").locator(".conv-last")).to_have_text("第二条")
    for _ in range(100):
        if unread_messages(server, b) == 0:
            break
        page_b.wait_for_timeout(100)
    assert unread_messages(server, b) == 0
    expect(side_badge).to_be_hidden()
    # B answers; A's open chat shows it, and A's list has it as the last message.
    page_b.locator(".chat-input").fill("收到！\n第二行")
    page_b.locator(".chat-input").press("Enter")
    expect(page_a.locator(".msg.theirs .bubble")).to_have_text("收到！\n第二行")
    go(page_a, "/messages")
    expect(page_a.locator(".conv", has_text="Kai").locator(".conv-last")).to_contain_text("收到！")
    expect(page_a.locator(".conv", has_text="Kai").locator(".conv-badge")).to_have_count(0)
    close(page_a, page_b)


def test_a_too_long_message_shows_the_server_message_and_deleting_is_for_oneself(browser, server, pair):
    a, b = pair["a"], pair["b"]
    page = new_page(browser, server.url, user=a)
    page.goto(f"/messages/user/{b['userId']}")
    page.locator(".chat-input").wait_for()
    # The chat with B exists already: the address becomes the conversation's.
    page.wait_for_url(CONVERSATION)
    expect(page.locator(".msg").first).to_be_visible()
    posts = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" and r.url.endswith("/v1/messages") else None)
    page.locator(".chat-input").fill("长" * 2001)
    expect(page.locator(".chat-count")).to_have_text("2001/2000")
    page.locator(".chat-input").press("Enter")
    expect(page.locator("#toast")).to_have_text("私信最多 2000 个字，现在有 2001 个。")
    assert len(posts) == 1
    # What was typed stays, to be shortened.
    assert len(page.locator(".chat-input").input_value()) == 2001
    page.locator(".chat-input").fill("这条会被删除")
    page.locator(".chat-input").press("Enter")
    mine = page.locator(".msg.mine", has_text="这条会被删除")
    expect(mine).to_be_visible()
    # A right click (a long press on a phone) offers to delete it, for A only.
    mine.locator(".msg-body").click(button="right")
    page.locator(".action-sheet .sheet-item", has_text="删除").click()
    expect(mine).to_have_count(0)
    conversation = api("GET", server.url + "/v1/conversations", token=b["session"])["data"][0]
    theirs = api("GET", server.url + f"/v1/conversations/{conversation['id']}/messages", token=b["session"])["data"]
    assert any(m.get("content") == "这条会被删除" for m in theirs)
    close(page)


def test_shared_song_sheet_and_picture_show_as_cards_that_play_and_open(browser, server, pair):
    a, b = pair["a"], pair["b"]
    song = next(s for s in pair["songs"] if s["title"] == "晚风")
    page_a = new_page(browser, server.url, user=a)
    page_a.goto(f"/messages/user/{b['userId']}")
    page_a.wait_for_url(CONVERSATION)
    wait_live(page_a)
    # Nothing playing: the share button says so.
    page_a.locator(".chat-share").click()
    expect(page_a.locator("#toast")).to_have_text("现在没有在播放歌曲")
    page_a.evaluate("(song) => window.cloudmusic.engine.playList([song], 0)", song)
    page_a.locator(".chat-share").click()
    card = page_a.locator(".msg.mine .song-card").last
    expect(card.locator(".msg-card-title")).to_have_text("晚风")
    # B's sheet and picture, sent through the API, come into A's open chat.
    sheet = api("POST", server.url + "/v1/sheets", {"title": "给你的歌单"}, token=b["session"])
    api("POST", server.url + f"/v1/sheets/{sheet['id']}/relations", {"songIds": [song["id"]]}, token=b["session"])
    api("POST", server.url + "/v1/messages", {"userId": a["userId"], "kind": "sheet", "sheetId": sheet["id"]}, token=b["session"])
    picture = upload(server, b, png(160, 120, (72, 219, 251), to=(95, 39, 205)))
    api("POST", server.url + "/v1/messages", {"userId": a["userId"], "kind": "image", "fileId": picture["id"]}, token=b["session"])
    expect(page_a.locator(".msg.theirs .sheet-card .msg-card-title")).to_have_text("给你的歌单")
    expect(page_a.locator(".msg.theirs .msg-pic img")).to_be_visible()
    # The picture opens in the viewer.
    page_a.locator(".msg.theirs .msg-pic").click()
    expect(page_a.locator(".pic-viewer img")).to_be_visible()
    page_a.keyboard.press("Escape")
    # The list says what the last one was.
    page_b = new_page(browser, server.url, user=b)
    page_b.goto("/messages")
    expect(page_b.locator(".conv", has_text="小红").locator(".conv-last")).to_have_text("[图片]")
    # B opens the chat and plays the shared song from its card.
    page_b.locator(".conv", has_text="小红").locator(".conv-link").click()
    page_b.locator(".msg.theirs .song-card").last.click()
    page_b.wait_for_function("(id) => window.cloudmusic.engine.song?.id === id", arg=song["id"])
    # A's sheet card opens the sheet.
    page_a.locator(".msg.theirs .sheet-card").click()
    page_a.wait_for_url(f"**/sheet/{sheet['id']}")
    close(page_a, page_b)


def test_older_messages_load_on_scrolling_up(browser, server):
    one = server.account("chat-long-1@example.com", "话多的人")
    two = server.account("chat-long-2@example.com", "听众")
    for i in range(40):
        who, to = (one, two) if i % 2 == 0 else (two, one)
        api("POST", server.url + "/v1/messages", {"userId": to["userId"], "kind": "text", "content": f"第{i + 1}条"}, token=who["session"])
    page = new_page(browser, server.url, user=one)
    page.goto(f"/messages/user/{two['userId']}")
    page.wait_for_url(CONVERSATION)
    expect(page.locator(".msg")).to_have_count(30)
    expect(page.locator(".msg").last).to_contain_text("第40条")
    page.locator(".chat-scroll").evaluate("(el) => { el.scrollTop = 0; }")
    expect(page.locator(".msg")).to_have_count(40)
    expect(page.locator(".msg").first).to_contain_text("第1条")
    # The place read stays in view: the list grew above it.
    assert page.locator(".chat-scroll").evaluate("(el) => el.scrollTop") > 0
    close(page)


def test_enter_pressed_before_the_chat_has_loaded_sends_once_it_has(browser, server):
    one = server.account("chat-early-1@example.com", "急性子")
    two = server.account("chat-early-2@example.com", "慢半拍")
    api("POST", server.url + "/v1/messages", {"userId": two["userId"], "kind": "text", "content": "在吗"}, token=one["session"])
    page = new_page(browser, server.url, user=one)
    # The chat's messages are held back, so the person is typing before the chat knows who it is with.
    held = []
    page.route(re.compile(r"/v1/conversations/\d+/messages"), lambda route: held.append(route))
    with page.expect_request(re.compile(r"/v1/conversations/\d+/messages")):
        page.goto(f"/messages/user/{two['userId']}")
    page.locator(".chat-input").fill("我先打好了")
    page.locator(".chat-input").press("Enter")
    expect(page.locator(".chat-input")).to_have_value("我先打好了")
    # The route's handler runs when Playwright next reads the page's events: wait for it, not for a time.
    while not held:
        page.wait_for_function("() => new Promise((done) => setTimeout(() => done(true), 50))")
    for route in held:
        route.continue_()
    expect(page.locator(".msg").last).to_contain_text("我先打好了")
    expect(page.locator(".chat-input")).to_have_value("")
    conversation = api("GET", server.url + f"/v1/conversations?userId={two['userId']}", token=one["session"])["data"][0]
    sent = api("GET", server.url + f"/v1/conversations/{conversation['id']}/messages", token=one["session"])["data"]
    assert [m["content"] for m in sent] == ["在吗", "我先打好了"]
    close(page)


def test_only_people_i_follow_in_settings_refuses_others_with_the_server_message(browser, server, pair):
    a, b = pair["a"], pair["b"]
    page_b = new_page(browser, server.url, user=b)
    page_b.goto("/settings")
    following = page_b.locator(".allow-seg[data-allow=following]")
    expect(page_b.locator(".allow-seg[data-allow=everyone]")).to_have_attribute("aria-checked", "true")
    following.click()
    expect(following).to_have_attribute("aria-checked", "true")
    expect(page_b.locator("#toast")).to_have_text("已保存")
    assert api("GET", server.url + "/v1/message_settings", token=b["session"])["allowFrom"] == "following"
    page_a = new_page(browser, server.url, user=a)
    page_a.goto(f"/messages/user/{b['userId']}")
    page_a.wait_for_url(CONVERSATION)
    page_a.locator(".chat-input").fill("还能发吗？")
    page_a.locator(".chat-input").press("Enter")
    expect(page_a.locator("#toast")).to_have_text("对方只接收其关注的人发来的私信。")
    page_b.reload()
    page_b.locator(".allow-seg[data-allow=everyone]").click()
    expect(page_b.locator(".allow-seg[data-allow=everyone]")).to_have_attribute("aria-checked", "true")
    page_b.wait_for_function("() => document.querySelector('#toast')?.textContent === '已保存'")
    assert api("GET", server.url + "/v1/message_settings", token=b["session"])["allowFrom"] == "everyone"
    close(page_a, page_b)


def test_a_new_notification_shows_in_the_open_inbox_and_its_badge_live(browser, server):
    me = server.account("live-inbox@example.com", "收件人")
    fan = server.account("live-fan@example.com", "路人甲")
    page = new_page(browser, server.url, user=me)
    page.goto("/inbox")
    expect(page.locator(".notice-list .state-block.empty")).to_be_visible()
    wait_live(page)
    api("POST", server.url + "/v1/friends", {"userId": me["userId"]}, token=fan["session"])
    expect(page.locator(".notice.unread", has_text="路人甲")).to_contain_text("关注了你")
    expect(page.locator(".tabbar .badge-slot")).to_have_text("1")
    expect(page.locator(".inbox-tabs .tab-link[data-kind=follow] .kind-badge")).to_have_text("1")
    close(page)


def test_a_queue_saved_by_another_device_and_a_like_arrive_live(browser, server, pair):
    user = server.account("live-queue@example.com", "两台设备")
    songs = pair["songs"]
    page = new_page(browser, server.url, user=user)
    page.goto("/")
    wait_live(page)
    requests = []
    page.on("request", lambda r: requests.append(r.url) if "/v1/queue" in r.url else None)
    # Another device (its own session) saves a queue.
    other = api("POST", server.url + "/v1/sessions", {"email": "live-queue@example.com", "password": "correct horse 42"})
    version = api("GET", server.url + "/v1/queue", token=other["session"])["version"]
    picks = [songs[2], songs[5], songs[7]]
    saved = api("PUT", server.url + "/v1/queue", {"songIds": [s["id"] for s in picks], "currentIndex": 1, "position": 15000,
                                                   "loopMode": "list", "baseVersion": version}, token=other["session"])
    page.wait_for_function("() => window.cloudmusic.engine.queue.items.length === 3", timeout=20000)
    assert page.evaluate("() => window.cloudmusic.engine.song.id") == picks[1]["id"]
    assert page.evaluate("() => window.cloudmusic.engine.syncedVersion") == saved["version"]
    # It came by the stream: the page did not ask for the queue.
    assert not [u for u in requests if u.endswith("/v1/queue")], requests
    page.locator(".mini-queue").click()
    expect(page.locator(".queue-drawer .queue-song")).to_have_text([s["title"] for s in picks])
    page.keyboard.press("Escape")
    # A queue event no newer than the device's (its own save coming back, a late one) changes nothing.
    page.evaluate("""(v) => window.cloudmusic.live.handle('queue', { queue: { songIds: [], position: 0, loopMode: 'list', version: v } })""",
                  saved["version"])
    page.evaluate("""(v) => window.cloudmusic.live.handle('queue', { queue: { songIds: [], position: 0, loopMode: 'list', version: v - 1 } })""",
                  saved["version"])
    assert page.evaluate("() => window.cloudmusic.engine.queue.items.length") == 3
    # A like from the other device fills the heart of the play page.
    go(page, "/play")
    like = page.locator(".act-like")
    expect(like).to_have_attribute("aria-pressed", "false")
    api("PUT", server.url + f"/v1/songs/{picks[1]['id']}/like", token=other["session"])
    expect(like).to_have_attribute("aria-pressed", "true")
    api("DELETE", server.url + f"/v1/songs/{picks[1]['id']}/like", token=other["session"])
    expect(like).to_have_attribute("aria-pressed", "false")
    close(page)


def test_a_second_stream_of_the_same_session_replaces_the_first_which_stays_closed(browser, server):
    user = server.account("live-twice@example.com", "两个窗口")
    first = new_page(browser, server.url, user=user)
    first.goto("/")
    wait_live(first)
    second = new_page(browser, server.url, user=user)
    second.goto("/")
    wait_live(second)
    first.wait_for_function("() => window.cloudmusic.live.state === 'replaced'")
    assert first.evaluate("() => window.cloudmusic.live.source") is None
    close(first, second)


def test_a_refused_chat_token_is_replaced_by_a_new_one(browser, server):
    user = server.account("live-token@example.com", "旧令牌")
    page = new_page(browser, server.url, user=user)
    page.context.add_init_script("localStorage.setItem('cm.chat', JSON.stringify({ userId: %s, token: 'not-a-token' }))"
                                 % json.dumps(user["userId"]))
    tokens = []
    page.on("request", lambda r: tokens.append(r.url) if r.method == "POST" and r.url.endswith("/v1/events/token") else None)
    page.goto("/")
    wait_live(page)
    assert len(tokens) == 1
    assert page.evaluate("() => JSON.parse(localStorage.getItem('cm.chat')).token") != "not-a-token"
    close(page)


@pytest.fixture(scope="module")
def chats(server, pair):
    """Someone with a few conversations (avatars, a song, a sheet, a picture, unread ones), for the screenshots."""
    me = server.account("chat-shots@example.com", "晴天的猫")
    people = [server.account(f"chat-shot-{i}@example.com", name) for i, name in enumerate(["夏夜晚风", "Mia", "南山"])]
    colours = [((255, 138, 128), (236, 65, 65)), ((120, 200, 255), (60, 90, 220)), ((140, 230, 170), (30, 140, 90)),
               ((255, 214, 120), (240, 130, 40))]
    for person, (top, bottom) in zip([me, *people], colours):
        person["icon"] = post_picture(server, person, f"/v1/users/{person['userId']}/avatar", png(96, 96, top, to=bottom)).get("icon")
    songs = {s["title"]: s for s in pair["songs"]}
    send = lambda who, to, body: api("POST", server.url + "/v1/messages", {"userId": to["userId"], **body}, token=who["session"])
    breeze, mia, south = people
    send(breeze, me, {"kind": "text", "content": "周末的音乐节你去吗？🎸"})
    send(me, breeze, {"kind": "text", "content": "去呀！我已经把歌单听了好几遍了"})
    send(me, breeze, {"kind": "song", "songId": songs["晚风"]["id"]})
    send(breeze, me, {"kind": "text", "content": "这首前奏太好听了，晚上循环一整晚 🌙"})
    picture = upload(server, breeze, png(240, 180, (255, 159, 67), to=(236, 65, 65)))
    send(breeze, me, {"kind": "image", "fileId": picture["id"]})
    send(breeze, me, {"kind": "text", "content": "现场拍的，灯光超美！"})
    sheet = api("POST", server.url + "/v1/sheets", {"title": "雨天的歌"}, token=mia["session"])
    api("POST", server.url + f"/v1/sheets/{sheet['id']}/relations", {"songIds": [songs["雨后彩虹"]["id"], songs["一把伞"]["id"]]},
        token=mia["session"])
    send(me, mia, {"kind": "text", "content": "Do you have a playlist for rainy days?"})
    send(mia, me, {"kind": "sheet", "sheetId": sheet["id"]})
    send(south, me, {"kind": "text", "content": "“晚风吹散了白天的喧嚣”"})
    send(south, me, {"kind": "text", "content": "这句歌词写得真好"})
    send(south, me, {"kind": "text", "content": "下次一起去听现场吧"})
    conversations = api("GET", server.url + "/v1/conversations", token=me["session"])["data"]
    return {"me": me, "breeze": breeze, "song": songs["晚风"],
            "with_breeze": next(c["id"] for c in conversations if c["user"]["id"] == breeze["userId"])}


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390x844", "1440x900"])
def test_screenshots_of_the_conversation_list_and_the_chat(browser, server, chats, viewport, theme):
    size = f"{viewport['width']}x{viewport['height']}"
    page = new_page(browser, server.url, viewport=viewport, theme=theme, user=chats["me"])
    page.goto("/messages")
    expect(page.locator(".conv")).to_have_count(3)
    expect(page.locator(".conv", has_text="南山").locator(".conv-badge")).to_have_text("3")
    shoot(page, "50-messages", size, theme)
    # The chat while a song plays (the mini player or the player bar stays below the writing box).
    page.evaluate("(song) => window.cloudmusic.engine.playList([song], 0)", chats["song"])
    page.locator(".conv", has_text="夏夜晚风").locator(".conv-link").click()
    expect(page.locator(".msg.theirs .msg-pic img")).to_be_visible()
    expect(page.locator(".msg.mine .song-card")).to_be_visible()
    composer = page.locator(".chat-composer").bounding_box()
    player = page.locator("#mini").bounding_box()
    assert composer["y"] + composer["height"] <= player["y"] + 1, (composer, player)
    page.locator(".chat-input").fill("那就说定了！")
    shoot(page, "51-chat", size, theme)
    close(page)
