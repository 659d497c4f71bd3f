"""The social side of the web player (issue 20): comments, moments, people, notifications, videos, settings
and the first run, each through its main path and its bad input, with two people in two browser contexts
where one's action must reach the other."""
import json
import re

import pytest
from playwright.sync_api import expect

from conftest import SCREENSHOTS, api, http, new_page, png


@pytest.fixture(scope="module")
def people(server):
    """Two people who know each other: 阿安 (A) and Bob (B), B following A."""
    a = server.account("social-a@example.com", "阿安")
    b = server.account("social-b@example.com", "Bob")
    api("POST", server.url + "/v1/friends", {"userId": a["userId"]}, token=b["session"])
    api("POST", server.url + "/v1/friends", {"userId": b["userId"]}, token=a["session"])
    songs = api("GET", server.url + "/v1/songs?size=30&sort=name")["data"]
    return {"a": a, "b": b, "song": songs[0], "songs": songs}


def close(page):
    assert not page.errors, page.errors
    page.context.close()


def test_comment_with_emoji_mention_and_topic_then_like_reply_delete_and_refuse_too_long(browser, server, people):
    a, b, song = people["a"], people["b"], people["song"]
    page = new_page(browser, server.url, user=a)
    posts = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" and "/v1/comments" in r.url else None)
    page.goto(f"/comments/song/{song['id']}")
    page.locator(".comment-subject", has_text=song["title"]).wait_for()
    page.locator(".comment-foot .empty, .comment-list .empty").first.wait_for()
    # The emoji picker, then the friend picker (friends first), then the topic picker.
    page.locator(".composer-tool[data-tool=emoji]").click()
    page.locator(".emoji", has_text="🎵").click()
    page.locator(".composer-tool[data-tool=mention]").click()
    page.locator(".mention-list .picker-item", has_text="Bob").click()
    page.locator(".composer-tool[data-tool=topic]").click()
    page.fill(".picker-search", "夜听")
    page.press(".picker-search", "Enter")
    page.locator(".composer-input").press("End")
    page.locator(".composer-input").type("好听")
    expect(page.locator(".composer-input")).to_have_value("🎵@Bob #夜听# 好听")
    page.locator(".composer-send").click()
    first = page.locator(".comment").first
    # The emoji before them does not shift the links drawn from the server's UTF-16 ranges.
    expect(first.locator(".rich-link.mention")).to_have_text("@Bob")
    expect(first.locator(".rich-link.mention")).to_have_attribute("href", f"/user/{b['userId']}")
    expect(first.locator(".rich-link.topic")).to_have_text("#夜听#")
    # Like and unlike.
    first.locator(".comment-like").click()
    expect(first.locator(".comment-like")).to_have_attribute("aria-pressed", "true")
    expect(first.locator(".like-count")).to_have_text("1")
    first.locator(".comment-like").click()
    expect(first.locator(".comment-like")).to_have_attribute("aria-pressed", "false")
    # A reply quotes its parent.
    first.locator(".comment-reply").click()
    expect(page.locator(".composer-reply")).to_be_visible()
    page.locator(".composer-input").fill("自己回复自己")
    page.locator(".composer-send").click()
    reply = page.locator(".comment", has_text="自己回复自己")
    expect(reply.locator(".comment-quote")).to_contain_text("🎵@Bob #夜听# 好听")
    # Reporting.
    reply.locator(".comment-more").click()
    page.locator(".sheet-item", has_text="举报").click()
    page.fill("dialog input[name=value]", "测试举报")
    page.locator("dialog .pill-btn.primary").click()
    expect(page.locator("#toast")).to_have_text("已举报，感谢反馈")
    # Deleting one's own.
    reply.locator(".comment-delete").click()
    page.locator("dialog .pill-btn.primary").click()
    expect(page.locator(".comment", has_text="自己回复自己")).to_have_count(0)
    # Over 1,000 characters: refused in the page, nothing sent.
    sent = len(posts)
    page.locator(".composer-input").fill("长" * 1001)
    expect(page.locator(".composer-error")).to_have_text("最多 1000 字")
    expect(page.locator(".composer-send")).to_be_disabled()
    page.locator(".composer-input").press("Enter")
    assert len(posts) == sent
    # The hot and new tabs both list it.
    page.locator("[data-order=new]").click()
    expect(page.locator(".comment").first).to_contain_text("好听")
    close(page)


