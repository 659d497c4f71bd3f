/// Every method of CloudMusic's Subsonic API (`/rest`), declared once with its typed parameters: the server
/// registers `/rest/<name>` and `/rest/<name>.view` (GET and POST forms) through each declaration, reads and
/// checks the parameters before a handler runs (a required one missing is error 10, a bad value error 0, an id
/// that does not parse error 70, counts and offsets brought into range), and answers
/// `getOpenSubsonicExtensions` from `extensions`.
public enum SubsonicAPI {
    /// The Subsonic API version the server implements.
    public static let version = "1.16.1"
    /// The OpenSubsonic `type` of the server.
    public static let serverType = "cloudmusic"
    /// The XML namespace of every answer.
    public static let namespace = "http://subsonic.org/restapi"

    /// Parameters every method reads (besides its own): who calls, which client, which format.
    public static let commonParameters: [SubsonicParameter] = [
        .text("u", maxLength: 256, "The username (a nickname, an email or a phone number); not with apiKey."),
        .text("p", maxLength: 512, "An app password, clear or as enc:<hex of its UTF-8 bytes>."),
        .text("t", maxLength: 64, "md5(app password + s) as hexadecimal digits."),
        .text("s", maxLength: 256, "The salt of t."),
        .text(
            "apiKey", maxLength: 512,
            "An app password used as an API key (apiKeyAuthentication); no u, p, t, s."),
        .text("v", maxLength: 32, required: true, "The API version the client speaks, such as 1.16.1."),
        .text(
            "c", maxLength: 256, required: true, "The client's name; the play queue and now playing show it."),
        .choice("f", ["xml", "json", "jsonp"], "The answer's format (xml by default)."),
        .text("callback", maxLength: 128, "The function jsonp wraps the answer in."),
    ]

    /// The OpenSubsonic extensions this server implements.
    public static let extensions: [SubsonicExtension] = [
        SubsonicExtension(
            "formPost", versions: [1], "Every method also takes its parameters as a POST form."),
        SubsonicExtension(
            "apiKeyAuthentication", versions: [1],
            "An app password may be sent as apiKey (without u, p, t or s); tokenInfo names its owner."),
        SubsonicExtension(
            "songLyrics", versions: [1, 2],
            "getLyricsBySongId: synced lines; with enhanced=true, the word timings of KSC and word-timed LRC as cues."
        ),
        SubsonicExtension(
            "indexBasedQueue", versions: [1],
            "getPlayQueueByIndex and savePlayQueueByIndex (the same song twice)."),
        SubsonicExtension("transcodeOffset", versions: [1], "stream takes timeOffset (seconds) for music."),
        SubsonicExtension("topSongsByArtistId", versions: [1], "getTopSongs takes an artist id as id."),
        SubsonicExtension(
            "getPodcastEpisode", versions: [1], "getPodcastEpisode: one podcast episode by id."),
    ]

    private static let anyItem: [SubsonicIDKind] = [.song, .album, .artist]

    // MARK: System

    public static let ping = SubsonicEndpoint<NoSubsonicParameters, SignedIn>(
        "ping", "Checks the credentials; an empty ok answer.", answer: .document(nil))
    public static let getLicense = SubsonicEndpoint<NoSubsonicParameters, SignedIn>(
        "getLicense", "Always valid.", answer: .document("license"))
    public static let getOpenSubsonicExtensions = SubsonicEndpoint<NoSubsonicParameters, Anyone>(
        "getOpenSubsonicExtensions", "The OpenSubsonic extensions; needs no credentials.",
        answer: .document("openSubsonicExtensions"))
    public static let tokenInfo = SubsonicEndpoint<NoSubsonicParameters, SignedIn>(
        "tokenInfo", "Whose credentials these are.", answer: .document("tokenInfo"),
        extensionName: "apiKeyAuthentication")

    // MARK: Browsing

