import CloudMusicKit
import MusicCore

/// How the live event stream fares, for the Messages screen's title row.
public enum LiveStatus: Sendable, Equatable {
    /// Not signed in, or not started yet.
    case off
    case connecting
    case live
    /// The connection dropped; it is opened again soon.
    case retrying(String)
    /// It ended for good (another window of this account's session took it over).
    case stopped(String)
}

/// The Messages screen: one's conversations, newest first.
public struct MessagesState: Sendable, Equatable {
    public var conversations: [Conversation] = []
    /// More conversations wait on the server.
    public var hasMore = false
    public var loadingMore = false
    public var unread = UnreadMessages(count: 0, conversations: 0)
    public var list = ListCursor()
    public var status: LoadStatus = .idle
    public var live: LiveStatus = .off
}

/// One conversation open: its messages, oldest first, and the message being typed.
public struct ChatState: Sendable, Equatable {
    /// The other person.
    public var user: UserSummary
    /// Nil until the first message of a new conversation is sent.
    public var conversationID: String?
    public var messages: [Message] = []
    public var hasOlder = false
    public var loadingOlder = false
    /// The other person has read up to this message.
    public var peerReadThrough: String?
    public var status: LoadStatus = .loading
    public var draft = ""
    /// In characters.
    public var cursor = 0
    /// Whether keys type into the message (else they move among the messages).
    public var composing = true
    /// The message selected while not composing; nil follows the newest.
    public var selected: Int?
    /// The first row shown, kept so the view does not jump.
    public var scroll = 0
    /// The newest message this window asked the server to mark read.
    public var readMarkSent: String?

    public init(user: UserSummary, conversationID: String?) {
        self.user = user
        self.conversationID = conversationID
    }
}

/// The Notifications screen (the inbox), one tab per kind.
public struct NotificationsState: Sendable, Equatable {
    /// Each tab's title and the kind it shows (nil for every kind).
    public static let tabs: [(title: String, kind: String?)] = [
        ("All", nil), ("Replies", "reply"), ("Mentions", "mention"), ("Likes", "like"), ("Follows", "follow"),
        ("Comments", "comment"),
    ]

    public var tab = 0
    /// Every notification loaded, newest first; the tabs filter them.
    public var items: [NotificationItem] = []
    /// Where the next (older) page starts; nil when all are here.
    public var nextCursor: String?
    public var loadingMore = false
    public var unread = UnreadNotifications(count: 0, kinds: [:])
    public var list = ListCursor()
    public var status: LoadStatus = .idle

    /// The notifications of the current tab.
    public var visible: [NotificationItem] {
        guard let kind = Self.tabs[tab].kind else { return items }
        return items.filter { $0.kind == kind }
    }

    /// How many of a tab's kind are unread.
    public func unreadCount(tab: Int) -> Int {
        guard let kind = Self.tabs[tab].kind else { return unread.count }
        return unread.kinds[kind] ?? 0
    }

    /// Whether the selection is near enough to the end (or the tab too empty) to fetch older ones.
    var wantsMore: Bool {
        guard nextCursor != nil, !loadingMore, status != .loading else { return false }
        return list.selected >= visible.count - 10
    }
}

/// Choosing a conversation to share a song in.
public struct SharePicker: Sendable, Equatable {
    public var song: Song
    public var list = ListCursor()
    public init(song: Song) { self.song = song }
}

/// A question asked before something that cannot be undone; `y` runs `effect`, any other key cancels.
public struct Confirmation: Sendable, Equatable {
    public var question: String
    public var effect: AppEffect
}

/// A line of text asked for in the status row (a sheet's new title).
public struct TextPrompt: Sendable, Equatable {
    public enum Purpose: Sendable, Equatable {
        case renameSheet(id: String)
    }
    public var purpose: Purpose
    public var label: String
    public var text: String
    public var cursor: Int
}
