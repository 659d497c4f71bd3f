import Foundation
import MusicCore

/// One typed method per v1 endpoint the clients use, in the spirit of the apps' DefaultRepository.
///
/// Browsing calls (catalog, sheets, a sheet's songs, search, history) answer `Cached<T>`: when the server
/// cannot be reached they answer the last good copy from the `OfflineCache`, marked `isFromCache`; with no
/// copy they throw the `.network` error. Everything else throws `APIError`.
public final class MusicRepository: Sendable {
    public let client: APIClient
    public let cache: OfflineCache?
    private let signedInUser: Locked<String?>

    public init(client: APIClient, cache: OfflineCache? = nil, userID: String? = nil) {
        self.client = client
        self.cache = cache
        self.signedInUser = Locked(userID)
    }

    /// The signed-in person's id (set by `login`), or nil.
    public var userID: String? { signedInUser.current }

    // MARK: Helpers

    private func query(_ items: [(String, (any CustomStringConvertible)?)]) -> [URLQueryItem] {
        items.compactMap { name, value in value.map { URLQueryItem(name: name, value: $0.description) } }
    }

    private func get<T: Decodable & Sendable>(
        _ path: String, _ items: [(String, (any CustomStringConvertible)?)] = [], as type: T.Type = T.self
    ) async throws -> T {
        try await client.send(Endpoint(.GET, path, query: query(items)))
    }

    private func cachedGet<T: Decodable & Sendable>(
        _ path: String, _ items: [(String, (any CustomStringConvertible)?)] = [], as type: T.Type = T.self
    ) async throws -> Cached<T> {
        try await cached(Endpoint(.GET, path, query: query(items)))
    }

    /// Sends `endpoint`, saving a good answer to the offline cache, or answering the saved one when the
    /// server cannot be reached.
    public func cached<T: Decodable & Sendable>(_ endpoint: Endpoint, as type: T.Type = T.self) async throws
        -> Cached<T>
    {
        let key = "\(userID ?? "-") \(endpoint.cacheKey)"
        do {
            let body = try await client.sendRaw(endpoint)
            let value = try APIClient.decodeEnvelope(body, as: T.self)
            try? cache?.save(body, for: key)
            return Cached(value: value, isFromCache: false, fetchedAt: Date())
        } catch let error as APIError where error.kind == .network {
            guard let hit = try? cache?.load(key) else { throw error }
            let value = try APIClient.decodeEnvelope(hit.body, as: T.self)
            return Cached(value: value, isFromCache: true, fetchedAt: hit.fetchedAt)
        }
    }

    private func json<Body: Encodable, T: Decodable & Sendable>(
        _ method: Endpoint.Method, _ path: String, _ body: Body, idempotent: Bool? = nil,
        as type: T.Type = T.self
    ) async throws -> T {
        var endpoint = try Endpoint.json(method, path, body)
        if let idempotent { endpoint.isIdempotent = idempotent }
        return try await client.send(endpoint)
    }

    private func done(_ method: Endpoint.Method, _ path: String, body: [String: String]? = nil) async throws {
        var endpoint = Endpoint(method, path)
        if let body { endpoint = try Endpoint.json(method, path, body) }
        try await client.send(endpoint)
    }