    public static let getMusicFolders = SubsonicEndpoint<NoSubsonicParameters, SignedIn>(
        "getMusicFolders", "The one music folder (id 1).", answer: .document("musicFolders"))
    public static let getIndexes = SubsonicEndpoint<IndexesParameters, SignedIn>(
        "getIndexes", "Album artists by first letter, as folders.", answer: .document("indexes"))
    public static let getMusicDirectory = SubsonicEndpoint<DirectoryParameters, SignedIn>(
        "getMusicDirectory", "An artist's albums (ar-) or an album's songs (al-), as folders.",
        answer: .document("directory"))
    public static let getGenres = SubsonicEndpoint<NoSubsonicParameters, SignedIn>(
        "getGenres", "Genres with their song and album counts.", answer: .document("genres"))
    public static let getArtists = SubsonicEndpoint<FolderParameters, SignedIn>(
        "getArtists", "Artists by first letter (pinyin for Chinese names).", answer: .document("artists"))
    public static let getArtist = SubsonicEndpoint<ItemParameters<ArtistItem>, SignedIn>(
        "getArtist", "An artist with their albums.", answer: .document("artist"))
    public static let getAlbum = SubsonicEndpoint<ItemParameters<AlbumItem>, SignedIn>(
        "getAlbum", "An album with its songs in disc and track order.", answer: .document("album"))
    public static let getSong = SubsonicEndpoint<ItemParameters<SongItem>, SignedIn>(
        "getSong", "One song.", answer: .document("song"))
    public static let getArtistInfo = SubsonicEndpoint<ArtistInfoParameters, SignedIn>(
        "getArtistInfo", "Similar artists (by shared genres) and a cover; no biography is kept.",
        answer: .document("artistInfo"))
    public static let getArtistInfo2 = SubsonicEndpoint<ArtistInfoParameters, SignedIn>(
        "getArtistInfo2", "getArtistInfo with ID3 artists.", answer: .document("artistInfo2"))
    public static let getAlbumInfo = SubsonicEndpoint<AlbumInfoParameters, SignedIn>(
        "getAlbumInfo", "What the tags say of an album (notes, MusicBrainz id) and its cover's addresses.",
        answer: .document("albumInfo"))
    public static let getAlbumInfo2 = SubsonicEndpoint<AlbumInfoParameters, SignedIn>(
        "getAlbumInfo2", "getAlbumInfo for ID3 albums.", answer: .document("albumInfo"))
    public static let getSimilarSongs = SubsonicEndpoint<SimilarSongsParameters, SignedIn>(
        "getSimilarSongs", "Songs of the artist and of artists sharing a genre, shuffled.",
        answer: .document("similarSongs"))
    public static let getSimilarSongs2 = SubsonicEndpoint<SimilarSongsParameters, SignedIn>(
        "getSimilarSongs2", "getSimilarSongs for ID3 clients.", answer: .document("similarSongs2"))
    public static let getTopSongs = SubsonicEndpoint<TopSongsParameters, SignedIn>(
        "getTopSongs", "An artist's most played songs.", answer: .document("topSongs"))

    // MARK: Lists

    public static let getAlbumList = SubsonicEndpoint<AlbumListParameters, SignedIn>(
        "getAlbumList", "Albums as folders, by type.", answer: .document("albumList"))
    public static let getAlbumList2 = SubsonicEndpoint<AlbumListParameters, SignedIn>(
        "getAlbumList2", "Albums by type.", answer: .document("albumList2"))
    public static let getRandomSongs = SubsonicEndpoint<RandomSongsParameters, SignedIn>(
        "getRandomSongs", "Random songs, optionally of a genre or years.", answer: .document("randomSongs"))
    public static let getSongsByGenre = SubsonicEndpoint<SongsByGenreParameters, SignedIn>(
        "getSongsByGenre", "Songs of a genre, by title.", answer: .document("songsByGenre"))
    public static let getNowPlaying = SubsonicEndpoint<NoSubsonicParameters, SignedIn>(
        "getNowPlaying",
        "What one's players are playing, and others' where they allow it (by default their followers).",
        answer: .document("nowPlaying"))
    public static let getStarred = SubsonicEndpoint<FolderParameters, SignedIn>(
        "getStarred", "Starred artists, albums and songs (\"I like\").", answer: .document("starred"))
    public static let getStarred2 = SubsonicEndpoint<FolderParameters, SignedIn>(
        "getStarred2", "getStarred with ID3 artists and albums.", answer: .document("starred2"))

    // MARK: Searching

