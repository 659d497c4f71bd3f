"""Finding a song and playing it: search with suggestions, the play page, lyrics and karaoke, seeking."""
from conftest import playing_time, wait_playing


def search_and_play(page, text, title):
    page.goto("/search")
    box = page.locator(".search-input")
    box.fill(text)
    # Suggestions arrive after the 150 ms pause.
    page.locator(".suggest", has_text=title).first.wait_for()
    box.press("Enter")
    row = page.locator(".results .song-row", has_text=title).first
    row.locator(".song-main").click()
    wait_playing(page)


def test_search_a_chinese_title_and_play_it(page):
    search_and_play(page, "雨后", "雨后彩虹")
    assert "/search?q=" in page.url
    # The playing row is marked, and the mini player shows the song.
    page.locator(".results .song-row.is-playing", has_text="雨后彩虹").wait_for()
    assert page.locator(".mini-title").inner_text() == "雨后彩虹"
    src = page.evaluate("document.querySelector('audio[data-active]').src")
    assert "/v1/songs/" in src and "/stream" in src
    # The search is remembered on the device.
    page.goto("/search")
    page.locator(".chip", has_text="雨后").wait_for()


def test_stale_suggestions_are_dropped(page):
    page.goto("/search")
    # Hold back the answer for the first text so that it arrives after the second one's.
    page.route("**/v1/searches/suggests?*", lambda route: (
        page.wait_for_timeout(1200) if "q=%E9%9B%A8" in route.request.url and "%E5%90%8E" not in route.request.url else None,
        route.continue_()))
    box = page.locator(".search-input")
    box.type("雨")
    page.wait_for_timeout(300)
    box.fill("山海")
    page.locator(".suggest", has_text="山海").first.wait_for()
    page.wait_for_timeout(1500)
    texts = page.locator(".suggest").all_inner_texts()
    assert all("雨" not in text for text in texts), texts


def test_lyrics_follow_playback_with_karaoke_fill_and_seek_by_tapping_a_line(page):
    search_and_play(page, "雨后彩虹", "雨后彩虹")
    page.locator(".mini-open").click()
    page.wait_for_url("**/play")
    page.locator(".disc-stage").click()
    lines = page.locator(".lyric-pane .lyric-line")
    lines.first.wait_for()
    assert lines.count() == 4
    # KSC: every line is word-timed.
    assert page.locator(".lyric-pane .lyric-line.timed").count() == 4
    current = page.locator(".lyric-pane .lyric-line.current")
    current.wait_for(timeout=20000)
    first = int(current.get_attribute("data-i"))

    # The fill of the current word grows from one frame to the next ones.
    def fill():
        return page.evaluate("""() => {
            const w = document.querySelector('.lyric-pane .lyric-line.current .w.active');
            if (!w) return null;
            return { word: Number(w.dataset.w), p: parseFloat(w.style.getPropertyValue('--p')) };
        }""")
    page.wait_for_function("() => document.querySelector('.lyric-pane .lyric-line.current .w.active') !== null")
    before = fill()
    page.wait_for_function(
        """(before) => {
            const w = document.querySelector('.lyric-pane .lyric-line.current .w.active');
            if (!w) return false;
            const p = parseFloat(w.style.getPropertyValue('--p'));
            return Number(w.dataset.w) > before.word || p > before.p;
        }""", arg=before)

    # The current line moves on as the song plays (a line every 5 s).
    page.wait_for_function(f"() => Number(document.querySelector('.lyric-pane .lyric-line.current')?.dataset.i) > {first}", timeout=20000)

    # Tapping the last line seeks there.
    last = lines.nth(3)
    start = int(last.get_attribute("data-start")) / 1000
    last.click()
    page.wait_for_function(f"() => document.querySelector('audio[data-active]').currentTime >= {start - 0.05}")
    page.wait_for_function("() => document.querySelector('.lyric-pane .lyric-line.current')?.dataset.i === '3'")
    assert playing_time(page) < start + 3


def test_a_song_in_a_format_the_browser_cannot_play_is_converted(browser, server):
    from conftest import new_page
    page = new_page(browser, server.url)
    # This browser "cannot play" AAC in MP4: the player must ask the server for a conversion.
    page.context.add_init_script("""
        const original = HTMLMediaElement.prototype.canPlayType;
        HTMLMediaElement.prototype.canPlayType = function (type) {
            return /mp4|aac/.test(type) ? '' : original.call(this, type);
        };""")
    search_and_play(page, "雨后彩虹", "雨后彩虹")
    src = page.evaluate("document.querySelector('audio[data-active]').src")
    assert "format=opus" in src, src
    assert not page.errors, page.errors
    page.context.close()