def test_b_reply_like_and_mention_reach_a_inbox_and_open_their_cause(browser, server, people):
    a, b, song = people["a"], people["b"], people["songs"][1]
    comment = api("POST", server.url + "/v1/comments", {"content": "A 的评论", "songId": song["id"]}, token=a["session"])
    inbox_a = new_page(browser, server.url, user=a)
    inbox_a.goto("/")
    inbox_a.locator(".tabbar .tab", has_text="通知").wait_for()
    page_b = new_page(browser, server.url, user=b)
    page_b.goto(f"/comments/song/{song['id']}")
    row = page_b.locator(".comment", has_text="A 的评论")
    row.locator(".comment-like").click()
    expect(row.locator(".comment-like")).to_have_attribute("aria-pressed", "true")
    row.locator(".comment-reply").click()
    page_b.locator(".composer-input").fill("B 的回复")
    page_b.locator(".composer-send").click()
    page_b.locator(".comment", has_text="B 的回复").wait_for()
    page_b.locator(".composer-input").fill("@阿安 快来听")
    page_b.locator(".composer-send").click()
    expect(page_b.locator(".comment", has_text="快来听").locator(".rich-link.mention")).to_have_attribute("href", f"/user/{a['userId']}")
    # A's app asks again when it comes back into view: the badge counts the reply, the like and the mention.
    badge = inbox_a.locator(".tabbar .badge-slot")
    inbox_a.wait_for_function(
        "() => { window.dispatchEvent(new Event('focus')); return Number(document.querySelector('.tabbar .badge-slot').textContent) >= 3; }",
        polling=500, timeout=20000)
    inbox_a.locator(".tabbar .tab", has_text="通知").click()
    notices = inbox_a.locator(".notice")
    expect(inbox_a.locator(".notice.unread", has_text="回复了你")).to_have_count(1)
    expect(inbox_a.locator(".notice.unread", has_text="赞了你的评论")).to_have_count(1)
    expect(inbox_a.locator(".notice.unread", has_text="在评论中提到了你")).to_have_count(1)
    # By kind.
    inbox_a.locator(".inbox-tabs .tab-link", has_text="@我").click()
    expect(notices).to_have_count(1)
    expect(notices.first).to_contain_text("快来听")
    # Opening it marks it read and goes to the comments it is about.
    notices.first.locator(".notice-main").click()
    inbox_a.wait_for_url(f"**/comments/song/{song['id']}")
    inbox_a.locator(".comment", has_text="快来听").wait_for()
    inbox_a.go_back()
    inbox_a.locator(".mark-all").click()
    expect(inbox_a.locator(".notice.unread")).to_have_count(0)
    expect(badge).to_be_hidden()
    close(inbox_a)
    close(page_b)