    public static let search2 = SubsonicEndpoint<SearchParameters, SignedIn>(
        "search2", "Artists, albums (as folders) and songs; Chinese names by pinyin too.",
        answer: .document("searchResult2"))
    public static let search3 = SubsonicEndpoint<SearchParameters, SignedIn>(
        "search3", "Artists, albums and songs; Chinese names by pinyin too (zjl, zhoujielun).",
        answer: .document("searchResult3"))

    // MARK: Playlists: sheets

    public static let getPlaylists = SubsonicEndpoint<PlaylistsParameters, SignedIn>(
        "getPlaylists", "One's sheets and those one collected (read-only).", answer: .document("playlists"))
    public static let getPlaylist = SubsonicEndpoint<ItemParameters<PlaylistItem>, SignedIn>(
        "getPlaylist", "A sheet with its songs.", answer: .document("playlist"))
    public static let createPlaylist = SubsonicEndpoint<CreatePlaylistParameters, SignedIn>(
        "createPlaylist", "Makes a private sheet, or replaces the songs of one's sheet (playlistId).",
        answer: .document("playlist"))
    public static let updatePlaylist = SubsonicEndpoint<UpdatePlaylistParameters, SignedIn>(
        "updatePlaylist", "Changes one's sheet: title, description, public, songs.", answer: .document(nil))
    public static let deletePlaylist = SubsonicEndpoint<ItemParameters<PlaylistItem>, SignedIn>(
        "deletePlaylist", "Deletes one's sheet.", answer: .document(nil))

    // MARK: Media

    public static let stream = SubsonicEndpoint<StreamParameters, SignedIn>(
        "stream",
        "The song's file (Range works), or a live transcode (Range and estimateContentLength work too); never counts a play.",
        answer: .media, extensionName: "transcodeOffset")
    public static let download = SubsonicEndpoint<DownloadParameters, SignedIn>(
        "download", "The song's original file as an attachment; an episode's audio (pe-) as stream gives it.",
        answer: .media)
    public static let getCoverArt = SubsonicEndpoint<CoverArtParameters, SignedIn>(
        "getCoverArt", "A cover: al-, ar- (an album of the artist), pl- (the sheet's) or tr-.", answer: .media
    )
    public static let getLyrics = SubsonicEndpoint<LyricsParameters, SignedIn>(
        "getLyrics", "A song's lyrics as plain text, found by artist and title.", answer: .document("lyrics"))
    public static let getLyricsBySongId = SubsonicEndpoint<SongLyricsParameters, SignedIn>(
        "getLyricsBySongId", "A song's lyrics, synced; enhanced=true adds word cues (songLyrics 2).",
        answer: .document("lyricsList"), extensionName: "songLyrics")
    public static let getAvatar = SubsonicEndpoint<UsernameParameters, SignedIn>(
        "getAvatar", "A person's avatar.", answer: .media)

    // MARK: Annotation

    public static let star = SubsonicEndpoint<StarParameters, SignedIn>(
        "star", "Songs go into \"I like\"; albums and artists into favourites.", answer: .document(nil))
    public static let unstar = SubsonicEndpoint<StarParameters, SignedIn>(
        "unstar", "The reverse of star.", answer: .document(nil))
    public static let setRating = SubsonicEndpoint<RatingParameters, SignedIn>(
        "setRating", "Rates a song, album or artist 1-5; 0 removes the rating.", answer: .document(nil))
    public static let scrobble = SubsonicEndpoint<ScrobbleParameters, SignedIn>(
        "scrobble", "submission=true (the default) counts plays in one's history; false is now playing.",
        answer: .document(nil))

    // MARK: Bookmarks and the play queue

