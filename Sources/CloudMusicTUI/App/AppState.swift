import CloudMusicKit
import Foundation
import MusicCore

/// A screen of the player. The first nine are tabs (keys 1 to 9); the rest open over them.
public enum Screen: Int, CaseIterable, Sendable, Equatable {
    case home, library, search, myMusic, queue, downloads, nowPlaying, messages, notifications
    case detail, comments, chat, help, login, podcasts, news

    public static let tabs: [Screen] = [
        .home, .library, .search, .myMusic, .queue, .downloads, .nowPlaying, .messages, .notifications,
    ]

    public var title: String {
        switch self {
        case .home: "Home"
        case .library: "Library"
        case .search: "Search"
        case .myMusic: "My Music"
        case .queue: "Queue"
        case .downloads: "Downloads"
        case .nowPlaying: "Now Playing"
        case .messages: "Messages"
        case .notifications: "Inbox"
        case .detail: "Detail"
        case .comments: "Comments"
        case .chat: "Chat"
        case .help: "Help"
        case .login: "Sign in"
        case .podcasts: "Podcasts"
        case .news: "News"
        }
    }
}

/// Where the selection is in a list, and how far it scrolled.
public struct ListCursor: Sendable, Equatable {
    public var selected = 0
    public var scroll = 0

    public init(selected: Int = 0) { self.selected = selected }

    /// Moves by `delta` rows within `count`, stopping at the ends.
    public mutating func move(_ delta: Int, count: Int) {
        guard count > 0 else {
            selected = 0
            return
        }
        selected = min(count - 1, max(0, selected + delta))
    }

    /// Keeps the selection inside a list that now has `count` rows.
    public mutating func clamp(count: Int) { move(0, count: count) }
}

/// Something loading, loaded, or failed, for the status line of a screen.
public enum LoadStatus: Sendable, Equatable {
    case idle
    case loading
    case loaded
    case failed(String)

    var message: String? {
        switch self {
        case .loading: "Loading…"
        case .failed(let message): message
        case .idle, .loaded: nil
        }
    }
}

/// The sign-in and sign-up form.
public struct LoginState: Sendable, Equatable {
    public enum Mode: Sendable, Equatable { case signIn, signUp }
    public var mode: Mode = .signIn
    /// Sign in: account, password. Sign up: nickname, account, password, code.
    public var values: [String] = ["", ""]
    public var focused = 0
    public var message: String?
    public var messageIsError = false
    public var busy = false

    public var labels: [String] {
        mode == .signIn
            ? ["Email or phone", "Password"] : ["Nickname", "Email or phone", "Password", "Code"]
    }

    public var secretField: Int { mode == .signIn ? 1 : 2 }

    mutating func switchMode() {
        mode = mode == .signIn ? .signUp : .signIn
        values = Array(repeating: "", count: labels.count)
        focused = 0
        message = nil
    }
}

/// The home screen's sections.
public struct HomeState: Sendable, Equatable {
    public var sheets: [Sheet] = []
    public var newSongs: [Song] = []
    public var recent: [Song] = []
    public var section = 0
    public var item = 0
    public var status: LoadStatus = .idle

    public static let sectionTitles = ["Recommended sheets", "New songs", "Recently played"]

    func count(of section: Int) -> Int {
        switch section {
        case 0: sheets.count
        case 1: newSongs.count
        default: recent.count
        }
    }
}

/// A list that loads page by page.
public struct PagedList<Item: Sendable & Equatable>: Sendable, Equatable {
    public var items: [Item] = []
    public var nextPage: Int? = 1
    public var cursor = ListCursor()
    public var status: LoadStatus = .idle

    /// Whether the selection is near enough to the end to fetch the next page.
    var wantsMore: Bool {
        guard nextPage != nil, status != .loading else { return false }
        if case .failed = status { return false }
        return items.isEmpty || cursor.selected >= items.count - 10
    }

    mutating func receive(_ page: [Item], next: Int?, replacing: Bool) {
        items = replacing ? page : items + page
        nextPage = next
        status = .loaded
        cursor.clamp(count: items.count)
    }
}

/// The library's four tabs.
public struct LibraryState: Sendable, Equatable {
    public static let tabTitles = ["Artists", "Albums", "Songs", "Genres"]
    public var tab = 0
    public var artists = PagedList<Artist>()
    public var albums = PagedList<Album>()
    public var songs = PagedList<Song>()
    public var genres = PagedList<Genre>()
}

/// Search as you type.
public struct SearchState: Sendable, Equatable {
    /// Songs, albums, artists, sheets, people.
    public static let sectionCount = 5

    public var query = ""
    /// In characters.
    public var cursor = 0
    /// Whether keys type into the query (else they move in the results).
    public var editing = false
    public var results: SearchResults?
    /// Public sheets whose title or tags match.
    public var sheets: [Sheet] = []
    /// People whose nickname starts with the query.
    public var users: [User] = []
    public var section = 0
    public var list = ListCursor()
    public var status: LoadStatus = .idle
    /// Bumped on every edit, so an answer to an older query is dropped.
    public var generation = 0
    /// Play the first song found (`cloudmusic play <words>`).
    public var playFirstAnswer = false

