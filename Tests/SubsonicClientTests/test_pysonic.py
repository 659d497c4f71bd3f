"""py-sonic 1.2.0 (the oldest Subsonic client library on PyPI, from the original Subsonic's days) drives the
server with its defaults: POST forms to `.view` addresses, salted tokens, dictionaries of the JSON.
"""
import libsonic


def connect(server, **options):
    return libsonic.Connection("http://127.0.0.1", server.username, server.app_password, port=server.port,
                               appName="py-sonic-tests", **options)


def test_signing_in_browsing_and_the_play_queue(server):
    client = connect(server)
    assert client.ping()
    assert connect(server, legacyAuth=True).ping()
    artists = client.getArtists()["artists"]["index"]
    names = [artist["name"] for index in artists for artist in index["artist"]]
    assert "林小雨" in names
    # 林小雨 sits under "L" (lin xiao yu), not under "#".
    letter = next(index["name"] for index in artists if any(a["name"] == "林小雨" for a in index["artist"]))
    assert letter == "L"
    found = client.search3("linxiaoyu", artistCount=5, albumCount=0, songCount=5)["searchResult3"]
    assert [artist["name"] for artist in found["artist"]] == ["林小雨"]
    songs = client.search3("", artistCount=0, albumCount=0, songCount=3)["searchResult3"]["song"]
    ids = [song["id"] for song in songs]
    client.savePlayQueue(ids, current=ids[1], position=1500)
    queue = client.getPlayQueue()["playQueue"]
    assert [entry["id"] for entry in queue["entry"]] == ids and queue["current"] == ids[1]


def test_everyone_sees_the_scan_and_the_radio(server):
    client = connect(server)
    assert client.getScanStatus()["scanStatus"]["count"] > 0
    client.createInternetRadioStation("https://radio.example.com/pysonic", "py-sonic FM")
    stations = client.getInternetRadioStations()["internetRadioStations"]["internetRadioStation"]
    assert any(station["name"] == "py-sonic FM" for station in stations)
    assert [user["username"] for user in client.getUsers()["users"]["user"]]


def test_playlists_and_stars(server):
    client = connect(server)
    songs = client.search3("", artistCount=0, albumCount=0, songCount=2)["searchResult3"]["song"]
    made = client.createPlaylist(name="py-sonic list", songIds=[song["id"] for song in songs])["playlist"]
    assert [entry["id"] for entry in made["entry"]] == [song["id"] for song in songs]
    client.updatePlaylist(made["id"], songIndexesToRemove=[0])
    assert [entry["id"] for entry in client.getPlaylist(made["id"])["playlist"]["entry"]] == [songs[1]["id"]]
    client.star(sids=[songs[0]["id"]])
    assert songs[0]["id"] in [song["id"] for song in client.getStarred2()["starred2"]["song"]]