    public static let getBookmarks = SubsonicEndpoint<NoSubsonicParameters, SignedIn>(
        "getBookmarks", "One's bookmarks: songs, then the episodes one is partway through.",
        answer: .document("bookmarks"))
    public static let createBookmark = SubsonicEndpoint<BookmarkParameters, SignedIn>(
        "createBookmark", "Remembers a position in a song or an episode (replacing one's bookmark of it).",
        answer: .document(nil))
    public static let deleteBookmark = SubsonicEndpoint<DeleteBookmarkParameters, SignedIn>(
        "deleteBookmark", "Forgets one's bookmark of a song, or one's place in an episode.",
        answer: .document(nil))
    public static let getPlayQueue = SubsonicEndpoint<NoSubsonicParameters, SignedIn>(
        "getPlayQueue", "One's play queue, shared with the web player and the apps.",
        answer: .document("playQueue"))
    public static let savePlayQueue = SubsonicEndpoint<SavePlayQueueParameters, SignedIn>(
        "savePlayQueue", "Saves one's play queue; no id clears it.", answer: .document(nil))
    public static let getPlayQueueByIndex = SubsonicEndpoint<NoSubsonicParameters, SignedIn>(
        "getPlayQueueByIndex", "One's play queue with the current song by index.",
        answer: .document("playQueueByIndex"), extensionName: "indexBasedQueue")
    public static let savePlayQueueByIndex = SubsonicEndpoint<SavePlayQueueByIndexParameters, SignedIn>(
        "savePlayQueueByIndex", "Saves one's play queue; the same song may come twice.",
        answer: .document(nil),
        extensionName: "indexBasedQueue")

    // MARK: Internet radio

    public static let getInternetRadioStations = SubsonicEndpoint<NoSubsonicParameters, SignedIn>(
        "getInternetRadioStations", "The internet radio stations administrators added.",
        answer: .document("internetRadioStations"))
    public static let createInternetRadioStation = SubsonicEndpoint<NewRadioStationParameters, Admin>(
        "createInternetRadioStation", "Adds a station (its stream must be a public http or https address).",
        answer: .document(nil))
    public static let updateInternetRadioStation = SubsonicEndpoint<RadioStationChangeParameters, Admin>(
        "updateInternetRadioStation", "Changes a station.", answer: .document(nil))
    public static let deleteInternetRadioStation = SubsonicEndpoint<ItemParameters<RadioItem>, Admin>(
        "deleteInternetRadioStation", "Removes a station.", answer: .document(nil))

    // MARK: Podcasts

    public static let getPodcasts = SubsonicEndpoint<PodcastsParameters, SignedIn>(
        "getPodcasts",
        "The podcasts (pc- ids) with their episodes (pe- ids), newest first, at most 1,000 each.",
        answer: .document("podcasts"))
    public static let getNewestPodcasts = SubsonicEndpoint<NewestPodcastsParameters, SignedIn>(
        "getNewestPodcasts", "The newest episodes of all podcasts.", answer: .document("newestPodcasts"))
    public static let getPodcastEpisode = SubsonicEndpoint<ItemParameters<PodcastEpisodeItem>, SignedIn>(
        "getPodcastEpisode", "One podcast episode.", answer: .document("podcastEpisode"),
        extensionName: "getPodcastEpisode")
    public static let refreshPodcasts = SubsonicEndpoint<NoSubsonicParameters, Admin>(
        "refreshPodcasts", "Starts a refresh of every podcast's feed.", answer: .document(nil))
    public static let createPodcastChannel = SubsonicEndpoint<CreatePodcastChannelParameters, Admin>(
        "createPodcastChannel", "Adds a podcast by its feed's address (fetched and read before it is kept).",
        answer: .document(nil))
    public static let deletePodcastChannel = SubsonicEndpoint<ItemParameters<PodcastChannelItem>, Admin>(
        "deletePodcastChannel", "Deletes a podcast with its episodes and downloads.", answer: .document(nil))
    public static let downloadPodcastEpisode = SubsonicEndpoint<ItemParameters<PodcastEpisodeItem>, Admin>(
        "downloadPodcastEpisode",
        "Downloads an episode of a podcast kept as downloads; others stream from their origin already.",
        answer: .document(nil))
    public static let deletePodcastEpisode = SubsonicEndpoint<ItemParameters<PodcastEpisodeItem>, Admin>(
        "deletePodcastEpisode",
        "Deletes an episode's download; the episode stays listed (the feed has it) and streams from its origin.",
        answer: .document(nil))

    // MARK: People and the library