    func count(of section: Int) -> Int {
        guard let results else { return 0 }
        switch section {
        case 0: return results.songs.count
        case 1: return results.albums.count
        case 2: return results.artists.count
        case 3: return sheets.count
        default: return users.count
        }
    }
}

/// A sheet, album, artist or genre opened to its songs.
public struct DetailState: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable { case sheet, album, artist, genre }
    public var kind: Kind
    public var id: String
    public var title: String
    public var subtitle = ""
    public var songs: [Song] = []
    public var sheet: Sheet?
    public var list = ListCursor()
    public var status: LoadStatus = .loading
}

/// My sheets, collected sheets, and "I like".
public struct MyMusicState: Sendable, Equatable {
    public static let tabTitles = ["My sheets", "Collected", "I like"]
    public var tab = 0
    public var created: [Sheet] = []
    public var collected: [Sheet] = []
    public var liked: [Song] = []
    public var list = ListCursor()
    public var status: LoadStatus = .idle

    func count(of tab: Int) -> Int {
        switch tab {
        case 0: created.count
        case 1: collected.count
        default: liked.count
        }
    }
}

/// The comments of a song, and the comment being written.
public struct CommentsState: Sendable, Equatable {
    public var songID: String?
    public var songTitle = ""
    public var comments: [Comment] = []
    public var list = ListCursor()
    public var status: LoadStatus = .idle
    public var draft: Draft?
    /// Where the next (older) page starts; nil when every comment is here.
    public var nextCursor: String?
    public var loadingMore = false

    /// A comment being written (a reply when `replyTo` is set).
    public struct Draft: Sendable, Equatable {
        public var text = ""
        public var cursor = 0
        public var replyTo: Comment?
    }
}

/// Choosing one of my sheets to keep a song in (the apps' "collect to sheet"), or naming a new one.
public struct SheetPicker: Sendable, Equatable {
    public var song: Song
    /// Row 0 is "New sheet…"; the rest are my sheets (not "I like", which has its own key).
    public var list = ListCursor()
    /// The new sheet's title while it is typed; nil while choosing.
    public var newTitle: String?
    public var cursor = 0

    public init(song: Song) { self.song = song }
}

/// A download as the downloads screen shows it.
public struct DownloadEntry: Sendable, Equatable {
    public var song: Song
    public var state: String
    public var received: Int64
    public var total: Int64?
    public var message: String?
}

/// What plays now.
public struct PlayingState: Sendable, Equatable {
    public var song: Song?
    public var playback: PlaybackState = .idle
    public var position: Double = 0
    public var duration: Double = 0
    public var mode: LoopMode = .list
    public var volume = 80
    public var soundOutput: SoundOutput = .unknown
    public var lyric: Lyric?
    public var lyricSongID: String?
    public var lyricStatus: String?
}

/// A short message at the bottom of the screen.
public struct Toast: Sendable, Equatable {
    public var message: String
    public var isError: Bool
    /// Seconds (ticks) it stays.
    public var ticksLeft = 4
}

/// Everything the player shows; a pure value, changed only by `reduce`.
public struct AppState: Sendable, Equatable {
    public var screen: Screen
    /// Screens to go back to (the tab or screen each overlay opened from).
    public var backStack: [Screen] = []
    public var userID: String?
    public var nickname: String?
    public var server: String
    public var login = LoginState()
    public var home = HomeState()
    public var library = LibraryState()
    public var search = SearchState()
    public var detail: DetailState?
    public var myMusic = MyMusicState()
    public var queue: [Song] = []
    public var queueIndex: Int?
    public var queueList = ListCursor()
    public var downloads: [DownloadEntry] = []
    public var downloadsList = ListCursor()
    public var playing = PlayingState()
    public var comments = CommentsState()
    public var helpScroll = 0
    /// Open over any screen while a song is being added to a sheet.
    public var sheetPicker: SheetPicker?
    /// Open over any screen while a song is being shared in a chat.
    public var sharePicker: SharePicker?
    public var messages = MessagesState()
    public var chat: ChatState?
    public var notifications = NotificationsState()
    public var podcasts = PodcastsState()
    public var news = NewsState()
    /// A yes-or-no question in the status row.
    public var confirmation: Confirmation?
    /// A line of text asked for in the status row.
    public var prompt: TextPrompt?
    public var toast: Toast?
    public var keyMap: KeyMap
    public var quitting = false
    /// Rows the body of a screen has, for page up and down.
    public var bodyHeight = 20

    public init(
        server: String, keyMap: KeyMap = KeyMap(), signedIn: (userID: String, nickname: String?)? = nil
    ) {
        self.server = server
        self.keyMap = keyMap
        if let signedIn {
            userID = signedIn.userID
            nickname = signedIn.nickname
            screen = .home
        } else {
            screen = .login
        }
    }

    public var isSignedIn: Bool { userID != nil }

    /// Whether a song is in my "I like".
    public func isLiked(_ songID: String) -> Bool { myMusic.liked.contains { $0.id == songID } }

    /// Whether the playing song is in my "I like".
    public var playingIsLiked: Bool { playing.song.map { isLiked($0.id) } ?? false }

    /// The sheets a song can be added to: mine, without "I like".
    public var ownSheets: [Sheet] { myMusic.created.filter { $0.kind != "likes" } }
}