def test_a_moment_with_three_pictures_shows_in_b_timeline_with_the_viewer(browser, server, people):
    a, b = people["a"], people["b"]
    page = new_page(browser, server.url, user=a)
    page.goto("/moments")
    page.locator(".new-moment").click()
    page.wait_for_url("**/moments/new")
    pictures = [{"name": f"p{i}.png", "mimeType": "image/png", "buffer": png(64 + i * 10, 48, c)}
                for i, c in enumerate([(236, 65, 65), (67, 97, 238), (42, 157, 143)])]
    page.locator(".post-file").set_input_files(pictures)
    expect(page.locator(".post-pic.done")).to_have_count(3, timeout=20000)
    page.locator(".composer-input").fill("周末的海边 #夏天#")
    page.fill(".place-input", "西湖")
    page.locator(".composer-send").click()
    page.wait_for_url("**/moments?tab=following")
    close(page)

    page_b = new_page(browser, server.url, user=b)
    page_b.goto("/moments?tab=following")
    moment = page_b.locator(".moment", has_text="周末的海边")
    expect(moment.locator(".pic")).to_have_count(3)
    expect(moment.locator(".moment-place")).to_have_text("西湖")
    expect(moment.locator(".rich-link.topic")).to_have_text("#夏天#")
    page_b.wait_for_function("() => [...document.querySelectorAll('.moment .pic img')].every((i) => i.complete && i.naturalWidth > 0)")
    # The full-screen viewer, swiped to the second picture.
    moment.locator(".pic").nth(1).click()
    viewer = page_b.locator(".pic-viewer")
    expect(viewer.locator(".viewer-count")).to_have_text("2 / 3")
    page_b.keyboard.press("ArrowRight")
    expect(viewer.locator(".viewer-count")).to_have_text("3 / 3")
    page_b.keyboard.press("Escape")
    expect(viewer).to_have_count(0)
    # B likes it and comments on it.
    moment.locator(".moment-like").click()
    expect(moment.locator(".moment-like")).to_have_attribute("aria-pressed", "true")
    moment.locator(".moment-comments").click()
    page_b.wait_for_url("**/moment/*")
    page_b.locator(".composer-input").fill("真好看")
    page_b.locator(".composer-send").click()
    page_b.locator(".comment", has_text="真好看").wait_for()
    close(page_b)


def test_an_upload_that_is_not_a_picture_is_refused(browser, server, people):
    page = new_page(browser, server.url, user=people["a"])
    page.goto("/moments/new")
    page.locator(".post-file").set_input_files([{"name": "notes.txt", "mimeType": "text/plain", "buffer": b"hello"}])
    expect(page.locator(".post-error")).to_have_text("“notes.txt”不是图片")
    expect(page.locator(".post-pic")).to_have_count(0)
    # Named and typed as a picture, but not one.
    page.locator(".post-file").set_input_files([{"name": "fake.png", "mimeType": "image/png", "buffer": b"not a png at all"}])
    expect(page.locator(".post-error")).to_have_text("“fake.png”不是图片")
    expect(page.locator(".post-pic.failed")).to_have_count(1)
    # The avatar too.
    page.goto("/mine/profile")
    page.locator(".avatar-file").set_input_files([{"name": "a.pdf", "mimeType": "application/pdf", "buffer": b"%PDF-1.4"}])
    expect(page.locator(".profile-edit .form-error")).to_have_text("“a.pdf”不是图片")
    close(page)


def test_profile_follow_lists_block_and_a_blocked_person_profile(browser, server, people):
    a = people["a"]
    c = server.account("social-c@example.com", "小辰")
    api("POST", server.url + "/v1/feeds", {"content": "小辰的动态"}, token=c["session"])
    page = new_page(browser, server.url, user=a)
    page.goto(f"/user/{c['userId']}")
    expect(page.locator(".user-nick")).to_contain_text("小辰")
    page.locator(".user-tabs .tab-link", has_text="动态").click()
    page.locator(".moment", has_text="小辰的动态").wait_for()
    page.locator(".follow-btn").click()
    expect(page.locator(".follow-btn")).to_have_attribute("aria-pressed", "true")
    expect(page.locator(".followers-count")).to_have_text("1")
    page.locator(".user-counts a", has_text="粉丝").click()
    page.locator(".user-row", has_text="阿安").wait_for()
    page.go_back()
    # Blocking: the profile says so and hides their moments; unblocking brings them back.
    page.locator(".user-more").click()
    page.locator(".sheet-item", has_text="拉黑").click()
    page.locator("dialog .pill-btn.primary").click()
    expect(page.locator(".blocked-note")).to_be_visible()
    expect(page.locator(".moment")).to_have_count(0)
    page.reload()
    expect(page.locator(".blocked-note")).to_be_visible()
    page.goto("/settings/blocks")
    page.locator(".user-row", has_text="小辰").locator(".unblock").click()
    expect(page.locator(".user-row")).to_have_count(0)
    page.goto(f"/user/{c['userId']}?tab=moments")
    page.locator(".moment", has_text="小辰的动态").wait_for()
    expect(page.locator(".follow-btn")).to_be_visible()
    close(page)

    # The blocked side: 小辰 blocks A; A cannot follow them.
    api("POST", server.url + "/v1/blocks", {"userId": a["userId"]}, token=c["session"])
    page = new_page(browser, server.url, user=a)
    page.goto(f"/user/{c['userId']}?tab=moments")
    expect(page.locator(".user-nick")).to_contain_text("小辰")
    expect(page.locator(".moment")).to_have_count(0)
    page.locator(".user-body .empty").wait_for()
    api("DELETE", server.url + f"/v1/blocks/{a['userId']}", token=c["session"])
    close(page)