    public static let getUser = SubsonicEndpoint<UsernameParameters, SignedIn>(
        "getUser", "A person's roles (one's own; administrators anyone's).", answer: .document("user"))
    public static let getUsers = SubsonicEndpoint<NoSubsonicParameters, SignedIn>(
        "getUsers", "Everyone's roles for administrators; oneself alone for others.",
        answer: .document("users"))
    public static let getScanStatus = SubsonicEndpoint<NoSubsonicParameters, SignedIn>(
        "getScanStatus", "Whether a library scan runs, and the songs counted (read-only, for everyone).",
        answer: .document("scanStatus"))
    public static let startScan = SubsonicEndpoint<ScanParameters, Admin>(
        "startScan", "Starts a library scan.", answer: .document("scanStatus"))
    public static let getShares = SubsonicEndpoint<NoSubsonicParameters, SignedIn>(
        "getShares", "Shares (sharing is not offered, so none).", answer: .document("shares"))

    /// Every working method, in the order of the documentation.
    public static let supported: [SubsonicMethod] = [
        ping.description, getLicense.description, getOpenSubsonicExtensions.description,
        tokenInfo.description,
        getMusicFolders.description, getIndexes.description, getMusicDirectory.description,
        getGenres.description, getArtists.description, getArtist.description, getAlbum.description,
        getSong.description, getArtistInfo.description, getArtistInfo2.description, getAlbumInfo.description,
        getAlbumInfo2.description, getSimilarSongs.description, getSimilarSongs2.description,
        getTopSongs.description, getAlbumList.description, getAlbumList2.description,
        getRandomSongs.description, getSongsByGenre.description, getNowPlaying.description,
        getStarred.description, getStarred2.description, search2.description, search3.description,
        getPlaylists.description, getPlaylist.description, createPlaylist.description,
        updatePlaylist.description, deletePlaylist.description, stream.description, download.description,
        getCoverArt.description, getLyrics.description, getLyricsBySongId.description, getAvatar.description,
        star.description, unstar.description, setRating.description, scrobble.description,
        getBookmarks.description, createBookmark.description, deleteBookmark.description,
        getPlayQueue.description, savePlayQueue.description, getPlayQueueByIndex.description,
        savePlayQueueByIndex.description, getInternetRadioStations.description,
        createInternetRadioStation.description, updateInternetRadioStation.description,
        deleteInternetRadioStation.description, getUser.description, getUsers.description,
        getScanStatus.description, startScan.description, getShares.description, getPodcasts.description,
        getNewestPodcasts.description, getPodcastEpisode.description, refreshPodcasts.description,
        createPodcastChannel.description, deletePodcastChannel.description,
        downloadPodcastEpisode.description,
        deletePodcastEpisode.description,
    ]

    /// Methods clients may call that this server does not offer: each answers error 0 with its reason.
    public static let unsupported: [SubsonicMethod] = [
        ("createShare", "Sharing is not offered by this server yet."),
        ("updateShare", "Sharing is not offered by this server yet."),
        ("deleteShare", "Sharing is not offered by this server yet."),
        ("jukeboxControl", "This server has no jukebox: it plays music on your device only."),
        ("getChatMessages", "Chat is not supported by this server's Subsonic API yet."),
        ("addChatMessage", "Chat is not supported by this server's Subsonic API yet."),
        ("createUser", "Manage users in CloudMusic itself (cloudmusic-server user, or /v1/admin/users)."),
        ("updateUser", "Manage users in CloudMusic itself (cloudmusic-server user, or /v1/admin/users)."),
        ("deleteUser", "Manage users in CloudMusic itself (cloudmusic-server user, or /v1/admin/users)."),
        (
            "changePassword",
            "Change passwords in CloudMusic itself; Subsonic apps sign in with app passwords."
        ),
        ("search", "The old search method is not supported: use search3 (or search2)."),
        ("getVideos", "Videos are not supported by this server's Subsonic API."),
        ("getVideoInfo", "Videos are not supported by this server's Subsonic API."),
        ("getCaptions", "Videos are not supported by this server's Subsonic API."),
        ("hls", "HLS streaming is not supported: use stream."),
    ].map { SubsonicMethod.notSupported($0.0, $0.1) }

    /// Every method: the ones that work, then those answered with error 0 "not supported".
    public static let methods: [SubsonicMethod] = supported + unsupported

    private static let byName: [String: SubsonicMethod] = Dictionary(
        uniqueKeysWithValues: methods.map { ($0.name, $0) })

    /// The method called `name` (exactly; method names are case-sensitive), for documentation and tests.
    public static func method(named name: String) -> SubsonicMethod? { byName[name] }
}
