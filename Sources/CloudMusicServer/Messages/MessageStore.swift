import Foundation
import MusicCore
import Storage

/// The SQL of conversations and messages. What a message shares (a song, a sheet, a video, a picture) is
/// stored as its id and turned into models by the service, a page at a time.
struct MessageStore: Sendable {
    /// A message row, before what it shares is looked up.
    struct Record: Sendable {
        var id: Int64
        var conversationID: Int64
        var sender: UserSummary
        var kind: MessageKind
        var content: String?
        var fileID: String?
        var songID: Int64?
        var sheetID: Int64?
        var videoID: Int64?
        var createdAt: Int64
    }

    /// A person's side of a conversation.
    struct Member: Sendable {
        var conversationID: Int64
        var userID: Int64
        var peer: UserSummary
        var peerID: Int64 { Int64(peer.id) ?? 0 }
        var lastMessageID: Int64?
        var readThrough: Int64
        var clearedThrough: Int64
        var unreadCount: Int
        var createdAt: Int64
        var updatedAt: Int64
    }

    static let kinds: [MessageKind: Int] = [.text: 1, .image: 2, .song: 3, .sheet: 4, .video: 5]
    static let kindsByNumber = Dictionary(uniqueKeysWithValues: kinds.map { ($1, $0) })

    // MARK: Conversations

    /// The conversation of two people, made (with both member rows) when it does not exist yet.
    func conversation(_ db: Connection, between a: Int64, and b: Int64, now: Int64) throws -> Int64 {
        let (low, high) = a < b ? (a, b) : (b, a)
        if let id = try db.queryOne(
            "SELECT id FROM conversations WHERE user_low = ? AND user_high = ?", low, high,
            decode: { try $0.int64("id") })
        {
            return id
        }
        try db.execute(
            "INSERT INTO conversations(user_low, user_high, created_at) VALUES (?, ?, ?)", low, high, now)
        let id = db.lastInsertRowID
        try db.execute(
            """
            INSERT INTO conversation_members(conversation_id, user_id, peer_id, updated_at)
            VALUES (?, ?, ?, ?), (?, ?, ?, ?)
            """, id, low, high, now, id, high, low, now)
        return id
    }

    private static let selectMember = """
        SELECT m.conversation_id, m.user_id, m.last_message_id, m.read_through, m.cleared_through,
            m.unread_count, m.updated_at, c.created_at, \(UserColumns.select("p", as: "peer"))
        FROM conversation_members m JOIN conversations c ON c.id = m.conversation_id
        JOIN users p ON p.id = m.peer_id
        """

    private static func decodeMember(_ row: Row) throws -> Member {
        Member(
            conversationID: try row.int64("conversation_id"), userID: try row.int64("user_id"),
            peer: try UserColumns.person(row, "peer"),
            lastMessageID: try row.optionalInt64("last_message_id"),
            readThrough: try row.int64("read_through"), clearedThrough: try row.int64("cleared_through"),
            unreadCount: try row.int("unread_count"), createdAt: try row.int64("created_at"),
            updatedAt: try row.int64("updated_at"))
    }

    /// One's side of a conversation; nil when it is not one's own.
    func member(_ db: Connection, conversationID: Int64, userID: Int64) throws -> Member? {
        try db.queryOne(
            Self.selectMember + " WHERE m.conversation_id = ? AND m.user_id = ?", conversationID, userID,
            decode: Self.decodeMember)
    }

    /// One's conversations with a message one still sees, newest first, after `cursor` (updated_at, id).
    func members(
        _ db: Connection, userID: Int64, peerID: Int64? = nil, after cursor: (updatedAt: Int64, id: Int64)?,
        offset: Int, limit: Int
    ) throws -> (members: [Member], total: Int) {
        var sql = Self.selectMember + " WHERE m.user_id = ? AND m.last_message_id IS NOT NULL"
        var arguments: [any SQLBindable] = [userID]
        if let peerID {
            let found = try db.query(
                sql + " AND m.peer_id = ?", arguments: arguments + [peerID], decode: Self.decodeMember)
            return (found, found.count)
        }
        if let cursor {
            sql += " AND (m.updated_at < ? OR (m.updated_at = ? AND m.conversation_id < ?))"
            arguments += [cursor.updatedAt, cursor.updatedAt, cursor.id]
        }
        sql += " ORDER BY m.updated_at DESC, m.conversation_id DESC LIMIT ? OFFSET ?"
        arguments += [limit, offset]
        let members = try db.query(sql, arguments: arguments, decode: Self.decodeMember)
        let total =
            try db.queryOne(
                "SELECT count(*) AS n FROM conversation_members WHERE user_id = ? AND last_message_id IS NOT NULL",
                userID
            ) { try $0.int("n") } ?? 0
        return (members, total)
    }