def test_edit_profile_and_crop_an_avatar(browser, server):
    me = server.account("social-d@example.com", "编辑者")
    page = new_page(browser, server.url, user=me)
    page.goto("/mine/profile")
    page.fill("input[name=nickname]", "新名字")
    page.select_option("select[name=gender]", "20")
    page.fill("input[name=city]", "杭州")
    page.fill("textarea[name=description]", "喜欢听歌")
    page.locator(".edit-form .submit").click()
    page.wait_for_url(f"**/user/{me['userId']}")
    expect(page.locator(".user-nick")).to_contain_text("新名字")
    expect(page.locator(".user-nick .gender")).to_have_text("♀")
    expect(page.locator(".user-bio")).to_have_text("喜欢听歌")
    page.goto("/mine/profile")
    page.locator(".avatar-file").set_input_files([{"name": "wide.png", "mimeType": "image/png", "buffer": png(300, 120, (250, 180, 40))}])
    canvas = page.locator(".crop-canvas")
    canvas.wait_for()
    box = canvas.bounding_box()
    page.mouse.move(box["x"] + 100, box["y"] + 100)
    page.mouse.down()
    page.mouse.move(box["x"] + 60, box["y"] + 100)
    page.mouse.up()
    page.locator(".crop-ok").click()
    expect(page.locator(".avatar-now img")).to_have_count(1)
    page.wait_for_function("() => { const i = document.querySelector('.avatar-now img'); return i && i.complete && i.naturalWidth > 0; }")
    profile = api("GET", server.url + f"/v1/users/{me['userId']}")
    assert profile["icon"]
    close(page)


def test_videos_list_and_the_video_page_with_its_own_controls(browser, server, people):
    page = new_page(browser, server.url, user=people["a"])
    page.goto("/videos")
    card = page.locator(".video-card", has_text="霓虹灯下")
    card.wait_for(timeout=30000)
    card.click()
    page.wait_for_url("**/video/*")
    page.locator(".video-big-play").click()
    page.wait_for_function("() => { const v = document.querySelector('.video-el'); return v && !v.paused && v.currentTime > 0.2; }", timeout=30000)
    expect(page.locator(".v-toggle")).to_have_attribute("aria-label", "暂停")
    page.locator(".v-toggle").click()
    page.wait_for_function("() => document.querySelector('.video-el').paused")
    page.locator(".v-like").click()
    expect(page.locator(".v-like")).to_have_attribute("aria-pressed", "true")
    # The video's own comments (videoId), not its song's.
    video_id = page.url.rstrip("/").split("/")[-1]
    page.locator(".video-comments").scroll_into_view_if_needed()
    page.locator(".composer-input").fill("这个MV拍得好")
    page.locator(".composer-send").click()
    expect(page.locator(".video-comments .comment", has_text="这个MV拍得好")).to_be_visible(timeout=30000)
    status, _, body = http("GET", server.url + f"/v1/comments?videoId={video_id}")
    assert status == 200
    assert [c["content"] for c in json.loads(body)["data"]["data"]] == ["这个MV拍得好"]
    close(page)


