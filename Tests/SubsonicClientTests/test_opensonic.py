"""py-opensonic 10.4.1 (a Subsonic client library from PyPI) drives the server the way apps do: formPost
with `.view`, JSON, token auth by default, `enc:` with legacy_auth, and an API key; its typed answers fail on
missing required fields, which checks the JSON shapes once more.

Two of the library's quirks are worked around (see the notes in the research for issue 18):
- `get_music_folders()` iterates the `musicFolders` object instead of its list: the raw request is used;
- `stream()` and `get_cover_art()` return an aiohttp response living on the library's own event loop: its body
  is read on that loop.
"""
import asyncio

import libopensonic
import pytest
from libopensonic import errors


@pytest.fixture()
def client(server):
    connection = libopensonic.Connection("http://127.0.0.1", server.username, server.app_password,
                                         port=server.port, app_name="py-opensonic-tests")
    yield connection
    connection.cleanup()


def on_loop(connection, coroutine):
    return asyncio.run_coroutine_threadsafe(coroutine, connection._loop).result(timeout=60)


def test_every_way_of_signing_in(server, client):
    assert client.ping()
    assert client.token_info().username == server.username
    legacy = libopensonic.Connection("http://127.0.0.1", server.username, server.app_password, port=server.port,
                                     legacy_auth=True)
    keyed = libopensonic.Connection("http://127.0.0.1", api_key=server.app_password, port=server.port)
    wrong = libopensonic.Connection("http://127.0.0.1", server.username, "not-the-password", port=server.port)
    try:
        assert legacy.ping()
        assert keyed.ping() and keyed.token_info().username == server.username
        with pytest.raises(errors.CredentialError):
            wrong.ping()
    finally:
        for connection in (legacy, keyed, wrong):
            connection.cleanup()
    extensions = {item.name: item.versions for item in client.get_open_subsonic_extensions()}
    assert extensions["songLyrics"] == [1, 2] and extensions["formPost"] == [1]
    assert extensions["apiKeyAuthentication"] == [1] and extensions["indexBasedQueue"] == [1]


def test_browsing_and_searching(client):
    async def folders(inner):
        answer = await inner._handle_info_res(await inner._do_request("getMusicFolders"))
        return answer["musicFolders"]["musicFolder"]
    assert on_loop(client, folders(client._async)) == [{"id": 1, "name": "Music"}]

    artists = client.get_artists()
    names = [artist.name for index in artists.index for artist in index.artist]
    assert "Aurora Lane" in names and "林小雨" in names
    aurora = next(artist for index in artists.index for artist in index.artist if artist.name == "Aurora Lane")
    artist = client.get_artist(aurora.id)
    album = client.get_album(artist.album[0].id)
    assert album.name == "Northern Lights" and len(album.song) == 4
    assert [song.track for song in album.song] == [1, 2, 3, 4]
    song = client.get_song(album.song[0].id)
    assert song.title == "Northern Lights" and song.suffix == "flac" and song.duration > 0

    newest = client.get_album_list2("newest", size=500)
    assert len(newest) == len(client.search3("", artist_count=0, album_count=500, song_count=0).album) >= 7
    assert [item.id for item in client.get_album_list2("byYear", from_year=2019, to_year=2021)] != []

    found = client.search3("雨后", artist_count=5, album_count=5, song_count=20)
    assert "雨后彩虹" in [item.title for item in found.song]
    assert [item.name for item in found.album] == ["雨后"]
    everything = client.search3("", artist_count=0, album_count=0, song_count=500)
    second_page = client.search3("", artist_count=0, album_count=0, song_count=10, song_offset=10)
    assert len(everything.song) >= 25
    assert [item.id for item in second_page.song] == [item.id for item in everything.song[10:20]]
    lyrics = client.get_lyrics_by_song_id(found.song[0].id)
    assert lyrics[0].synced and lyrics[0].line[0].value == "雨停了天空放晴"
    with pytest.raises(errors.DataNotFoundError):
        client.get_song("tr-999999")


def test_starring_rating_and_scrobbling(client):
    album = client.get_album_list2("alphabeticalByName", size=1)[0]
    songs = [song.id for song in client.get_album(album.id).song]
    client.star(sids=[songs[0]], album_ids=[album.id], artist_ids=[album.artist_id])
    starred = client.get_starred2()
    assert [song.id for song in starred.song] == [songs[0]]
    assert [item.id for item in starred.album] == [album.id]
    assert [item.id for item in starred.artist] == [album.artist_id]
    client.unstar(sids=[songs[0]])
    assert client.get_starred2().song in (None, [])
    client.set_rating(album.id, 4)
    assert client.get_album(album.id).user_rating == 4
    client.scrobble(songs[1], submission=False)
    assert [entry.id for entry in client.get_now_playing()] == [songs[1]]
    client.scrobble(songs[1], submission=True)
    assert client.get_song(songs[1]).play_count == 1


def test_building_a_playlist(client):
    songs = [song.id for song in client.search3("", artist_count=0, album_count=0, song_count=3).song]
    assert client.create_playlist(name="Road trip", song_ids=songs[:2])
    playlist = next(item for item in client.get_playlists() if item.name == "Road trip")
    assert playlist.song_count == 2 and not playlist.public and playlist.owner
    client.update_playlist(playlist.id, name="Road trip 2", comment="summer", song_ids_to_add=songs[2:3],
                           song_indices_to_remove=[0])
    updated = client.get_playlist(playlist.id)
    assert updated.name == "Road trip 2" and updated.comment == "summer"
    assert [entry.id for entry in updated.entry] == [songs[1], songs[2]]
    client.delete_playlist(playlist.id)
    assert "Road trip 2" not in [item.name for item in client.get_playlists()]


def test_streaming_and_covers(client):
    album = client.get_album(client.get_album_list2("alphabeticalByName", size=1)[0].id)
    song = album.song[0]
    response = client.stream(song.id)
    body = on_loop(client, response.read())
    assert response.status == 200 and response.headers["Content-Type"].startswith("audio/")
    assert len(body) == song.size
    part = client.stream(song.id, byte_range="bytes=0-1023")
    assert part.status == 206 and len(on_loop(client, part.read())) == 1024
    converted = client.stream(song.id, tformat="mp3", max_bit_rate=96, time_offset=5)
    assert converted.headers["Content-Type"] == "audio/mpeg" and len(on_loop(client, converted.read())) > 1000
    cover = client.get_cover_art(album.cover_art, size=128)
    assert cover.status == 200 and cover.headers["Content-Type"] == "image/jpeg"
    assert len(on_loop(client, cover.read())) > 100


def test_saving_the_play_queue(client):
    songs = [song.id for song in client.search3("", artist_count=0, album_count=0, song_count=4).song]
    client.save_play_queue(songs, current=songs[2], position=61500)
    queue = client.get_play_queue()
    assert (queue.current, queue.position, queue.changed_by) == (songs[2], 61500, "py-opensonic-tests")
    assert [entry.id for entry in queue.entry] == songs
    client.save_play_queue_by_index([songs[0], songs[0]], current_index=1, position=0)
    by_index = client.get_play_queue_by_index()
    assert by_index.current_index == 1 and [entry.id for entry in by_index.entry] == [songs[0], songs[0]]