    // MARK: Messages

    private static let selectMessage = """
        SELECT msg.id, msg.conversation_id, msg.kind, msg.content, msg.file_id, msg.song_id, msg.sheet_id,
            msg.video_id, msg.created_at, \(UserColumns.select("s", as: "sender"))
        FROM messages msg JOIN users s ON s.id = msg.sender_id
        """

    private static func decodeMessage(_ row: Row) throws -> Record {
        Record(
            id: try row.int64("id"), conversationID: try row.int64("conversation_id"),
            sender: try UserColumns.person(row, "sender"),
            kind: kindsByNumber[try row.int("kind")] ?? .text, content: try row.optionalString("content"),
            fileID: try row.optionalString("file_id"), songID: try row.optionalInt64("song_id"),
            sheetID: try row.optionalInt64("sheet_id"), videoID: try row.optionalInt64("video_id"),
            createdAt: try row.int64("created_at"))
    }

    func insert(
        _ db: Connection, conversationID: Int64, senderID: Int64, kind: MessageKind, content: String?,
        fileID: String?, songID: Int64?, sheetID: Int64?, videoID: Int64?, now: Int64
    ) throws -> Int64 {
        try db.execute(
            """
            INSERT INTO messages(conversation_id, sender_id, kind, content, file_id, song_id, sheet_id, video_id,
                created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, conversationID, senderID, Self.kinds[kind] ?? 1, content, fileID, songID, sheetID, videoID,
            now)
        return db.lastInsertRowID
    }

    /// After a message: both sides see it as the last one; the receiver has one more unread, and the sender
    /// has read everything up to it (answering is reading).
    func noteMessage(_ db: Connection, conversationID: Int64, messageID: Int64, senderID: Int64, now: Int64)
        throws
    {
        try db.execute(
            """
            UPDATE conversation_members SET last_message_id = ?, updated_at = ?,
                unread_count = CASE WHEN user_id = ? THEN 0 ELSE unread_count + 1 END,
                read_through = CASE WHEN user_id = ? THEN ? ELSE read_through END
            WHERE conversation_id = ?
            """, messageID, now, senderID, senderID, messageID, conversationID)
    }

    func message(_ db: Connection, id: Int64) throws -> Record? {
        try db.queryOne(Self.selectMessage + " WHERE msg.id = ?", id, decode: Self.decodeMessage)
    }

    /// Messages of a conversation that `member` still sees: the newest `limit`, or those before or after an
    /// id; oldest first, and whether there are more on either side.
    func messages(_ db: Connection, member: Member, before: Int64?, after: Int64?, limit: Int) throws
        -> (records: [Record], hasOlder: Bool, hasNewer: Bool)
    {
        let visible = """
             WHERE msg.conversation_id = ? AND msg.id > ?
              AND NOT EXISTS (SELECT 1 FROM message_deletions d WHERE d.user_id = ? AND d.message_id = msg.id)
            """
        let base: [any SQLBindable] = [member.conversationID, member.clearedThrough, member.userID]
        var records: [Record]
        var hasOlder = false
        var hasNewer = false
        if let after {
            records = try db.query(
                Self.selectMessage + visible + " AND msg.id > ? ORDER BY msg.id LIMIT ?",
                arguments: base + [after, limit + 1], decode: Self.decodeMessage)
            hasNewer = records.count > limit
            records = Array(records.prefix(limit))
            hasOlder = true
        } else {
            var sql = Self.selectMessage + visible
            var arguments = base
            if let before {
                sql += " AND msg.id < ?"
                arguments.append(before)
                hasNewer = true
            }
            records = try db.query(
                sql + " ORDER BY msg.id DESC LIMIT ?", arguments: arguments + [limit + 1],
                decode: Self.decodeMessage)
            hasOlder = records.count > limit
            records = Array(records.prefix(limit).reversed())
        }
        return (records, hasOlder, hasNewer)
    }

    /// Whether `userID` still sees message `id` of their conversation.
    func sees(_ db: Connection, member: Member, messageID: Int64) throws -> Bool {
        guard messageID > member.clearedThrough else { return false }
        return try db.queryOne(
            """
            SELECT 1 AS one FROM messages WHERE id = ? AND conversation_id = ?
              AND NOT EXISTS (SELECT 1 FROM message_deletions WHERE user_id = ? AND message_id = ?)
            """, messageID, member.conversationID, member.userID, messageID
        ) { _ in true } ?? false
    }

    /// Recounts `member`'s unread messages (from the other person, after what they read, still seen) and
    /// their last message, after something changed either.
    func refresh(_ db: Connection, member: Member) throws {
        try db.execute(
            """
            UPDATE conversation_members SET
                unread_count = (SELECT count(*) FROM messages msg WHERE msg.conversation_id = ?1
                    AND msg.sender_id <> ?2 AND msg.id > max(?3, ?4)
                    AND NOT EXISTS (SELECT 1 FROM message_deletions d WHERE d.user_id = ?2 AND d.message_id = msg.id)),
                last_message_id = (SELECT max(msg.id) FROM messages msg WHERE msg.conversation_id = ?1
                    AND msg.id > ?4
                    AND NOT EXISTS (SELECT 1 FROM message_deletions d WHERE d.user_id = ?2 AND d.message_id = msg.id))
            WHERE conversation_id = ?1 AND user_id = ?2
            """, member.conversationID, member.userID, member.readThrough, member.clearedThrough)
    }

    func markRead(_ db: Connection, member: Member, through messageID: Int64) throws {
        try db.execute(
            """
            UPDATE conversation_members SET read_through = max(read_through, ?)
            WHERE conversation_id = ? AND user_id = ?
            """, messageID, member.conversationID, member.userID)
    }

    /// The newest message id of a conversation (0 when it has none).
    func newestID(_ db: Connection, conversationID: Int64) throws -> Int64 {
        try db.queryOne(
            "SELECT max(id) AS id FROM messages WHERE conversation_id = ?", conversationID
        ) { try $0.optionalInt64("id") ?? 0 } ?? 0
    }

    func deleteForOne(_ db: Connection, messageID: Int64, userID: Int64) throws {
        try db.execute(
            "INSERT INTO message_deletions(user_id, message_id) VALUES (?, ?) ON CONFLICT DO NOTHING", userID,
            messageID)
    }

    /// Hides every message so far from `member`, and takes the conversation off their list.
    func clear(_ db: Connection, member: Member, through messageID: Int64) throws {
        try db.execute(
            """
            UPDATE conversation_members SET cleared_through = ?, read_through = max(read_through, ?),
                unread_count = 0, last_message_id = NULL
            WHERE conversation_id = ? AND user_id = ?
            """, messageID, messageID, member.conversationID, member.userID)
        // Their own deletions below the line no longer matter.
        try db.execute(
            """
            DELETE FROM message_deletions WHERE user_id = ? AND message_id IN
                (SELECT id FROM messages WHERE conversation_id = ? AND id <= ?)
            """, member.userID, member.conversationID, messageID)
    }

    /// Messages `senderID` sent since `time`, for the rate limit.
    func sentSince(_ db: Connection, senderID: Int64, time: Int64) throws -> Int {
        try db.queryOne(
            "SELECT count(*) AS n FROM messages WHERE sender_id = ? AND created_at >= ?", senderID, time
        ) { try $0.int("n") } ?? 0
    }

    func unread(_ db: Connection, userID: Int64) throws -> UnreadMessages {
        try db.queryOne(
            """
            SELECT coalesce(sum(unread_count), 0) AS n, count(*) FILTER (WHERE unread_count > 0) AS c
            FROM conversation_members WHERE user_id = ? AND last_message_id IS NOT NULL
            """, userID
        ) { UnreadMessages(count: try $0.int("n"), conversations: try $0.int("c")) }
            ?? UnreadMessages(count: 0, conversations: 0)
    }

    // MARK: Settings

    func permission(_ db: Connection, userID: Int64) throws -> MessagePermission {
        let value = try db.queryOne("SELECT allow_from FROM message_settings WHERE user_id = ?", userID) {
            try $0.int("allow_from")
        }
        return value == 1 ? .following : .everyone
    }

    func setPermission(_ db: Connection, userID: Int64, _ permission: MessagePermission) throws {
        try db.execute(
            """
            INSERT INTO message_settings(user_id, allow_from) VALUES (?, ?)
            ON CONFLICT(user_id) DO UPDATE SET allow_from = excluded.allow_from
            """, userID, permission == .following ? 1 : 0)
    }
}
