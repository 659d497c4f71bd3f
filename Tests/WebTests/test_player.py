"""The player: the mini player across pages, next and previous, loop modes, the queue drawer, the lock
screen's metadata, keyboard shortcuts and reduced motion."""
from conftest import new_page, playing_time, wait_playing, DESKTOP


def play_album(page, title="城市夜曲", index=0):
    """Opens an album from search and plays its song at `index`."""
    page.goto(f"/search?q={title}&tab=albums")
    page.locator(".results .card", has_text=title).first.click()
    page.wait_for_url("**/album/*")
    page.locator(".detail-body .song-row").nth(index).locator(".song-main").click()
    wait_playing(page)


def current_title(page):
    return page.evaluate("() => window.cloudmusic.engine.song?.title")


def test_navigation_never_stops_the_music(page):
    play_album(page)
    # One song again and again: no hand-over to the spare element while the pages change.
    page.evaluate("() => window.cloudmusic.engine.setMode('single')")
    page.evaluate("() => { document.querySelector('audio[data-active]').dataset.marker = 'the-one'; }")
    before = playing_time(page)
    for target in ["/mine", "/", "/search", "/browse/genres", "/settings"]:
        page.evaluate("(to) => window.cloudmusic.navigate(to)", target)
        page.wait_for_function("(to) => location.pathname === to", arg=target)
        assert page.locator(".mini-player").is_visible()
    page.locator(".mini-open").click()
    page.wait_for_url("**/play")
    page.go_back()
    page.wait_for_url("**/settings")
    page.locator(".back-btn").click()
    same = page.evaluate("() => document.querySelector('audio[data-active]').dataset.marker")
    assert same == "the-one"
    page.wait_for_function("(before) => { const a = document.querySelector('audio[data-active]'); return !a.paused && a.currentTime > before + 0.5; }", arg=before)


def test_next_previous_and_the_play_page_controls(page):
    play_album(page)
    assert current_title(page) == "霓虹灯下"
    page.locator(".mini-open").click()
    page.wait_for_url("**/play")
    page.locator(".ctl-next").click()
    page.wait_for_function("() => window.cloudmusic.engine.song?.title === '晚风'")
    wait_playing(page)
    assert page.locator(".play-title").inner_text() == "晚风"
    page.locator(".ctl-prev").click()
    page.wait_for_function("() => window.cloudmusic.engine.song?.title === '霓虹灯下'")
    wait_playing(page)
    # Previous from the first song wraps to the last.
    page.locator(".ctl-prev").click()
    page.wait_for_function("() => window.cloudmusic.engine.song?.title === '回声 (feat. 林小雨)'")
    # Pause stops the record where it is; play goes on.
    page.locator(".ctl-toggle").click()
    page.wait_for_function("() => document.querySelector('audio[data-active]').paused")
    page.wait_for_function("() => !document.querySelector('.play-page').classList.contains('is-playing')")
    page.locator(".ctl-toggle").click()
    wait_playing(page, past=0)


def test_loop_modes(page):
    play_album(page, index=1)
    page.locator(".mini-open").click()
    mode = page.locator(".ctl-mode")
    assert mode.get_attribute("data-mode") == "list"
    mode.click()
    assert mode.get_attribute("data-mode") == "single"
    # One song: at its end the same song starts again.
    duration = page.evaluate("() => document.querySelector('audio[data-active]').duration")
    page.evaluate("(d) => { document.querySelector('audio[data-active]').currentTime = d - 0.6; }", duration)
    page.wait_for_function("() => document.querySelector('audio[data-active]').currentTime < 3 && !document.querySelector('audio[data-active]').paused")
    assert current_title(page) == "晚风"
    mode.click()
    assert mode.get_attribute("data-mode") == "shuffle"
    # Shuffle plays every other song once before any repeats, and previous walks back.
    seen = [current_title(page)]
    for _ in range(5):
        page.locator(".ctl-next").click()
        page.wait_for_function("(seen) => !seen.includes(window.cloudmusic.engine.song?.title)", arg=seen)
        seen.append(current_title(page))
    assert len(set(seen)) == 6
    page.locator(".ctl-prev").click()
    page.wait_for_function("(t) => window.cloudmusic.engine.song?.title === t", arg=seen[-2])
    mode.click()
    assert mode.get_attribute("data-mode") == "list"
    # The mode is kept on the device.
    assert page.evaluate("() => JSON.parse(localStorage.getItem('cm.queue')).queue.mode") == "list"


