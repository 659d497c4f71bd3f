/// Every method of CloudMusic's Subsonic API (`/rest`), declared once: the server registers
/// `/rest/<name>` and `/rest/<name>.view` (GET and POST forms) from this table, checks each declared
/// parameter before a handler runs (a required one missing is error 10, a bad value error 0, an id that does
/// not parse error 70), and answers `getOpenSubsonicExtensions` from `extensions`.
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
    ]

    private static let folder = SubsonicParameter.integer(
        "musicFolderId", 0...Int64(Int32.max), "Only this music folder (the library is folder 1).")
    private static let anyItem: [SubsonicIDKind] = [.song, .album, .artist]
    private static let listTypes = [
        "random", "newest", "highest", "frequent", "recent", "alphabeticalByName", "alphabeticalByArtist",
        "starred", "byYear", "byGenre",
    ]
    private static let albumList: [SubsonicParameter] = [
        .choice("type", listTypes, required: true, "Which albums: newest, random, byYear, byGenre..."),
        .integer("size", 0...Int64(Int32.max), "How many (10 by default, at most 500)."),
        .integer("offset", 0...Int64(Int32.max), "How many to skip."),
        .integer("fromYear", -9_999...9_999, "First year (byYear; later than toYear lists newest first)."),
        .integer("toYear", -9_999...9_999, "Last year (byYear)."),
        .text("genre", maxLength: 200, "The genre (byGenre)."),
        folder,
    ]
    private static let search: [SubsonicParameter] = [
        .text("query", maxLength: 200, "What to look for; empty (or \"\") lists everything, page by page."),
        .integer("artistCount", 0...50_000, "How many artists (20 by default)."),
        .integer("artistOffset", 0...Int64(Int32.max)),
        .integer("albumCount", 0...50_000, "How many albums (20 by default)."),
        .integer("albumOffset", 0...Int64(Int32.max)),
        .integer("songCount", 0...50_000, "How many songs (20 by default)."),
        .integer("songOffset", 0...Int64(Int32.max)),
        folder,
    ]
    private static let stars: [SubsonicParameter] = [
        .id("id", anyItem, repeated: true, "Songs (\"I like\"), albums or artists (favourites)."),
        .id("albumId", [.album], repeated: true), .id("artistId", [.artist], repeated: true),
    ]
    private static let similar: [SubsonicParameter] = [
        .id("id", anyItem, required: true, "An artist, album or song."),
        .integer("count", 0...500, "How many (50 by default)."),
    ]
    private static let artistInfo: [SubsonicParameter] = [
        .id("id", anyItem, required: true, "An artist (or an album or song of it)."),
        .integer("count", 0...500, "How many similar artists (20 by default)."),
        .flag("includeNotPresent", "Accepted; only artists of the library are known."),
    ]

    /// Every method: the ones that work, then those answered with error 0 "not supported".
    public static let methods: [SubsonicMethod] =
        [
            // System
            SubsonicMethod("ping", "Checks the credentials; an empty ok answer.", answer: .document(nil)),
            SubsonicMethod("getLicense", "Always valid.", answer: .document("license")),
            SubsonicMethod(
                "getOpenSubsonicExtensions", "The OpenSubsonic extensions; needs no credentials.",
                access: .anyone,
                answer: .document("openSubsonicExtensions")),
            SubsonicMethod(
                "tokenInfo", "Whose credentials these are.", answer: .document("tokenInfo"),
                extensionName: "apiKeyAuthentication"),
            // Browsing
            SubsonicMethod(
                "getMusicFolders", "The one music folder (id 1).", answer: .document("musicFolders")),
            SubsonicMethod(
                "getIndexes", "Album artists by first letter, as folders.",
                [
                    folder,
                    .integer(
                        "ifModifiedSince", 0...Int64.max, "Milliseconds; nothing listed when unchanged since."
                    ),
                ],
                answer: .document("indexes")),
            SubsonicMethod(
                "getMusicDirectory", "An artist's albums (ar-) or an album's songs (al-), as folders.",
                [.id("id", [.artist, .album], required: true)], answer: .document("directory")),
            SubsonicMethod(
                "getGenres", "Genres with their song and album counts.", answer: .document("genres")),
            SubsonicMethod(
                "getArtists", "Album artists by first letter.", [folder], answer: .document("artists")),
            SubsonicMethod(
                "getArtist", "An artist with their albums.", [.id("id", [.artist], required: true)],
                answer: .document("artist")),
            SubsonicMethod(
                "getAlbum", "An album with its songs in disc and track order.",
                [.id("id", [.album], required: true)],
                answer: .document("album")),
            SubsonicMethod(
                "getSong", "One song.", [.id("id", [.song], required: true)], answer: .document("song")),
            SubsonicMethod(
                "getArtistInfo", "Similar artists (by shared genres); no biography is kept.", artistInfo,
                answer: .document("artistInfo")),
            SubsonicMethod(
                "getArtistInfo2", "getArtistInfo with ID3 artists.", artistInfo,
                answer: .document("artistInfo2")),
            SubsonicMethod(
                "getAlbumInfo", "What is known of an album (its MusicBrainz id).",
                [.id("id", [.album, .song], required: true)], answer: .document("albumInfo")),
            SubsonicMethod(
                "getAlbumInfo2", "getAlbumInfo for ID3 albums.",
                [.id("id", [.album, .song], required: true)],
                answer: .document("albumInfo")),
            SubsonicMethod(
                "getSimilarSongs", "Songs of the artist and of artists sharing a genre, shuffled.", similar,
                answer: .document("similarSongs")),
            SubsonicMethod(
                "getSimilarSongs2", "getSimilarSongs for ID3 clients.", similar,
                answer: .document("similarSongs2")),
            SubsonicMethod(
                "getTopSongs", "An artist's most played songs.",
                [
                    .text("artist", maxLength: 200, "The artist's name (or give id)."),
                    .id("id", [.artist], "The artist (topSongsByArtistId); wins over artist."),
                    .integer("count", 0...500, "How many (50 by default)."),
                ], answer: .document("topSongs")),
            // Lists
            SubsonicMethod(
                "getAlbumList", "Albums as folders, by type.", albumList, answer: .document("albumList")),
            SubsonicMethod("getAlbumList2", "Albums by type.", albumList, answer: .document("albumList2")),
            SubsonicMethod(
                "getRandomSongs", "Random songs, optionally of a genre or years.",
                [
                    .integer("size", 0...Int64(Int32.max), "How many (10 by default, at most 500)."),
                    .text("genre", maxLength: 200), .integer("fromYear", -9_999...9_999),
                    .integer("toYear", -9_999...9_999), folder,
                ], answer: .document("randomSongs")),
            SubsonicMethod(
                "getSongsByGenre", "Songs of a genre, by title.",
                [
                    .text("genre", maxLength: 200, required: true),
                    .integer("count", 0...Int64(Int32.max), "How many (10 by default, at most 500)."),
                    .integer("offset", 0...Int64(Int32.max)), folder,
                ], answer: .document("songsByGenre")),
            SubsonicMethod(
                "getNowPlaying", "What one's players are playing (administrators: everyone's).",
                answer: .document("nowPlaying")),
            SubsonicMethod(
                "getStarred", "Starred artists, albums and songs (\"I like\").", [folder],
                answer: .document("starred")),
            SubsonicMethod(
                "getStarred2", "getStarred with ID3 artists and albums.", [folder],
                answer: .document("starred2")),
            // Searching
            SubsonicMethod(
                "search2", "Artists, albums (as folders) and songs.", search,
                answer: .document("searchResult2")),
            SubsonicMethod(
                "search3", "Artists, albums and songs.", search, answer: .document("searchResult3")),
            // Playlists: sheets
            SubsonicMethod(
                "getPlaylists", "One's sheets and those one collected (read-only).",
                [.text("username", maxLength: 256, "Another person's public sheets (administrators).")],
                answer: .document("playlists")),
            SubsonicMethod(
                "getPlaylist", "A sheet with its songs.", [.id("id", [.playlist], required: true)],
                answer: .document("playlist")),
            SubsonicMethod(
                "createPlaylist", "Makes a private sheet, or replaces the songs of one's sheet (playlistId).",
                [
                    .id("playlistId", [.playlist], "The sheet whose songs to replace."),
                    .text("name", maxLength: 100, "The new sheet's title."),
                    .id(
                        "songId", [.song], repeated: true,
                        "Its songs in order (a song already in it is skipped)."),
                ], answer: .document("playlist")),
            SubsonicMethod(
                "updatePlaylist", "Changes one's sheet: title, description, public, songs.",
                [
                    .id("playlistId", [.playlist], required: true), .text("name", maxLength: 100),
                    .text("comment", maxLength: 2_000), .flag("public"),
                    .id("songIdToAdd", [.song], repeated: true),
                    .integer(
                        "songIndexToRemove", 0...Int64(Int32.max), repeated: true, "0-based, before adding."),
                ], answer: .document(nil)),
            SubsonicMethod(
                "deletePlaylist", "Deletes one's sheet.", [.id("id", [.playlist], required: true)],
                answer: .document(nil)),
            // Media
            SubsonicMethod(
                "stream", "The song's file (Range works), or a live transcode; never counts a play.",
                [
                    .id("id", [.song], required: true),
                    .integer(
                        "maxBitRate", 0...Int64(Int32.max), "kbit/s; a file above it is converted (32-320)."),
                    .text("format", maxLength: 16, "raw, mp3, opus or aac (also ogg, m4a)."),
                    .integer("timeOffset", 0...86_400, "Start this many seconds in (transcodeOffset)."),
                    .text("size", maxLength: 32, "Video only; ignored."),
                    .flag("estimateContentLength", "Accepted; a transcode is sent chunked."),
                    .flag("converted", "Video only; ignored."),
                ], answer: .media, extensionName: "transcodeOffset"),
            SubsonicMethod(
                "download", "The song's original file as an attachment.",
                [.id("id", [.song], required: true)],
                answer: .media),
            SubsonicMethod(
                "getCoverArt", "A cover: al-, ar- (an album of the artist), pl- (the sheet's) or tr-.",
                [
                    .text(
                        "id", maxLength: 64, required: true,
                        "A coverArt value; entity ids and pl-pl-5 work too."),
                    .integer("size", 0...100_000, "About this many pixels square (snapped to 64-1024)."),
                ], answer: .media),
            SubsonicMethod(
                "getLyrics", "A song's lyrics as plain text, found by artist and title.",
                [.text("artist", maxLength: 200), .text("title", maxLength: 200)], answer: .document("lyrics")
            ),
            SubsonicMethod(
                "getLyricsBySongId", "A song's lyrics, synced; enhanced=true adds word cues (songLyrics 2).",
                [
                    .id("id", [.song], required: true),
                    .flag("enhanced", "songLyrics version 2: kind and cueLine."),
                ],
                answer: .document("lyricsList"), extensionName: "songLyrics"),
            SubsonicMethod(
                "getAvatar", "A person's avatar.", [.text("username", maxLength: 256, required: true)],
                answer: .media),
            // Annotation
            SubsonicMethod(
                "star", "Songs go into \"I like\"; albums and artists into favourites.", stars,
                answer: .document(nil)),
            SubsonicMethod("unstar", "The reverse of star.", stars, answer: .document(nil)),
            SubsonicMethod(
                "setRating", "Rates a song, album or artist 1-5; 0 removes the rating.",
                [.id("id", anyItem, required: true), .integer("rating", 0...5, required: true)],
                answer: .document(nil)),
            SubsonicMethod(
                "scrobble",
                "submission=true (the default) counts plays in one's history; false is now playing.",
                [
                    .id("id", [.song], required: true, repeated: true),
                    .integer("time", 0...Int64.max, repeated: true, "Milliseconds since 1970, one per id."),
                    .flag("submission"),
                ], answer: .document(nil)),
            // Bookmarks and the play queue
            SubsonicMethod("getBookmarks", "One's bookmarks.", answer: .document("bookmarks")),
            SubsonicMethod(
                "createBookmark", "Remembers a position in a song (replacing one's bookmark of it).",
                [
                    .id("id", [.song], required: true),
                    .integer("position", 0...Int64.max, required: true, "Milliseconds."),
                    .text("comment", maxLength: 500),
                ], answer: .document(nil)),
            SubsonicMethod(
                "deleteBookmark", "Forgets one's bookmark of a song.", [.id("id", [.song], required: true)],
                answer: .document(nil)),
            SubsonicMethod(
                "getPlayQueue", "One's play queue, shared with the web player and the apps.",
                answer: .document("playQueue")),
            SubsonicMethod(
                "savePlayQueue", "Saves one's play queue; no id clears it.",
                [
                    .id("id", [.song], repeated: true),
                    .id("current", [.song], "The playing song (one of id)."),
                    .integer("position", 0...Int64.max, "Milliseconds into the current song."),
                ], answer: .document(nil)),
            SubsonicMethod(
                "getPlayQueueByIndex", "One's play queue with the current song by index.",
                answer: .document("playQueueByIndex"), extensionName: "indexBasedQueue"),
            SubsonicMethod(
                "savePlayQueueByIndex", "Saves one's play queue; the same song may come twice.",
                [
                    .id("id", [.song], repeated: true),
                    .integer(
                        "currentIndex", Int64(Int32.min)...Int64(Int32.max), "0-based; required with id."),
                    .integer("position", 0...Int64.max, "Milliseconds into the current song."),
                ], answer: .document(nil), extensionName: "indexBasedQueue"),
            // People and the library
            SubsonicMethod(
                "getUser", "A person's roles (one's own; administrators anyone's).",
                [.text("username", maxLength: 256, required: true)], answer: .document("user")),
            SubsonicMethod(
                "getScanStatus", "Whether a library scan runs, and the songs counted.", access: .admin,
                answer: .document("scanStatus")),
            SubsonicMethod(
                "startScan", "Starts a library scan.", access: .admin,
                [.flag("fullScan", "Accepted; scans are incremental.")],
                answer: .document("scanStatus")),
            SubsonicMethod(
                "getShares", "Shares (sharing is not offered, so none).", answer: .document("shares")),
        ]
        + [
            ("createShare", "Sharing is not offered by this server yet."),
            ("updateShare", "Sharing is not offered by this server yet."),
            ("deleteShare", "Sharing is not offered by this server yet."),
            ("jukeboxControl", "This server has no jukebox: it plays music on your device only."),
            ("getPodcasts", "Podcasts are not supported by this server yet."),
            ("getNewestPodcasts", "Podcasts are not supported by this server yet."),
            ("getPodcastEpisode", "Podcasts are not supported by this server yet."),
            ("refreshPodcasts", "Podcasts are not supported by this server yet."),
            ("createPodcastChannel", "Podcasts are not supported by this server yet."),
            ("deletePodcastChannel", "Podcasts are not supported by this server yet."),
            ("deletePodcastEpisode", "Podcasts are not supported by this server yet."),
            ("downloadPodcastEpisode", "Podcasts are not supported by this server yet."),
            ("getInternetRadioStations", "Internet radio is not supported by this server yet."),
            ("createInternetRadioStation", "Internet radio is not supported by this server yet."),
            ("updateInternetRadioStation", "Internet radio is not supported by this server yet."),
            ("deleteInternetRadioStation", "Internet radio is not supported by this server yet."),
            ("getChatMessages", "Chat is not supported by this server's Subsonic API yet."),
            ("addChatMessage", "Chat is not supported by this server's Subsonic API yet."),
            ("getUsers", "Manage users in CloudMusic itself (cloudmusic-server user, or /v1/admin/users)."),
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

    private static let byName: [String: SubsonicMethod] = Dictionary(
        uniqueKeysWithValues: methods.map { ($0.name, $0) })

    /// The method called `name` (exactly; method names are case-sensitive).
    public static func method(named name: String) -> SubsonicMethod? { byName[name] }
}