def test_settings_quality_sign_out_everywhere_and_delete_account(browser, server):
    me = server.account("social-e@example.com", "设置者")
    other = api("POST", server.url + "/v1/sessions", {"email": "social-e@example.com", "password": "correct horse 42"})
    page = new_page(browser, server.url, user=me)
    page.goto("/settings")
    page.locator(".seg[data-setting=quality][data-value='320']").click()
    assert page.evaluate("() => JSON.parse(localStorage.getItem('cm.quality'))") == "320"
    page.locator(".sign-out-all").click()
    page.locator("dialog .pill-btn.primary").click()
    page.wait_for_function("() => !localStorage.getItem('cm.user')")
    status, _, _ = http("GET", server.url + "/v1/sessions", token=other["session"])
    assert status == 401
    close(page)

    gone = server.account("social-f@example.com", "要走的人")
    page = new_page(browser, server.url, user=gone)
    page.goto("/settings")
    page.locator(".delete-account").click()
    page.fill("dialog input[name=value]", "wrong password 1")
    page.locator("dialog .pill-btn.primary").click()
    expect(page.locator("#toast")).not_to_have_text("账号已注销")
    page.locator(".delete-account").click()
    page.fill("dialog input[name=value]", "correct horse 42")
    page.locator("dialog .pill-btn.primary").click()
    page.wait_for_function("() => !localStorage.getItem('cm.user')")
    status, _, _ = http("GET", server.url + f"/v1/users/{gone['userId']}")
    assert status == 404
    close(page)


def test_first_run_terms_guide_then_the_splash_ad_on_the_next_start(browser, discovery_server):
    me = discovery_server.account("first@example.com", "新人")
    page = new_page(browser, discovery_server.url, first_run=True, user=me)
    page.goto("/")
    dialog = page.locator(".terms-dialog")
    expect(dialog.locator(".terms-doc")).to_have_count(2)
    dialog.locator(".terms-decline").click()
    expect(dialog).to_contain_text("你需要同意条款才能使用云音乐")
    dialog.locator(".terms-reopen").click()
    dialog.locator(".terms-accept").click()
    expect(dialog).to_have_count(0)
    # The guide: swipe through, or skip.
    guide = page.locator(".guide")
    expect(guide).to_be_visible()
    page.keyboard.press("ArrowRight")
    expect(guide.locator(".guide-dots .dot").nth(1)).to_have_class(re.compile("on"))
    guide.locator(".guide-skip").click()
    expect(guide).to_have_count(0)
    # The acceptance is recorded on the server.
    page.wait_for_function(
        "async (token) => (await (await fetch('/v1/terms', { headers: { Authorization: `Bearer ${token}` } })).json()).data.accepted === true",
        arg=me["session"], polling=200)
    # A reload is not a start: no splash.
    page.reload()
    page.wait_for_function("() => performance.getEntriesByName('cm-first-screen').length > 0")
    expect(page.locator(".splash-ad")).to_have_count(0)
    # The next start (a new tab, as opening the app again): the splash ad, with its countdown to skip.
    first = page
    page = first.context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.goto("/")
    splash = page.locator(".splash-ad")
    expect(splash.locator(".splash-skip")).to_have_text(re.compile(r"跳过 [123]"))
    expect(page.locator(".terms-dialog")).to_have_count(0)
    splash.locator(".splash-skip").click()
    expect(splash).to_have_count(0)
    # Left alone, it goes by itself.
    page = first.context.new_page()
    page.errors = []
    page.goto("/")
    expect(page.locator(".splash-ad")).to_be_visible()
    expect(page.locator(".splash-ad")).to_have_count(0, timeout=8000)
    close(page)