def test_gapless_the_next_song_is_preloaded_and_takes_over(page):
    play_album(page, index=2)  # 地铁站, 25 s
    page.wait_for_function("() => window.cloudmusic.engine.preloaded?.ready === true", timeout=30000)
    # The spare element holds the next song, loaded; when this one ends, that same element plays on.
    page.evaluate("() => { document.querySelector('audio:not([data-active])').dataset.marker = 'spare'; }")
    spare = page.evaluate("() => document.querySelector('audio:not([data-active])').src")
    assert "/v1/songs/" in spare
    duration = page.evaluate("() => document.querySelector('audio[data-active]').duration")
    page.evaluate("(d) => { document.querySelector('audio[data-active]').currentTime = d - 0.5; }", duration)
    page.wait_for_function("() => window.cloudmusic.engine.song?.title === '天亮以前'")
    wait_playing(page, past=0.2)
    assert page.evaluate("() => document.querySelector('audio[data-active]').dataset.marker") == "spare"
    assert page.evaluate("() => document.querySelector('audio[data-active]').src") == spare
    # The element that finished is emptied, ready to hold the song after this one.
    assert page.evaluate("() => document.querySelector('audio:not([data-active])').getAttribute('src')") in (None, "")


def test_next_takes_the_preloaded_song_too(page):
    play_album(page, index=3)
    page.wait_for_function("() => window.cloudmusic.engine.preloaded?.ready === true", timeout=30000)
    page.evaluate("() => { document.querySelector('audio:not([data-active])').dataset.marker = 'spare'; }")
    page.locator(".mini-next").click()
    page.wait_for_function("() => window.cloudmusic.engine.song?.title === '旧照片'")
    wait_playing(page, past=0.1)
    assert page.evaluate("() => document.querySelector('audio[data-active]').dataset.marker") == "spare"


def test_the_queue_drawer_reorders_and_removes(page):
    play_album(page)
    page.locator(".mini-queue").click()
    rows = page.locator(".queue-drawer .queue-row")
    rows.first.wait_for()
    # The drawer slides in: measure the rows once it is still.
    page.wait_for_function("() => document.querySelector('.queue-drawer').getAnimations().every((a) => a.playState === 'finished')")
    assert rows.count() == 6
    titles = lambda: [t.split(" - ")[0].strip() for t in page.locator(".queue-drawer .queue-song").all_inner_texts()]
    assert titles()[:3] == ["霓虹灯下", "晚风", "地铁站"]
    # Drag the third song to the top by its handle.
    handle = rows.nth(2).locator(".queue-handle")
    box = handle.bounding_box()
    height = rows.nth(0).bounding_box()["height"]
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    for step in range(1, 11):
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2 - step * height * 0.2)
    page.mouse.up()
    page.wait_for_function("() => window.cloudmusic.engine.queue.items[0].song.title === '地铁站'")
    assert titles()[:3] == ["地铁站", "霓虹灯下", "晚风"]
    # Alt+Down on a handle moves a song down by one.
    rows.nth(0).locator(".queue-handle").focus()
    page.keyboard.press("ArrowDown")
    page.wait_for_function("() => window.cloudmusic.engine.queue.items[1].song.title === '地铁站'")
    # Remove one; the playing one stays playing.
    rows.nth(5).locator(".queue-remove").click()
    page.wait_for_function("() => window.cloudmusic.engine.queue.items.length === 5")
    assert current_title(page) == "霓虹灯下"
    # The drawer's loop mode button cycles the mode.
    page.locator(".queue-mode").click()
    page.wait_for_function("() => window.cloudmusic.engine.mode === 'single'")
    page.locator(".queue-close").click()
    assert page.evaluate("() => JSON.parse(localStorage.getItem('cm.queue')).queue.items.length") == 5


def test_media_session_has_the_song_and_its_artwork(page):
    play_album(page, "雨后")
    metadata = page.evaluate("""() => {
        const m = navigator.mediaSession.metadata;
        return { title: m.title, artist: m.artist, album: m.album, artwork: m.artwork.map((a) => a.sizes),
                 state: navigator.mediaSession.playbackState };
    }""")
    assert metadata["title"] == "雨后彩虹"
    assert metadata["artist"] == "林小雨"
    assert metadata["album"] == "雨后"
    assert metadata["artwork"] == ["128x128", "256x256", "512x512"]
    assert metadata["state"] == "playing"