    private func seg(_ id: String) -> String {
        id.addingPercentEncoding(
            withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/")))
            ?? id
    }

    // MARK: Server

    /// `GET v1/server`.
    public func serverInfo() async throws -> ServerInfo { try await get("v1/server") }

    // MARK: Catalog

    /// `GET v1/songs`.
    public func songs(
        page: Int = 1, size: Int = 20, sort: CatalogSort? = nil, artistID: String? = nil,
        albumID: String? = nil,
        genreID: String? = nil
    ) async throws -> Cached<Page<Song>> {
        try await cachedGet(
            "v1/songs",
            [
                ("page", page), ("size", size), ("sort", sort?.rawValue), ("artist", artistID),
                ("album", albumID),
                ("genre", genreID),
            ])
    }

    /// `GET v1/songs/{id}`, with the raw lyric text.
    public func song(id: String) async throws -> Cached<Song> { try await cachedGet("v1/songs/\(seg(id))") }

    /// `GET v1/songs/{id}/lyric`: raw text and parsed lines.
    public func lyric(songID: String) async throws -> Cached<SongLyric> {
        try await cachedGet("v1/songs/\(seg(songID))/lyric")
    }

    /// `GET v1/albums`.
    public func albums(page: Int = 1, size: Int = 20, sort: CatalogSort? = nil, artistID: String? = nil)
        async throws -> Cached<Page<Album>>
    {
        try await cachedGet(
            "v1/albums", [("page", page), ("size", size), ("sort", sort?.rawValue), ("artist", artistID)])
    }

    /// `GET v1/albums/{id}`, with its songs.
    public func album(id: String) async throws -> Cached<Album> {
        try await cachedGet("v1/albums/\(seg(id))")
    }

    /// `GET v1/artists`.
    public func artists(page: Int = 1, size: Int = 20, sort: CatalogSort? = nil) async throws -> Cached<
        Page<Artist>
    > {
        try await cachedGet("v1/artists", [("page", page), ("size", size), ("sort", sort?.rawValue)])
    }

    /// `GET v1/artists/{id}`, with albums and most played songs.
    public func artist(id: String) async throws -> Cached<Artist> {
        try await cachedGet("v1/artists/\(seg(id))")
    }

    /// `GET v1/genres`.
    public func genres(page: Int = 1, size: Int = 20) async throws -> Cached<Page<Genre>> {
        try await cachedGet("v1/genres", [("page", page), ("size", size)])
    }

    /// `GET v1/searches`: songs, albums and artists.
    public func search(_ text: String, size: Int = 20) async throws -> Cached<SearchResults> {
        try await cachedGet("v1/searches", [("q", text), ("size", size)])
    }

    /// `GET v1/searches/suggests`.
    public func suggestions(_ text: String, size: Int = 10) async throws -> [SearchSuggestion] {
        try await get("v1/searches/suggests", [("q", text), ("size", size)])
    }

    /// `GET v1/searches/sheets`.
    public func searchSheets(_ text: String, page: Int = 1, size: Int = 20) async throws -> Cached<
        Page<Sheet>
    > {
        try await cachedGet("v1/searches/sheets", [("query", text), ("page", page), ("size", size)])
    }

    /// `GET v1/searches/users` (the mention picker).
    public func searchUsers(_ text: String, size: Int = 20) async throws -> [User] {
        try await get("v1/searches/users", [("query", text), ("size", size)])
    }

    // MARK: Accounts and sessions

    /// `POST v1/users`: sign up (`code` unless the server runs with `--signup-codes off`).
    public func signUp(
        _ identifier: AccountIdentifier, password: String, nickname: String, code: String? = nil
    )
        async throws -> User
    {
        var body = ["password": password, "nickname": nickname]
        body[identifier.field.name] = identifier.field.value
        if let code { body["code"] = code }
        return try await json(.POST, "v1/users", body)
    }

    /// `POST v1/sessions`: sign in with a password or a login code; the token is kept by the client.
    @discardableResult
    public func login(
        _ identifier: AccountIdentifier, password: String? = nil, code: String? = nil, device: String? = nil
    )
        async throws -> LoginResult
    {
        var body: [String: String] = [:]
        body[identifier.field.name] = identifier.field.value
        body["password"] = password
        body["code"] = code
        body["device"] = device
        let result: LoginResult = try await json(.POST, "v1/sessions", body)
        client.setSessionToken(result.session)
        signedInUser.withLock { $0 = result.userId }
        return result
    }

    /// Uses a session token saved earlier.
    public func restoreSession(token: String?, userID: String?) {
        client.setSessionToken(token)
        signedInUser.withLock { $0 = userID }
    }

    /// `DELETE v1/sessions/current`: sign out; the token is forgotten either way.
    public func logout() async throws {
        defer { restoreSession(token: nil, userID: nil) }
        try await done(.DELETE, "v1/sessions/current")
    }

    /// `GET v1/sessions`: one's signed-in devices.
    public func sessions() async throws -> [DeviceSession] { try await get("v1/sessions") }

    /// `DELETE v1/sessions/{id}`: sign another device out.
    public func endSession(id: String) async throws { try await done(.DELETE, "v1/sessions/\(seg(id))") }

    /// `POST v1/codes`: send a six-digit code (`login`, `reset` or `register`).
    public func sendCode(to identifier: AccountIdentifier, purpose: String = "login") async throws -> CodeSent
    {
        try await json(
            .POST, "v1/codes", [identifier.field.name: identifier.field.value, "purpose": purpose])
    }

    /// `POST v1/codes/check`.
    public func checkCode(_ code: String, for identifier: AccountIdentifier, purpose: String = "login")
        async throws
    {
        try await done(
            .POST, "v1/codes/check",
            body: [identifier.field.name: identifier.field.value, "purpose": purpose, "code": code])
    }

    /// `POST v1/users/reset_password`.
    public func resetPassword(_ identifier: AccountIdentifier, code: String, newPassword: String) async throws
    {
        try await done(
            .POST, "v1/users/reset_password",
            body: [identifier.field.name: identifier.field.value, "code": code, "password": newPassword])
    }

    /// `GET v1/users/{id}`.
    public func user(id: String) async throws -> User { try await get("v1/users/\(seg(id))") }

    /// `PATCH v1/users/{id}`.
    public func updateProfile(userID: String, _ change: ProfileChange) async throws -> User {
        try await json(.PATCH, "v1/users/\(seg(userID))", change)
    }

    /// `PUT v1/users/{id}/password`: other devices are signed out.
    public func changePassword(userID: String, current: String, new: String) async throws {
        let endpoint = try Endpoint.json(
            .PUT, "v1/users/\(seg(userID))/password", ["password": current, "newPassword": new])
        try await client.send(endpoint)
    }

    /// `POST v1/users/{id}/avatar` (JPEG, PNG or WebP).
    public func uploadAvatar(userID: String, _ picture: UploadPart) async throws -> User {
        try await client.send(Endpoint(.POST, "v1/users/\(seg(userID))/avatar", body: .multipart([picture])))
    }

    /// `DELETE v1/users/{id}`: delete one's account with everything that is one's own.
    public func deleteAccount(userID: String, password: String) async throws {
        try await done(.DELETE, "v1/users/\(seg(userID))", body: ["password": password])
    }

    // MARK: Sheets

    /// `GET v1/sheets`: public sheets, `new` or `hot` first.
    public func sheets(page: Int = 1, size: Int = 20, order: String? = nil) async throws -> Cached<
        Page<Sheet>
    > {
        try await cachedGet("v1/sheets", [("page", page), ("size", size), ("order", order)])
    }

    /// `GET v1/sheets/{id}` with its first `songs` songs.
    public func sheet(id: String, songs: Int? = nil) async throws -> Cached<Sheet> {
        try await cachedGet("v1/sheets/\(seg(id))", [("songs", songs)])
    }

    /// `GET v1/sheets/{id}/songs`.
    public func sheetSongs(id: String, page: Int = 1, size: Int = 20) async throws -> Cached<Page<Song>> {
        try await cachedGet("v1/sheets/\(seg(id))/songs", [("page", page), ("size", size)])
    }

    /// `POST v1/sheets`.
    public func createSheet(_ draft: SheetDraft) async throws -> Sheet {
        try await json(.POST, "v1/sheets", draft)
    }

    /// `PATCH v1/sheets/{id}`.
    public func updateSheet(id: String, _ change: SheetDraft) async throws -> Sheet {
        try await json(.PATCH, "v1/sheets/\(seg(id))", change)
    }

    /// `DELETE v1/sheets/{id}`.
    public func deleteSheet(id: String) async throws { try await done(.DELETE, "v1/sheets/\(seg(id))") }

    /// `POST v1/sheets/{id}/relations`: append songs (ones already there are skipped).
    public func addSongs(_ songIDs: [String], toSheet id: String) async throws -> Sheet {
        try await json(.POST, "v1/sheets/\(seg(id))/relations", ["songIds": songIDs])
    }

    /// `DELETE v1/sheets/{id}/relations?songIds=`.
    public func removeSongs(_ songIDs: [String], fromSheet id: String) async throws -> Sheet {
        try await client.send(
            Endpoint(
                .DELETE, "v1/sheets/\(seg(id))/relations",
                query: query([("songIds", songIDs.joined(separator: ","))])))
    }

    /// `PATCH v1/sheets/{id}/relations/{songId}`: move a song (0 is first).
    public func moveSong(_ songID: String, inSheet id: String, to position: Int) async throws -> Sheet {
        try await json(.PATCH, "v1/sheets/\(seg(id))/relations/\(seg(songID))", ["position": position])
    }

    /// `DELETE v1/sheets/{id}/relations/{songId}`.
    public func removeSong(_ songID: String, fromSheet id: String) async throws -> Sheet {
        try await client.send(Endpoint(.DELETE, "v1/sheets/\(seg(id))/relations/\(seg(songID))"))
    }

    /// `POST v1/sheets/{id}/cover`.
    public func uploadSheetCover(id: String, _ picture: UploadPart) async throws -> Sheet {
        try await client.send(Endpoint(.POST, "v1/sheets/\(seg(id))/cover", body: .multipart([picture])))
    }

    /// `DELETE v1/sheets/{id}/cover`.
    public func deleteSheetCover(id: String) async throws -> Sheet {
        try await client.send(Endpoint(.DELETE, "v1/sheets/\(seg(id))/cover"))
    }

    /// `GET v1/sheets/{id}/m3u`: the sheet as extended M3U text.
    public func sheetM3U(id: String) async throws -> String {
        String(decoding: try await client.sendRaw(Endpoint(.GET, "v1/sheets/\(seg(id))/m3u")), as: UTF8.self)
    }

    /// `POST v1/sheets/import`: a new sheet from M3U text.
    public func importSheet(m3u: String, title: String? = nil, isPrivate: Bool? = nil) async throws
        -> SheetImport
    {
        try await client.send(
            Endpoint(
                .POST, "v1/sheets/import", query: query([("title", title), ("private", isPrivate)]),
                body: .raw(Data(m3u.utf8), contentType: "audio/x-mpegurl")))
    }

    /// `GET v1/users/{id}/create`: sheets a user made, "I like" first.
    public func createdSheets(userID: String, page: Int = 1, size: Int = 20) async throws -> Cached<
        Page<Sheet>
    > {
        try await cachedGet("v1/users/\(seg(userID))/create", [("page", page), ("size", size)])
    }

    /// `GET v1/users/{id}/collect`: sheets a user collected.
    public func collectedSheets(userID: String, page: Int = 1, size: Int = 20) async throws -> Cached<
        Page<Sheet>
    > {
        try await cachedGet("v1/users/\(seg(userID))/collect", [("page", page), ("size", size)])
    }

    /// `POST v1/collections`.
    public func collect(sheetID: String) async throws -> Sheet {
        try await json(.POST, "v1/collections", ["sheetId": sheetID])
    }

    /// `DELETE v1/collections/{sheetId}`.
    public func uncollect(sheetID: String) async throws {
        try await done(.DELETE, "v1/collections/\(seg(sheetID))")
    }

    /// `PUT v1/songs/{id}/like`: to the top of "I like"; idempotent, so retried.
    public func likeSong(id: String) async throws -> Sheet {
        try await client.send(Endpoint(.PUT, "v1/songs/\(seg(id))/like", isIdempotent: true))
    }

    /// `DELETE v1/songs/{id}/like`; idempotent, so retried.
    public func unlikeSong(id: String) async throws -> Sheet {
        try await client.send(Endpoint(.DELETE, "v1/songs/\(seg(id))/like", isIdempotent: true))
    }

    // MARK: Plays and queue

    /// `POST v1/plays`: report a play.
    public func reportPlay(songID: String) async throws -> PlayReport {
        try await json(.POST, "v1/plays", ["songId": songID])
    }

    /// `GET v1/plays`: one's history, `recent` or `most`.
    public func history(order: String? = nil, page: Int = 1, size: Int = 20) async throws -> Cached<
        Page<PlayedSong>
    > {
        try await cachedGet("v1/plays", [("order", order), ("page", page), ("size", size)])
    }

    /// `DELETE v1/plays`: forget one's history.
    public func clearHistory() async throws { try await done(.DELETE, "v1/plays") }

    /// `GET v1/queue`.
    public func queue() async throws -> PlayQueue { try await get("v1/queue") }

    /// `PUT v1/queue`; with `baseVersion` a queue changed elsewhere is `.conflict` (and it is not retried,
    /// since a retry of a save that landed would conflict with itself).
    public func saveQueue(_ draft: QueueDraft) async throws -> PlayQueue {
        try await json(.PUT, "v1/queue", draft, idempotent: draft.baseVersion == nil)
    }

    // MARK: Files

    /// `POST v1/files/multi`: upload up to nine pictures.
    public func upload(_ pictures: [UploadPart]) async throws -> [StoredFile] {
        try await client.send(Endpoint(.POST, "v1/files/multi", body: .multipart(pictures), timeout: 120))
    }

    // MARK: Comments and likes

    /// `GET v1/comments`: by page, or by `cursor` for deep pages.
    public func comments(
        _ target: CommentTarget, order: String? = nil, cursor: String? = nil, page: Int? = nil, size: Int = 20
    ) async throws -> CommentPage {
        try await get(
            "v1/comments",
            [
                (target.field.name, target.field.value), ("order", order), ("cursor", cursor), ("page", page),
                ("size", size),
            ])
    }

    /// `GET v1/comments/{id}`.
    public func comment(id: String) async throws -> Comment { try await get("v1/comments/\(seg(id))") }

    /// `POST v1/comments`: on a song, sheet or moment, or a reply (`.replies(to:)`).
    public func postComment(_ content: String, on target: CommentTarget) async throws -> Comment {
        try await json(.POST, "v1/comments", ["content": content, target.field.name: target.field.value])
    }

    /// `DELETE v1/comments/{id}`.
    public func deleteComment(id: String) async throws { try await done(.DELETE, "v1/comments/\(seg(id))") }

    /// `POST v1/comments/{id}/reports`.
    public func reportComment(id: String, reason: String? = nil) async throws {
        try await done(.POST, "v1/comments/\(seg(id))/reports", body: reason.map { ["reason": $0] } ?? [:])
    }

    /// `POST v1/likes` with `commentId`: the comment comes back with its `likeId`.
    public func likeComment(id: String) async throws -> Comment {
        try await json(.POST, "v1/likes", ["commentId": id])
    }

    /// `POST v1/likes` with `feedId`: the moment comes back with its `likeId`.
    public func likeFeed(id: String) async throws -> Feed {
        try await json(.POST, "v1/likes", ["feedId": id])
    }

    /// `DELETE v1/likes/{likeId}`.
    public func unlike(likeID: String) async throws { try await done(.DELETE, "v1/likes/\(seg(likeID))") }

    // MARK: Moments

    /// `GET v1/feeds`: everyone's moments, or one user's, or one topic's.
    public func feeds(userID: String? = nil, topicID: String? = nil, cursor: String? = nil, size: Int = 20)
        async throws -> FeedPage
    {
        try await get(
            "v1/feeds", [("userId", userID), ("topicId", topicID), ("cursor", cursor), ("size", size)])
    }

    /// `GET v1/feeds/timeline`: moments of the people one follows, and one's own.
    public func timeline(cursor: String? = nil, size: Int = 20) async throws -> FeedPage {
        try await get("v1/feeds/timeline", [("cursor", cursor), ("size", size)])
    }

    /// `GET v1/feeds/nearby`: placed moments within `radius` metres, nearest first.
    public func nearbyFeeds(
        latitude: Double, longitude: Double, radius: Double? = nil, cursor: String? = nil, size: Int = 20
    ) async throws -> FeedPage {
        try await get(
            "v1/feeds/nearby",
            [
                ("latitude", latitude), ("longitude", longitude), ("radius", radius), ("cursor", cursor),
                ("size", size),
            ])
    }

    /// `GET v1/feeds/{id}`.
    public func feed(id: String) async throws -> Feed { try await get("v1/feeds/\(seg(id))") }

    /// `POST v1/feeds`: publish a moment.
    public func publishFeed(_ draft: MomentDraft) async throws -> Feed {
        try await json(.POST, "v1/feeds", draft)
    }

    /// `DELETE v1/feeds/{id}`.
    public func deleteFeed(id: String) async throws { try await done(.DELETE, "v1/feeds/\(seg(id))") }

    // MARK: Topics

    /// `GET v1/topics`: most commented first.
    public func topics(page: Int = 1, size: Int = 20) async throws -> Page<Topic> {
        try await get("v1/topics", [("page", page), ("size", size)])
    }

    /// `GET v1/topics/{id}`: the topic, its newest comments and moments.
    public func topic(id: String, cursor: String? = nil, size: Int = 20) async throws -> TopicDetail {
        try await get("v1/topics/\(seg(id))", [("cursor", cursor), ("size", size)])
    }

    // MARK: Follows and blocks

    /// `POST v1/friends`: follow someone.
    public func follow(userID: String) async throws -> User {
        try await json(.POST, "v1/friends", ["userId": userID])
    }

    /// `DELETE v1/friends/{id}`: unfollow.
    public func unfollow(userID: String) async throws { try await done(.DELETE, "v1/friends/\(seg(userID))") }

    /// `GET v1/users/{id}/following`.
    public func following(userID: String, page: Int = 1, size: Int = 20) async throws -> Page<User> {
        try await get("v1/users/\(seg(userID))/following", [("page", page), ("size", size)])
    }

    /// `GET v1/users/{id}/followers`.
    public func followers(userID: String, page: Int = 1, size: Int = 20) async throws -> Page<User> {
        try await get("v1/users/\(seg(userID))/followers", [("page", page), ("size", size)])
    }

    /// `GET v1/users/{id}/friends`: people who follow each other.
    public func friends(userID: String, page: Int = 1, size: Int = 20) async throws -> Page<User> {
        try await get("v1/users/\(seg(userID))/friends", [("page", page), ("size", size)])
    }

    /// `GET v1/blocks`.
    public func blocks(page: Int = 1, size: Int = 20) async throws -> Page<User> {
        try await get("v1/blocks", [("page", page), ("size", size)])
    }

    /// `POST v1/blocks`.
    public func block(userID: String) async throws {
        try await done(.POST, "v1/blocks", body: ["userId": userID])
    }

    /// `DELETE v1/blocks/{id}`.
    public func unblock(userID: String) async throws { try await done(.DELETE, "v1/blocks/\(seg(userID))") }

    // MARK: Notifications

    /// `GET v1/notifications`: newest first, by page or by `cursor`.
    public func notifications(
        unreadOnly: Bool = false, cursor: String? = nil, page: Int? = nil, size: Int = 20
    )
        async throws -> NotificationPage
    {
        try await get(
            "v1/notifications",
            [("unread", unreadOnly ? "true" : nil), ("cursor", cursor), ("page", page), ("size", size)])
    }

    /// `GET v1/notifications/unread`.
    public func unreadNotifications() async throws -> UnreadNotifications {
        try await get("v1/notifications/unread")
    }

    /// `PATCH v1/notifications/{id}`: mark read or unread.
    public func markNotification(id: String, read: Bool) async throws -> NotificationItem {
        try await json(.PATCH, "v1/notifications/\(seg(id))", ["read": read])
    }

    /// `POST v1/notifications/read`: all, or `before` and older.
    public func markNotificationsRead(before: String? = nil) async throws {
        try await done(.POST, "v1/notifications/read", body: before.map { ["before": $0] } ?? [:])
    }

    // MARK: Library and administration

    /// `GET v1/library/scan`: whether a scan runs and its progress.
    public func libraryScan() async throws -> LibraryScanStatus { try await get("v1/library/scan") }

    /// `POST v1/library/scan`: start a scan (administrators).
    public func startLibraryScan() async throws -> LibraryScanStatus {
        try await client.send(Endpoint(.POST, "v1/library/scan"))
    }

    /// `GET v1/admin/users`: every user with private fields (administrators).
    public func adminUsers(page: Int = 1, size: Int = 20) async throws -> Page<User> {
        try await get("v1/admin/users", [("page", page), ("size", size)])
    }

    /// `PATCH v1/admin/users/{id}`: disable (signing them out everywhere) or re-enable a user.
    public func setUserDisabled(id: String, _ disabled: Bool) async throws -> User {
        try await json(.PATCH, "v1/admin/users/\(seg(id))", ["disabled": disabled])
    }

    /// `GET v1/admin/outbox`: codes the built-in sender delivered instead of SMS or mail.
    public func outbox(page: Int = 1, size: Int = 20) async throws -> Page<OutboxMessage> {
        try await get("v1/admin/outbox", [("page", page), ("size", size)])
    }

    /// `GET v1/admin/reports`: reported comments.
    public func commentReports(page: Int = 1, size: Int = 20) async throws -> Page<CommentReport> {
        try await get("v1/admin/reports", [("page", page), ("size", size)])
    }

    /// `PATCH v1/admin/comments/{id}`: hide or show a comment.
    public func setCommentHidden(id: String, _ hidden: Bool) async throws {
        let endpoint = try Endpoint.json(.PATCH, "v1/admin/comments/\(seg(id))", ["hidden": hidden])
        try await client.send(endpoint)
    }
}
