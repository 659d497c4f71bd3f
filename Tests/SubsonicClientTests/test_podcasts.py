"""Subsonic apps' podcast pages, through two of the client libraries the suite already drives (py-opensonic and
py-sonic): the administrator adds a channel with createPodcastChannel, every library lists it with
its episodes, the newest episodes and one episode by id, an episode streams with Range, and a place saved with
createBookmark (and a scrobble) is the person's episode progress that the v1 API (the web player, the SDK) reads.

knuckles 1.1, the third, cannot read podcasts from any server: it takes getPodcasts' `podcasts` for the list of
channels (the API has `podcasts.channel`), and its Episode refuses the song fields (`album`, `size`, ...) that a
PodcastEpisode carries as a Child in the API's schema.

The feed and its episodes come from a local origin on 127.0.0.2 (`--fetch-allow 127.0.0.2/32`), made by ffmpeg.
"""
import os
import pathlib
import subprocess
import sys
import tempfile
import time
import urllib.request

import libopensonic
import libsonic
import pytest

from conftest import ROOT, Server, v1

sys.path.insert(0, str(ROOT / "Tests" / "WebTests"))
from fileorigin import HOST, serve_folder  # noqa: E402  (the web tests' origin, shared)

EPISODES = 3


def feed(base):
    items = "".join(f"""<item><guid isPermaLink="false">subsonic-ep-{n}</guid><title>第{n}集：山与海</title>
      <description>第{n}集的节目简介</description>
      <pubDate>Mon, 0{n} Jun 2026 08:00:00 +0000</pubDate>
      <enclosure url="{base}/episode.mp3" type="audio/mpeg" length="60000"/>
      <itunes:duration>0:10</itunes:duration></item>""" for n in range(1, EPISODES + 1))
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">
<channel><title>山海夜话</title><link>https://example.com/show</link><description>一档关于山与海的播客</description>
<itunes:author>主播小王</itunes:author>{items}</channel></rss>"""


@pytest.fixture(scope="module")
def world():
    folder = tempfile.mkdtemp(prefix="cloudmusic-subsonic-origin-")
    origin, base = serve_folder(folder)
    subprocess.run(["ffmpeg", "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "sine=frequency=330:duration=10",
                    "-ac", "1", "-ar", "22050", "-b:a", "32k", os.path.join(folder, "episode.mp3")], check=True)
    pathlib.Path(folder, "feed.xml").write_text(feed(base))
    server = Server("--fetch-allow", f"{HOST}/32", "--podcast-refresh", "off")
    yield server, f"{base}/feed.xml"
    server.close()
    origin.shutdown()


def session_of(server):
    return v1("POST", server.url + "/v1/sessions", {"email": "ann@example.com", "password": "correct horse 42"})


def test_three_libraries_list_a_channel_an_administrator_added(world):
    server, url = world
    opensonic = libopensonic.Connection("http://127.0.0.1", server.username, server.app_password, port=server.port,
                                        app_name="py-opensonic-tests")
    try:
        assert opensonic.create_podcast_channel(url)
        channels = opensonic.get_podcasts(inc_episodes=True)
        assert [channel.title for channel in channels] == ["山海夜话"]
        channel = channels[0]
        assert channel.id.startswith("pc-") and channel.status.value == "completed"
        episodes = channel.episode
        assert len(episodes) == EPISODES
        assert {episode.title for episode in episodes} == {f"第{n}集：山与海" for n in range(1, EPISODES + 1)}
        assert all(episode.id.startswith("pe-") and episode.channel_id == channel.id for episode in episodes)
        newest = opensonic.get_newest_podcasts(count=2)
        assert [episode.title for episode in newest] == ["第3集：山与海", "第2集：山与海"]
        one = opensonic.get_podcast_episode(newest[0].id)
        assert one.title == "第3集：山与海" and one.channel_id == channel.id
        only = opensonic.get_podcasts(inc_episodes=False, pid=channel.id)
        assert [c.id for c in only] == [channel.id] and not (only[0].episode or [])
    finally:
        opensonic.cleanup()

    sonic = libsonic.Connection("http://127.0.0.1", server.username, server.app_password, port=server.port,
                                appName="py-sonic-tests")
    answer = sonic.getPodcasts(incEpisodes=True)
    channels = answer["podcasts"]["channel"]
    channels = channels if isinstance(channels, list) else [channels]
    assert [c["title"] for c in channels] == ["山海夜话"]
    assert len(channels[0]["episode"]) == EPISODES
    newest = sonic.getNewestPodcasts(count=1)["newestPodcasts"]["episode"]
    newest = newest if isinstance(newest, list) else [newest]
    assert [e["title"] for e in newest] == ["第3集：山与海"]

def test_an_episode_streams_and_its_place_is_the_persons_progress(world):
    server, url = world
    sonic = libsonic.Connection("http://127.0.0.1", server.username, server.app_password, port=server.port,
                                appName="py-sonic-tests")
    if not sonic.getPodcasts(incEpisodes=False).get("podcasts", {}).get("channel"):
        sonic.createPodcastChannel(url)
    channel = sonic.getPodcasts(incEpisodes=True)["podcasts"]["channel"]
    channel = channel[0] if isinstance(channel, list) else channel
    first = next(e for e in channel["episode"] if e["title"] == "第1集：山与海")
    # Bytes from the origin through the server, Range passed on (what a phone app's player asks for).
    ranged = sonic.stream(first["id"])
    head = ranged.read(4096)
    assert len(head) > 0 and (head[:3] == b"ID3" or head[0] == 0xFF)

    # A place kept by the app (createBookmark, in ms) is the place the web player and the SDK resume from.
    sonic.createBookmark(first["id"], 6000, comment="")
    login = session_of(server)
    episode_id = first["id"][3:]
    deadline = time.monotonic() + 60
    while True:
        progress = v1("GET", f"{server.url}/v1/episodes/{episode_id}", token=login["session"])
        if (progress.get("progress") or {}).get("position") or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert round(progress["progress"]["position"]) == 6, progress
    assert not progress["progress"].get("finished")
    # A scrobble of the episode is its end: finished for every client.
    sonic.scrobble(first["id"], submission=True)
    done = v1("GET", f"{server.url}/v1/episodes/{episode_id}", token=login["session"])
    assert done["progress"]["finished"] is True, done