def test_keyboard_shortcuts_on_the_desktop(browser, server):
    page = new_page(browser, server.url, viewport=DESKTOP)
    play_album(page)
    page.locator("body").click(position={"x": 700, "y": 10})
    page.keyboard.press("Space")
    page.wait_for_function("() => document.querySelector('audio[data-active]').paused")
    page.keyboard.press("Space")
    wait_playing(page, past=0)
    before = playing_time(page)
    page.keyboard.press("ArrowRight")
    page.wait_for_function("(b) => document.querySelector('audio[data-active]').currentTime > b + 4", arg=before)
    page.keyboard.press("Control+ArrowRight")
    page.wait_for_function("() => window.cloudmusic.engine.song?.title === '晚风'")
    page.keyboard.press("/")
    page.wait_for_url("**/search")
    page.wait_for_function("() => document.activeElement?.classList.contains('search-input')")
    assert not page.errors, page.errors
    page.context.close()


def test_reduced_motion_stops_the_record(browser, server):
    page = new_page(browser, server.url, reduced_motion="reduce")
    play_album(page)
    page.locator(".mini-open").click()
    page.locator(".disc-spin").wait_for()
    assert page.evaluate("() => getComputedStyle(document.querySelector('.disc-spin')).animationName") == "none"
    page.context.close()


def test_the_record_turns_only_while_playing(page):
    play_album(page)
    page.locator(".mini-open").click()
    page.locator(".disc-spin").wait_for()
    state = lambda: page.evaluate("() => getComputedStyle(document.querySelector('.disc-spin')).animationPlayState")
    arm = lambda: page.evaluate("() => getComputedStyle(document.querySelector('.tonearm')).transform")
    assert state() == "running"
    playing_arm = arm()
    page.locator(".ctl-toggle").click()
    page.wait_for_function("() => getComputedStyle(document.querySelector('.disc-spin')).animationPlayState === 'paused'")
    page.wait_for_function("(a) => getComputedStyle(document.querySelector('.tonearm')).transform !== a", arg=playing_arm)


def test_swiping_the_record_changes_the_song(page):
    play_album(page)
    page.locator(".mini-open").click()
    stage = page.locator(".disc-stage")
    stage.wait_for()
    page.wait_for_function("() => document.querySelector('.disc').getAnimations().every((a) => a.playState === 'finished')")
    box = stage.bounding_box()
    y = box["y"] + box["height"] / 2

    def swipe(from_x, to_x):
        page.mouse.move(from_x, y)
        page.mouse.down()
        for step in range(1, 9):
            page.mouse.move(from_x + (to_x - from_x) * step / 8, y)
        page.mouse.up()

    swipe(box["x"] + box["width"] * 0.85, box["x"] + box["width"] * 0.1)
    page.wait_for_function("() => window.cloudmusic.engine.song?.title === '晚风'")
    page.wait_for_function("() => document.querySelector('.play-title').textContent === '晚风'")
    page.wait_for_function("() => document.querySelector('.disc').getAnimations().every((a) => a.playState === 'finished')")
    swipe(box["x"] + box["width"] * 0.1, box["x"] + box["width"] * 0.85)
    page.wait_for_function("() => window.cloudmusic.engine.song?.title === '霓虹灯下'")
    # A tap (no swipe) shows the lyrics instead.
    stage.click()
    page.wait_for_function("() => document.querySelector('.play-main').dataset.view === 'lyric'")


def test_play_next_and_add_to_the_queue_from_a_song_menu(page):
    play_album(page)
    page.goto("/search?q=%E5%B1%B1%E6%B5%B7")
    # A page load restores the queue without playing; the menu's actions work on it all the same.
    row = page.locator(".results .song-row", has_text="山海").first
    row.locator(".song-more").click()
    page.locator(".sheet-item", has_text="下一首播放").click()
    page.locator(".toast", has_text="将在下一首播放").wait_for()
    row.locator(".song-more").click()
    page.locator(".sheet-item", has_text="添加到播放列表").click()
    page.wait_for_function("() => window.cloudmusic.engine.queue.length === 8")
    titles = page.evaluate("() => window.cloudmusic.engine.queue.items.map((i) => i.song.title)")
    assert titles[0] == "霓虹灯下" and titles[1] == "山海" and titles[-1] == "山海"
    page.locator(".mini-toggle").click()
    wait_playing(page, past=0)
    page.locator(".mini-next").click()
    page.wait_for_function("() => window.cloudmusic.engine.song?.title === '山海'")
