import Foundation
import MusicCore
import Storage

/// The rules of one-to-one messages: who may write to whom (blocks both ways, "only people I follow"), the
/// limits, what may be shared, reading and deleting for oneself. Each use case is one transaction; its events
/// (to both people's devices) are written in it and published once it has committed.
struct MessageService: Sendable {
    let database: Database
    let store = MessageStore()
    let follows = FollowReads()
    let catalog = Catalog()
    let sheets = SheetReads()
    let files = FileReads()
    let accounts: AccountService
    let videos: VideoService
    let events: EventLog
    var limit = PostingLimit(perMinute: 30, perDay: 2_000, doing: "sending messages", things: "messages")
    var clock: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }

    static let noConversation = ServiceError.notFound("That conversation does not exist.")
    static let noMessage = ServiceError.notFound("That message does not exist.")

    // MARK: Sending

    func send(_ draft: MessageDraft, viewer: Viewer) throws -> Message {
        let recipient = draft.userId.rawValue
        guard recipient != viewer.userID else {
            throw ServiceError.invalid("You cannot send a message to yourself.")
        }
        let content = try Self.content(of: draft)
        return try database.write { db in
            _ = try accounts.user(db, id: recipient, viewer: viewer)
            if try follows.isBlocked(db, by: recipient, viewer.userID) {
                throw ServiceError.forbidden("This person does not take messages from you.")
            }
            if try follows.isBlocked(db, by: viewer.userID, recipient) {
                throw ServiceError.forbidden("You blocked this person. Unblock them to send a message.")
            }
            if try store.permission(db, userID: recipient) == .following,
                try !follows.follows(db, followerID: recipient, followeeID: viewer.userID)
            {
                throw ServiceError.forbidden("This person only takes messages from people they follow.")
            }
            let now = clock()
            try limit.check(now: now) { since in try store.sentSince(db, senderID: viewer.userID, time: since)
            }
            let shared = try self.shared(db, draft, viewer: viewer)
            let conversationID = try store.conversation(db, between: viewer.userID, and: recipient, now: now)
            let id = try store.insert(
                db, conversationID: conversationID, senderID: viewer.userID, kind: draft.kind,
                content: content,
                fileID: shared.fileID, songID: shared.songID, sheetID: shared.sheetID,
                videoID: shared.videoID,
                now: now)
            try store.noteMessage(
                db, conversationID: conversationID, messageID: id, senderID: viewer.userID, now: now)
            guard let record = try store.message(db, id: id) else { throw Self.noMessage }
            let message = try models(db, [record], viewerID: viewer.userID)[0]
            let unread =
                try store.member(db, conversationID: conversationID, userID: recipient)?.unreadCount ?? 0
            try events.append(
                db, to: recipient, .message, MessageEvent(message: message, unreadCount: unread), at: now)
            try events.append(
                db, to: viewer.userID, .message, MessageEvent(message: message, unreadCount: 0), at: now)
            return message
        }
    }

    /// The text of a text message, checked; nil for the other kinds.
    private static func content(of draft: MessageDraft) throws -> String? {
        guard draft.kind == .text else {
            if let content = draft.content, !content.isEmpty {
                throw ServiceError.invalid(
                    "Only a text message has 'content'; send the text as its own message.")
            }
            return nil
        }
        guard
            let text = try MessageDraft.contentText.check(draft.content)
        else { throw ServiceError.invalid("Write something to send.") }
        return text
    }

    private struct Shared {
        var fileID: String?
        var songID: Int64?
        var sheetID: Int64?
        var videoID: Int64?
    }

    /// What a message of another kind than text shares, checked: one's own upload, a song or video in the
    /// library, a sheet the recipient may see.
    private func shared(_ db: Connection, _ draft: MessageDraft, viewer: Viewer) throws -> Shared {
        let given = [draft.fileId != nil, draft.songId != nil, draft.sheetId != nil, draft.videoId != nil]
            .filter { $0 }.count
        func id<Kind>(_ value: ID<Kind>?, _ field: String) throws -> Int64 {
            guard let value else {
                throw ServiceError.invalid("A \(draft.kind.rawValue) message needs '\(field)'.")
            }
            return value.rawValue
        }
        guard given <= 1 else {
            throw ServiceError.invalid("A message shares one thing: send only the field its kind needs.")
        }
        var shared = Shared()
        switch draft.kind {
        case .text:
            guard given == 0 else {
                throw ServiceError.invalid(
                    "A text message shares nothing: send the picture or song on its own.")
            }
        case .image:
            guard let fileID = draft.fileId else {
                throw ServiceError.invalid(
                    "An image message needs 'fileId': upload the picture first (POST /v1/files/multi).")
            }
            let sha = fileID.lowercased()
            guard sha.count == 64, sha.allSatisfy(\.isHexDigit),
                try files.hasUploaded(db, userID: viewer.userID, sha256: sha)
            else {
                throw ServiceError.notFound("That picture is not one you uploaded. Upload it first.")
            }
            shared.fileID = sha
        case .song:
            let songID = try id(draft.songId, "songId")
            guard try catalog.songExists(db, id: songID) else {
                throw ServiceError.notFound("That song does not exist.")
            }
            shared.songID = songID
        case .sheet:
            let sheetID = try id(draft.sheetId, "sheetId")
            guard let access = try sheets.access(db, sheetID: sheetID),
                !access.isPrivate || access.ownerID == viewer.userID
            else { throw ServiceError.notFound("That sheet does not exist.") }
            guard !access.isPrivate else {
                throw ServiceError.invalid("That sheet is private: make it public to share it.")
            }
            shared.sheetID = sheetID
        case .video:
            let videoID = try id(draft.videoId, "videoId")
            guard try VideoService.exists(db, id: videoID) else {
                throw VideoService.noVideo
            }
            shared.videoID = videoID
        }
        return shared
    }

    // MARK: Reading

    func conversations(_ query: ConversationListQuery, viewer: Viewer) throws -> CursorPage<Conversation> {
        let cursor = try PageCursor.scored(query.cursor, first: .infinity).map {
            (updatedAt: PageCursor.time($0.score), id: $0.id)
        }
        return try database.read { db in
            let (members, total) = try store.members(
                db, userID: viewer.userID, peerID: query.userId, after: cursor,
                offset: cursor == nil ? query.paging.offset : 0,
                limit: query.paging.size)
            let conversations = try self.conversations(db, members, viewerID: viewer.userID)
            let next = members.count == query.paging.size ? members.last : nil
            return CursorPage(
                data: conversations, total: total, page: cursor == nil ? query.paging.page : 0,
                size: query.paging.size,
                nextCursor: next.map {
                    PageCursor.scored(Double($0.updatedAt), id: String($0.conversationID))
                })
        }
    }

    func conversation(id: Int64, viewer: Viewer) throws -> Conversation {
        try database.read { db in try conversation(db, id: id, viewer: viewer) }
    }

    private func conversation(_ db: Connection, id: Int64, viewer: Viewer) throws -> Conversation {
        guard let member = try store.member(db, conversationID: id, userID: viewer.userID) else {
            throw Self.noConversation
        }
        return try conversations(db, [member], viewerID: viewer.userID)[0]
    }

    /// Models of conversations, their last messages looked up together.
    private func conversations(_ db: Connection, _ members: [MessageStore.Member], viewerID: Int64) throws
        -> [Conversation]
    {
        let records = try members.compactMap(\.lastMessageID).compactMap { try store.message(db, id: $0) }
        let messages = try models(db, records, viewerID: viewerID)
        let byID = Dictionary(messages.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        return members.map { member in
            Conversation(
                id: String(member.conversationID), user: member.peer,
                lastMessage: member.lastMessageID.flatMap { byID[String($0)] },
                unreadCount: member.unreadCount,
                createdAt: APIDate.string(member.createdAt), updatedAt: APIDate.string(member.updatedAt))
        }
    }

    func messages(conversationID: Int64, _ query: MessageListQuery, viewer: Viewer) throws -> MessagePage {
        guard query.before == nil || query.after == nil else {
            throw ServiceError.invalid("Ask for messages 'before' or 'after' one, not both.")
        }
        return try database.read { db in
            guard let member = try store.member(db, conversationID: conversationID, userID: viewer.userID)
            else {
                throw Self.noConversation
            }
            let page = try store.messages(
                db, member: member, before: query.before, after: query.after, limit: query.size)
            return MessagePage(
                data: try models(db, page.records, viewerID: viewer.userID), hasOlder: page.hasOlder,
                hasNewer: page.hasNewer)
        }
    }

    func unread(viewer: Viewer) throws -> UnreadMessages {
        try database.read { db in try store.unread(db, userID: viewer.userID) }
    }

    /// Messages as models: what they share is looked up a kind at a time, not a message at a time.
    private func models(_ db: Connection, _ records: [MessageStore.Record], viewerID: Int64) throws
        -> [Message]
    {
        let songIDs = Array(Set(records.compactMap(\.songID)))
        let songs = Dictionary(
            try catalog.songs(db, ids: songIDs).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        var sheetsByID: [Int64: Sheet] = [:]
        for record in try sheets.sheets(
            db, ids: Array(Set(records.compactMap(\.sheetID))), viewerID: viewerID)
        where !record.isPrivate || record.userID == viewerID {
            sheetsByID[record.id] = record.model(signedIn: true)
        }
        let videosByID = Dictionary(
            try videos.videos(db, ids: Array(Set(records.compactMap(\.videoID))), viewerID: viewerID)
                .map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let pictures = try files.files(db, sha256s: Array(Set(records.compactMap(\.fileID))))
        return records.map { r in
            Message(
                id: String(r.id), conversationId: String(r.conversationID), sender: r.sender, kind: r.kind,
                content: r.content, image: r.fileID.flatMap { pictures[$0] },
                song: r.songID.flatMap { songs[String($0)] }, sheet: r.sheetID.flatMap { sheetsByID[$0] },
                video: r.videoID.flatMap { videosByID[String($0)] }, createdAt: APIDate.string(r.createdAt),
                updatedAt: APIDate.string(r.createdAt))
        }
    }

    // MARK: Reading marks and deleting

    /// Marks the conversation read up to `messageId` (all of it without one); both people's devices hear of it.
    func markRead(conversationID: Int64, _ mark: ReadMark?, viewer: Viewer) throws -> Conversation {
        try database.write { db in
            guard let member = try store.member(db, conversationID: conversationID, userID: viewer.userID)
            else {
                throw Self.noConversation
            }
            let through: Int64
            if let id = mark?.messageId?.rawValue {
                guard try store.sees(db, member: member, messageID: id) else {
                    throw Self.noMessage
                }
                through = id
            } else {
                through = try store.newestID(db, conversationID: conversationID)
            }
            try store.markRead(db, member: member, through: through)
            guard let updated = try store.member(db, conversationID: conversationID, userID: viewer.userID)
            else {
                throw Self.noConversation
            }
            try store.refresh(db, member: updated)
            let conversation = try self.conversation(db, id: conversationID, viewer: viewer)
            let now = clock()
            let read = ReadEvent(
                conversationId: String(conversationID), userId: String(viewer.userID),
                messageId: String(max(through, member.readThrough)), unreadCount: conversation.unreadCount)
            try events.append(db, to: viewer.userID, .read, read, at: now)
            var receipt = read
            receipt.unreadCount = nil
            try events.append(db, to: member.peerID, .read, receipt, at: now)
            return conversation
        }
    }

    /// Deletes a message for the viewer only; the other person keeps it.
    func delete(messageID: Int64, viewer: Viewer) throws {
        try database.write { db in
            guard let record = try store.message(db, id: messageID),
                let member = try store.member(
                    db, conversationID: record.conversationID, userID: viewer.userID),
                try store.sees(db, member: member, messageID: messageID)
            else { throw Self.noMessage }
            try store.deleteForOne(db, messageID: messageID, userID: viewer.userID)
            try store.refresh(db, member: member)
        }
    }

    /// Deletes a conversation for the viewer: its messages so far are gone for them; a new one brings it back.
    func deleteConversation(id: Int64, viewer: Viewer) throws {
        try database.write { db in
            guard let member = try store.member(db, conversationID: id, userID: viewer.userID) else {
                throw Self.noConversation
            }
            try store.clear(db, member: member, through: try store.newestID(db, conversationID: id))
            try events.append(
                db, to: viewer.userID, .conversation,
                ConversationEvent(conversationId: String(id), deleted: true),
                at: clock())
        }
    }

    // MARK: Settings

    func settings(viewer: Viewer) throws -> MessageSettings {
        try database.read { db in MessageSettings(allowFrom: try store.permission(db, userID: viewer.userID))
        }
    }

    func saveSettings(_ settings: MessageSettings, viewer: Viewer) throws -> MessageSettings {
        try database.write { db in
            try store.setPermission(db, userID: viewer.userID, settings.allowFrom)
            return settings
        }
    }
}