def test_comments_load_more_by_cursor_on_a_sheet(browser, server, people):
    a, b = people["a"], people["b"]
    sheet = api("POST", server.url + "/v1/sheets", {"title": "评论很多的歌单"}, token=a["session"])
    # Five people write five each: one person may write five comments a minute.
    writers = [server.account(f"writer-{n}@example.com", f"写手{n}") for n in range(5)]
    for i in range(25):
        api("POST", server.url + "/v1/comments", {"content": f"第{i + 1}条", "sheetId": sheet["id"]},
            token=writers[i // 5]["session"])
    page = new_page(browser, server.url, user=a)
    requests = []
    page.on("request", lambda r: requests.append(r.url) if "/v1/comments?" in r.url else None)
    page.goto(f"/sheet/{sheet['id']}")
    page.locator(".head-action[data-head=comments]").click()
    page.wait_for_url(f"**/comments/sheet/{sheet['id']}")
    expect(page.locator(".top-title")).to_have_text("评论（25）")
    page.locator("[data-order=new]").click()
    expect(page.locator(".comment")).to_have_count(20)
    expect(page.locator(".comment").first).to_contain_text("第25条")
    page.locator(".load-more").click()
    expect(page.locator(".comment")).to_have_count(25)
    expect(page.locator(".comment").last).to_contain_text("第1条")
    expect(page.locator(".comment-foot")).to_contain_text("没有更多了")
    assert "cursor=" in requests[-1]
    close(page)


def test_nearby_moments_with_the_browser_position_and_without_it(browser, server, people):
    a, b = people["a"], people["b"]
    api("POST", server.url + "/v1/feeds", {"content": "西湖边的晚风", "place": "西湖", "latitude": 30.2431, "longitude": 120.1500},
        token=a["session"])
    page = new_page(browser, server.url, user=b)
    page.context.grant_permissions(["geolocation"])
    page.context.set_geolocation({"latitude": 30.2500, "longitude": 120.1600})
    page.goto("/moments?tab=nearby")
    moment = page.locator(".moment", has_text="西湖边的晚风")
    expect(moment.locator(".moment-time")).to_contain_text("km")
    close(page)
    # Without the permission: said plainly, no error.
    page = new_page(browser, server.url, user=b)
    page.goto("/moments?tab=nearby")
    expect(page.locator(".moments-body .empty")).to_contain_text("没有定位权限")
    close(page)


def test_the_social_screens_speak_english_when_the_browser_does(browser, server, people):
    a, song = people["a"], people["songs"][2]
    page = new_page(browser, server.url, user=a, locale="en-US")
    page.goto(f"/comments/song/{song['id']}")
    expect(page.locator(".comment-tabs")).to_contain_text("Hot")
    expect(page.locator(".composer-input")).to_have_attribute("placeholder", "Say something…")
    page.goto("/inbox")
    expect(page.locator(".inbox-tabs")).to_contain_text("Mentions")
    expect(page.locator(".tabbar")).to_contain_text("Moments")
    expect(page.locator(".tabbar")).to_contain_text("Inbox")
    page.goto("/moments")
    expect(page.locator(".moment-tabs")).to_contain_text("Everyone")
    page.screenshot(path=str(SCREENSHOTS / "43-moments-english-390x844-light.png"))
    close(page)


def test_app_passwords_for_subsonic_apps_are_made_shown_once_and_revoked(browser, server):
    me = server.account("social-app@example.com", "听歌的人")
    page = new_page(browser, server.url, user=me)
    page.goto("/settings")
    page.locator(".app-passwords-link").click()
    page.wait_for_url("**/settings/app-passwords")
    expect(page.locator(".app-passwords")).to_contain_text("还没有应用密码")
    page.locator(".make").click()
    page.fill("dialog input[name=value]", "我的手机")
    page.locator("dialog .pill-btn.primary").click()
    secret = page.locator("dialog .new-app-password")
    expect(secret).to_be_visible()
    password = secret.inner_text().strip()
    assert len(password) >= 16
    page.screenshot(path=str(SCREENSHOTS / "44-app-password-made-390-light.png"))
    page.locator("dialog .done").click()
    expect(page.locator(".app-password-name")).to_have_text("我的手机")

    def ping():
        from urllib.parse import quote
        status, _, body = http("GET", server.url + f"/rest/ping.view?u={quote('听歌的人')}&p={quote(password)}&v=1.16.1&c=test&f=json")
        assert status == 200
        return json.loads(body)["subsonic-response"]

    assert ping()["status"] == "ok"
    page.locator(".revoke").click()
    page.locator("dialog .pill-btn.primary").click()
    expect(page.locator(".app-password")).to_have_count(0)
    refused = ping()
    assert refused["status"] == "failed" and refused["error"]["code"] == 40
    close(page)
