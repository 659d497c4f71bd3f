import PlayerControl

/// Something a person asks for with a key; the config file names them (`play_pause = space`).
public enum Command: String, CaseIterable, Sendable {
    // Playback, on every screen.
    case playPause = "play_pause"
    case next
    case previous
    case seekBack = "seek_back"
    case seekForward = "seek_forward"
    case volumeUp = "volume_up"
    case volumeDown = "volume_down"
    case loopMode = "loop_mode"
    case like
    case speedDown = "speed_down"
    case speedUp = "speed_up"
    // Screens.
    case home
    case library
    case search
    case myMusic = "my_music"
    case queue
    case downloads
    case nowPlaying = "now_playing"
    case messages
    case notifications
    case podcasts
    case news
    case comments
    case help
    case back
    case quit
    // Lists.
    case up
    case down
    case pageUp = "page_up"
    case pageDown = "page_down"
    case top
    case bottom
    case nextTab = "next_tab"
    case previousTab = "previous_tab"
    case play
    case playAll = "play_all"
    case addToQueue = "add_to_queue"
    case addToSheet = "add_to_sheet"
    case download
    case collect
    case moveUp = "move_up"
    case moveDown = "move_down"
    case remove
    case clear
    case write
    case reply
    case refresh
    // Sheets and messages.
    case rename
    case share
    case markRead = "mark_read"

    /// What the help screen says it does.
    public var summary: String {
        switch self {
        case .playPause: "Play or pause"
        case .next: "Next song"
        case .previous: "Previous song"
        case .seekBack: "Back 5 seconds"
        case .seekForward: "Forward 5 seconds"
        case .volumeUp: "Volume up"
        case .volumeDown: "Volume down"
        case .loopMode: "Loop mode: list, one, shuffle"
        case .like: "Like the song (\"I like\"), the comment, or the podcast episode"
        case .home: "Home"
        case .library: "Library: artists, albums, songs, genres"
        case .search: "Search"
        case .myMusic: "My sheets, collected sheets, I like"
        case .queue: "The play queue"
        case .downloads: "Downloads"
        case .nowPlaying: "Now playing, with lyrics"
        case .messages: "Messages: conversations and chats"
        case .notifications: "Inbox: replies, mentions, likes, follows, comments"
        case .podcasts: "Podcasts: subscriptions, episodes"
        case .news: "News: channels, articles as text"
        case .speedDown: "Play episodes slower (down to 0.5×)"
        case .speedUp: "Play episodes faster (up to 3×)"
        case .comments: "Comments of the playing song, or of the podcast episode selected"
        case .help: "This help"
        case .back: "Back"
        case .quit: "Quit"
        case .up: "Up"
        case .down: "Down"
        case .pageUp: "Page up"
        case .pageDown: "Page down"
        case .top: "First item"
        case .bottom: "Last item"
        case .nextTab: "Next tab or section"
        case .previousTab: "Previous tab or section"
        case .play: "Play, or open"
        case .playAll: "Play the whole list"
        case .addToQueue: "Add to the queue"
        case .addToSheet: "Add the song to one of my sheets, or a new one"
        case .download: "Download for offline play"
        case .collect: "Collect the sheet, or stop collecting it; subscribe to the podcast"
        case .moveUp: "Move up in the queue"
        case .moveDown: "Move down in the queue"
        case .remove: "Remove from the queue or my sheet; delete a download, sheet or message"
        case .clear: "Clear the queue"
        case .write: "Write a comment; write in a chat, or to the person selected"
        case .reply: "Reply to the comment"
        case .refresh: "Reload"
        case .rename: "Rename my sheet"
        case .share: "Share the playing song in a chat"
        case .markRead: "Mark every notification read; news: the channel, or the article (un)read"
        }
    }

    /// Where the help screen lists it.
    public var section: String {
        switch self {
        case .playPause, .next, .previous, .seekBack, .seekForward, .volumeUp, .volumeDown, .loopMode, .like,
            .speedDown, .speedUp:
            "Playback"
        case .home, .library, .search, .myMusic, .queue, .downloads, .nowPlaying, .messages, .notifications,
            .podcasts, .news, .comments, .help, .back, .quit:
            "Screens"
        case .up, .down, .pageUp, .pageDown, .top, .bottom, .nextTab, .previousTab, .play, .playAll,
            .addToQueue, .addToSheet, .download, .collect, .refresh, .rename:
            "Lists"
        case .moveUp, .moveDown, .remove, .clear: "Queue and downloads"
        case .write, .reply, .share, .markRead: "Comments and messages"
        }
    }
}

/// Which keys run which commands: the defaults, with the config file's `[keys]` on top.
public struct KeyMap: Sendable, Equatable {
    public private(set) var keys: [Command: [Key]]
    private var commands: [Key: Command]

    /// The keys each command has unless the config file says otherwise (the config's own table, so the
    /// template people edit and the player agree).
    public static let defaults: [Command: [Key]] = Dictionary(
        uniqueKeysWithValues: PlayerConfig.keyDefaults.compactMap { entry in
            Command(rawValue: entry.action).map { ($0, entry.keys) }
        })

    /// The defaults, with `overrides` replacing the keys of the commands they name.
    /// A key an override binds is taken from any command still on its defaults, so the override wins.
    public init(overrides: [Command: [Key]] = [:]) {
        var keys = Self.defaults
        let taken = Set(overrides.values.joined())
        for (command, bound) in keys where overrides[command] == nil {
            keys[command] = bound.filter { !taken.contains($0) }
        }
        for (command, bound) in overrides { keys[command] = bound }
        self.keys = keys
        commands = [:]
        // Commands in declaration order, so when two share a key the first one listed wins.
        for command in Command.allCases {
            for key in keys[command] ?? [] where commands[key] == nil { commands[key] = command }
        }
    }

    public func command(for key: Key) -> Command? { commands[key] }

    /// The keys of a command as the help screen shows them ("Space", "n", "←").
    public func label(_ command: Command) -> String {
        (keys[command] ?? []).map(Self.label).joined(separator: " ")
    }

    public static func label(_ key: Key) -> String {
        switch key {
        case .character(let character): String(character)
        case .space: "Space"
        case .enter: "Enter"
        case .tab: "Tab"
        case .backTab: "Shift-Tab"
        case .backspace: "Backspace"
        case .delete: "Delete"
        case .escape: "Esc"
        case .left: "←"
        case .right: "→"
        case .up: "↑"
        case .down: "↓"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .home: "Home"
        case .end: "End"
        case .function(let number): "F\(number)"
        case .control(let letter): "Ctrl-\(letter.uppercased())"
        }
    }
}
