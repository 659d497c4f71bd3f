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

    /// Sends a call of `endpoint`, saving a good answer to the offline cache, or answering the saved one
    /// when the server cannot be reached.
    func cached<P, Q, A: Decodable & Sendable, C>(
        _ endpoint: Endpoint<P, Q, NoBody, A, C>, path: P, query: Q = Q()
    ) async throws -> Cached<A> {
        try await cached(try client.request(endpoint, path: path, query: query, body: NoBody()))
    }

    func cached<Q, A: Decodable & Sendable, C>(
        _ endpoint: Endpoint<NoPath, Q, NoBody, A, C>, query: Q = Q()
    )
        async throws -> Cached<A>
    {
        try await cached(endpoint, path: NoPath(), query: query)
    }

    /// Sends `request`, saving a good answer to the offline cache, or answering the saved one when the
    /// server cannot be reached.
    public func cached<T: Decodable & Sendable>(_ request: APIRequest, as type: T.Type = T.self) async throws
        -> Cached<T>
    {
        let key = "\(userID ?? "-") \(request.cacheKey)"
        do {
            let body = try await client.sendRaw(request)
            let value = try APIClient.decodeEnvelope(body, as: T.self)
            try? cache?.save(body, for: key)
            return Cached(value: value, isFromCache: false, fetchedAt: Date())
        } catch let error as APIError where error.kind == .network {
            guard let hit = try? cache?.load(key) else { throw error }
            let value = try APIClient.decodeEnvelope(hit.body, as: T.self)
            return Cached(value: value, isFromCache: true, fetchedAt: hit.fetchedAt)
        }
    }

    private func upload(_ parts: [UploadPart]) -> Upload {
        Upload(
            files: parts.map {
                Upload.File(
                    fileName: $0.fileName, contentType: $0.contentType, content: .bytes([UInt8]($0.data)))
            })
    }

    // MARK: Server

    /// `GET v1/server`.
    public func serverInfo() async throws -> ServerInfo { try await client.send(ServerAPI.info) }

    // MARK: Catalog

    /// `GET v1/songs`.
    public func songs(
        page: Int = 1, size: Int = 20, sort: CatalogSort? = nil, artistID: String? = nil,
        albumID: String? = nil,
        genreID: String? = nil
    ) async throws -> Cached<Page<Song>> {
        try await cached(
            CatalogAPI.songs,
            query: SongListQuery(
                page: page, size: size, sort: sort ?? .name, artist: artistID, album: albumID, genre: genreID)
        )
    }

    /// `GET v1/songs/{id}`, with the raw lyric text.
    public func song(id: String) async throws -> Cached<Song> {
        try await cached(CatalogAPI.song, path: IDPath(id))
    }

    /// `GET v1/songs/{id}/lyric`: raw text and parsed lines.
    public func lyric(songID: String) async throws -> Cached<SongLyric> {
        try await cached(CatalogAPI.lyric, path: IDPath(songID))
    }

    /// `GET v1/albums`.
    public func albums(page: Int = 1, size: Int = 20, sort: CatalogSort? = nil, artistID: String? = nil)
        async throws -> Cached<Page<Album>>
    {
        try await cached(
            CatalogAPI.albums,
            query: AlbumListQuery(page: page, size: size, sort: sort ?? .name, artist: artistID))
    }

    /// `GET v1/albums/{id}`, with its songs.
    public func album(id: String) async throws -> Cached<Album> {
        try await cached(CatalogAPI.album, path: IDPath(id))
    }

    /// `GET v1/artists`.
    public func artists(page: Int = 1, size: Int = 20, sort: CatalogSort? = nil) async throws -> Cached<
        Page<Artist>
    > {
        try await cached(
            CatalogAPI.artists, query: ArtistListQuery(page: page, size: size, sort: sort ?? .name))
    }

    /// `GET v1/artists/{id}`, with albums and most played songs.
    public func artist(id: String) async throws -> Cached<Artist> {
        try await cached(CatalogAPI.artist, path: IDPath(id))
    }

    /// `GET v1/genres`.
    public func genres(page: Int = 1, size: Int = 20) async throws -> Cached<Page<Genre>> {
        try await cached(CatalogAPI.genres, query: GenreListQuery(page: page, size: size))
    }

    /// `GET v1/searches`: songs, albums and artists.
    public func search(_ text: String, size: Int = 20) async throws -> Cached<SearchResults> {
        try await cached(CatalogAPI.search, query: SearchQuery(text, size: size))
    }

    /// `GET v1/searches/suggests`.
    public func suggestions(_ text: String, size: Int = 10) async throws -> [SearchSuggestion] {
        try await client.send(CatalogAPI.suggestions, query: SuggestionQuery(text, size: size))
    }

    /// `GET v1/searches/sheets`.
    public func searchSheets(_ text: String, page: Int = 1, size: Int = 20) async throws -> Cached<
        Page<Sheet>
    > {
        try await cached(SheetsAPI.search, query: SheetSearchQuery(text, page: page, size: size))
    }

    /// `GET v1/searches/users` (the mention picker).
    public func searchUsers(_ text: String, size: Int = 20) async throws -> [User] {
        try await client.send(FollowsAPI.searchUsers, query: UserSearchQuery(text, size: size))
    }

    /// The address of a song's audio, converted when `format` or `maxBitRate` is given.
    public func streamURL(songID: String, format: StreamFormat = .raw, maxBitRate: Int = 0) throws -> URL {
        client.url(
            CatalogAPI.stream, path: try IDPath(songID),
            query: StreamQuery(format: format, maxBitRate: maxBitRate))
    }

    // MARK: Accounts and sessions

    /// `POST v1/users`: sign up (`code` unless the server runs with `--signup-codes off`).
    public func signUp(
        _ identifier: AccountIdentifier, password: String, nickname: String, code: String? = nil
    )
        async throws -> User
    {
        let (phone, email) = identifier.phoneAndEmail
        return try await client.send(
            AccountsAPI.register,
            body: Registration(phone: phone, email: email, password: password, nickname: nickname, code: code)
        )
    }

    /// `POST v1/sessions`: sign in with a password or a login code; the token is kept by the client.
    @discardableResult
    public func login(
        _ identifier: AccountIdentifier, password: String? = nil, code: String? = nil, device: String? = nil
    ) async throws -> LoginResult {
        let (phone, email) = identifier.phoneAndEmail
        let result = try await client.send(
            AccountsAPI.login,
            body: Credentials(phone: phone, email: email, password: password, code: code, device: device))
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
        _ = try await client.send(AccountsAPI.logout)
    }

    /// `GET v1/sessions`: one's signed-in devices.
    public func sessions() async throws -> [DeviceSession] { try await client.send(AccountsAPI.sessions) }

    /// `DELETE v1/sessions/{id}`: sign another device out.
    public func endSession(id: String) async throws {
        _ = try await client.send(AccountsAPI.revokeSession, path: IDPath(id))
    }

    /// `POST v1/codes`: send a six-digit code (`login`, `reset` or `register`).
    public func sendCode(to identifier: AccountIdentifier, purpose: CodePurpose = .login) async throws
        -> CodeSent
    {
        let (phone, email) = identifier.phoneAndEmail
        return try await client.send(
            AccountsAPI.sendCode, body: CodeRequest(phone: phone, email: email, purpose: purpose))
    }

    /// `POST v1/codes/check`.
    public func checkCode(_ code: String, for identifier: AccountIdentifier, purpose: CodePurpose = .login)
        async throws
    {
        let (phone, email) = identifier.phoneAndEmail
        _ = try await client.send(
            AccountsAPI.checkCode, body: CodeCheck(phone: phone, email: email, purpose: purpose, code: code))
    }

    /// `POST v1/users/reset_password`.
    public func resetPassword(_ identifier: AccountIdentifier, code: String, newPassword: String) async throws
    {
        let (phone, email) = identifier.phoneAndEmail
        _ = try await client.send(
            AccountsAPI.resetPassword,
            body: PasswordReset(phone: phone, email: email, code: code, password: newPassword))
    }

    /// `GET v1/users/{id}`.
    public func user(id: String) async throws -> User {
        try await client.send(AccountsAPI.profile, path: IDPath(id))
    }

    /// `PATCH v1/users/{id}`.
    public func updateProfile(userID: String, _ change: ProfileChange) async throws -> User {
        try await client.send(AccountsAPI.updateProfile, path: IDPath(userID), body: change)
    }

    /// `PUT v1/users/{id}/password`: other devices are signed out.
    public func changePassword(userID: String, current: String, new: String) async throws {
        _ = try await client.send(
            AccountsAPI.changePassword, path: IDPath(userID),
            body: PasswordChange(password: current, newPassword: new))
    }

    /// `POST v1/users/{id}/avatar` (JPEG, PNG or WebP).
    public func uploadAvatar(userID: String, _ picture: UploadPart) async throws -> User {
        try await client.send(AccountsAPI.uploadAvatar, path: IDPath(userID), body: upload([picture]))
    }

    /// `DELETE v1/users/{id}`: delete one's account with everything that is one's own.
    public func deleteAccount(userID: String, password: String) async throws {
        _ = try await client.send(
            AccountsAPI.deleteAccount, path: IDPath(userID),
            body: AccountDeletion(password: password) as AccountDeletion?)
    }

    // MARK: Sheets

    /// `GET v1/sheets`: public sheets, `new` or `hot` first.
    public func sheets(page: Int = 1, size: Int = 20, order: SheetOrder = .new) async throws -> Cached<
        Page<Sheet>
    > {
        try await cached(SheetsAPI.list, query: SheetListQuery(order: order, page: page, size: size))
    }

    /// `GET v1/sheets/{id}` with its first `songs` songs.
    public func sheet(id: String, songs: Int? = nil) async throws -> Cached<Sheet> {
        try await cached(
            SheetsAPI.detail, path: IDPath(id), query: songs.map { SheetDetailQuery(songs: $0) } ?? .init())
    }

    /// `GET v1/sheets/{id}/songs`.
    public func sheetSongs(id: String, page: Int = 1, size: Int = 20) async throws -> Cached<Page<Song>> {
        try await cached(SheetsAPI.songs, path: IDPath(id), query: SheetSongsQuery(page: page, size: size))
    }

    /// `POST v1/sheets`.
    public func createSheet(_ draft: SheetDraft) async throws -> Sheet {
        try await client.send(SheetsAPI.create, body: draft)
    }

    /// `PATCH v1/sheets/{id}`.
    public func updateSheet(id: String, _ change: SheetDraft) async throws -> Sheet {
        try await client.send(SheetsAPI.update, path: IDPath(id), body: change)
    }

    /// `DELETE v1/sheets/{id}`.
    public func deleteSheet(id: String) async throws {
        _ = try await client.send(SheetsAPI.delete, path: IDPath(id))
    }

    /// `POST v1/sheets/{id}/relations`: append songs (ones already there are skipped).
    public func addSongs(_ songIDs: [String], toSheet id: String) async throws -> Sheet {
        try await client.send(
            SheetsAPI.addSongs, path: IDPath(id), body: SongIDs(try .ids(songIDs, field: "songIds")))
    }

    /// `DELETE v1/sheets/{id}/relations?songIds=`.
    public func removeSongs(_ songIDs: [String], fromSheet id: String) async throws -> Sheet {
        try await client.send(SheetsAPI.removeSongs, path: IDPath(id), query: RemoveSongsQuery(songIDs))
    }

    /// `PATCH v1/sheets/{id}/relations/{songId}`: move a song (0 is first).
    public func moveSong(_ songID: String, inSheet id: String, to position: Int) async throws -> Sheet {
        try await client.send(
            SheetsAPI.moveSong, path: try SheetSongPath(sheet: id, song: songID),
            body: SongMove(position: position))
    }

    /// `DELETE v1/sheets/{id}/relations/{songId}`.
    public func removeSong(_ songID: String, fromSheet id: String) async throws -> Sheet {
        try await client.send(SheetsAPI.removeSong, path: try SheetSongPath(sheet: id, song: songID))
    }

    /// `POST v1/sheets/{id}/cover`.
    public func uploadSheetCover(id: String, _ picture: UploadPart) async throws -> Sheet {
        try await client.send(SheetsAPI.uploadCover, path: IDPath(id), body: upload([picture]))
    }

    /// `DELETE v1/sheets/{id}/cover`.
    public func deleteSheetCover(id: String) async throws -> Sheet {
        try await client.send(SheetsAPI.deleteCover, path: IDPath(id))
    }

    /// `GET v1/sheets/{id}/m3u`: the sheet as extended M3U text.
    public func sheetM3U(id: String) async throws -> String {
        String(decoding: try await client.data(SheetsAPI.m3u, path: IDPath(id)), as: UTF8.self)
    }

    /// `POST v1/sheets/import`: a new sheet from M3U text.
    public func importSheet(m3u: String, title: String? = nil, isPrivate: Bool? = nil) async throws
        -> SheetImport
    {
        try await client.send(
            SheetsAPI.importM3U, query: SheetImportQuery(title: title, isPrivate: isPrivate ?? false),
            body: TextBody(m3u))
    }

    /// `GET v1/users/{id}/create`: sheets a user made, "I like" first.
    public func createdSheets(userID: String, page: Int = 1, size: Int = 20) async throws -> Cached<
        Page<Sheet>
    > {
        try await cached(SheetsAPI.created, path: IDPath(userID), query: PageQuery(page: page, size: size))
    }

    /// `GET v1/users/{id}/collect`: sheets a user collected.
    public func collectedSheets(userID: String, page: Int = 1, size: Int = 20) async throws -> Cached<
        Page<Sheet>
    > {
        try await cached(SheetsAPI.collected, path: IDPath(userID), query: PageQuery(page: page, size: size))
    }

    /// `POST v1/collections`.
    public func collect(sheetID: String) async throws -> Sheet {
        try await client.send(
            SheetsAPI.collect, body: SheetReference(sheetId: try ID(validating: sheetID, field: "sheetId")))
    }

    /// `DELETE v1/collections/{sheetId}`.
    public func uncollect(sheetID: String) async throws {
        _ = try await client.send(SheetsAPI.uncollect, path: IDPath(sheetID))
    }

    /// `PUT v1/songs/{id}/like`: to the top of "I like"; idempotent, so retried.
    public func likeSong(id: String) async throws -> Sheet {
        try await client.send(SheetsAPI.likeSong, path: IDPath(id))
    }

    /// `DELETE v1/songs/{id}/like`; idempotent, so retried.
    public func unlikeSong(id: String) async throws -> Sheet {
        try await client.send(SheetsAPI.unlikeSong, path: IDPath(id))
    }

    // MARK: History and queue

    /// `POST v1/plays`: report a play.
    public func reportPlay(songID: String) async throws -> PlayReport {
        try await client.send(
            SheetsAPI.reportPlay, body: PlayDraft(songId: try ID(validating: songID, field: "songId")))
    }

    /// `GET v1/plays`: one's history, `recent` or `most`.
    public func history(order: HistoryOrder = .recent, page: Int = 1, size: Int = 20) async throws -> Cached<
        Page<PlayedSong>
    > {
        try await cached(SheetsAPI.history, query: HistoryQuery(order: order, page: page, size: size))
    }

    /// `DELETE v1/plays`: forget one's history.
    public func clearHistory() async throws { _ = try await client.send(SheetsAPI.clearHistory) }

    /// `GET v1/queue`.
    public func queue() async throws -> PlayQueue { try await client.send(SheetsAPI.queue) }

    /// `PUT v1/queue`; with `baseVersion` a queue changed elsewhere is `.conflict` (and it is not retried,
    /// since a retry after a lost answer would conflict with itself).
    public func saveQueue(_ draft: QueueDraft) async throws -> PlayQueue {
        try await client.send(SheetsAPI.saveQueue, body: draft, idempotent: draft.baseVersion == nil)
    }

    // MARK: Files

    /// `POST v1/files/multi`: upload up to nine pictures.
    public func upload(_ pictures: [UploadPart]) async throws -> [StoredFile] {
        try await client.send(FilesAPI.upload, body: upload(pictures))
    }

    // MARK: Videos

    /// `GET v1/videos`: `new` or `hot` first.
    public func videos(order: VideoOrder = .new, page: Int = 1, size: Int = 20) async throws -> Cached<
        Page<Video>
    > {
        try await cached(VideosAPI.list, query: VideoListQuery(order: order, page: page, size: size))
    }

    /// `GET v1/videos/{id}`: counts a click (once per viewer in 30 seconds).
    public func video(id: String) async throws -> Video {
        try await client.send(VideosAPI.detail, path: IDPath(id))
    }

    /// The address of a video: the original file, or (`.mp4`) an H.264/AAC MP4 converted as it streams.
    public func videoURL(id: String, format: VideoStreamFormat = .original) throws -> URL {
        client.url(VideosAPI.stream, path: try IDPath(id), query: VideoStreamQuery(format: format))
    }

    /// `PUT v1/videos/{id}/like`; idempotent, so retried.
    public func likeVideo(id: String) async throws -> Video {
        try await client.send(VideosAPI.like, path: IDPath(id))
    }

    /// `DELETE v1/videos/{id}/like`; idempotent, so retried.
    public func unlikeVideo(id: String) async throws -> Video {
        try await client.send(VideosAPI.unlike, path: IDPath(id))
    }

    /// `POST v1/videos` (administrators): an MP4, MKV, WebM or MOV file, with an optional title and artist.
    public func uploadVideo(_ video: UploadPart, title: String? = nil, artist: String? = nil) async throws
        -> Video
    {
        var body: Upload = upload([video])
        if let title { body.fields["title"] = title }
        if let artist { body.fields["artist"] = artist }
        return try await client.send(VideosAPI.upload, body: body)
    }

    /// `DELETE v1/videos/{id}` (administrators; uploaded videos only).
    public func deleteVideo(id: String) async throws {
        _ = try await client.send(VideosAPI.delete, path: IDPath(id))
    }

    // MARK: Recommendations

    /// `GET v1/recommendations/songs`: one's 30 songs of the day.
    public func dailySongs() async throws -> Cached<DailySongs> { try await cached(RecommendationsAPI.daily) }

    /// `GET v1/radio/next`: the personal radio's next songs.
    public func radioNext(count: Int = 10) async throws -> [Song] {
        try await client.send(RecommendationsAPI.radio, query: RadioQuery(count: count))
    }

    /// `GET v1/songs/{id}/similar`.
    public func similarSongs(id: String, size: Int = 20) async throws -> Cached<[Song]> {
        try await cached(RecommendationsAPI.similarSongs, path: IDPath(id), query: SimilarQuery(size: size))
    }

    /// `GET v1/sheets/{id}/similar`.
    public func similarSheets(id: String, size: Int = 20) async throws -> Cached<[Sheet]> {
        try await cached(RecommendationsAPI.similarSheets, path: IDPath(id), query: SimilarQuery(size: size))
    }

    /// `POST v1/recommendations/dislikes`: not interested in a song.
    public func dislike(songID: String) async throws {
        _ = try await client.send(
            RecommendationsAPI.dislike,
            body: SongReference(songId: try ID(validating: songID, field: "songId")))
    }

    /// `DELETE v1/recommendations/dislikes/{songId}`.
    public func undislike(songID: String) async throws {
        _ = try await client.send(RecommendationsAPI.undislike, path: IDPath(songID))
    }

    /// `GET v1/recommendations/dislikes`: the songs one is not interested in.
    public func dislikedSongs(page: Int = 1, size: Int = 20) async throws -> Page<Song> {
        try await client.send(RecommendationsAPI.dislikes, query: PageQuery(page: page, size: size))
    }

    // MARK: Comments and likes

    /// `GET v1/comments`: by page, or by `cursor` for deep pages.
    public func comments(
        _ target: CommentTarget, order: CommentOrder = .new, cursor: String? = nil, page: Int? = nil,
        size: Int = 20
    ) async throws -> CommentPage {
        var query = try CommentListQuery(order: order, cursor: cursor, page: page ?? 1, size: size)
        switch target {
        case .song(let id): query.songId = try ID<Song>(validating: id, field: "songId").rawValue
        case .sheet(let id): query.sheetId = try ID<Sheet>(validating: id, field: "sheetId").rawValue
        case .feed(let id): query.feedId = try ID<Feed>(validating: id, field: "feedId").rawValue
        case .episode(let id):
            query.episodeId = try ID<PodcastEpisode>(validating: id, field: "episodeId").rawValue
        case .replies(let id): query.parentId = try ID<Comment>(validating: id, field: "parentId").rawValue
        }
        return try await client.send(CommentsAPI.list, query: query)
    }

    /// `GET v1/comments/{id}`.
    public func comment(id: String) async throws -> Comment {
        try await client.send(CommentsAPI.detail, path: IDPath(id))
    }

    /// `POST v1/comments`: on a song, sheet or moment, or a reply (`.replies(to:)`).
    public func postComment(_ content: String, on target: CommentTarget) async throws -> Comment {
        var draft = CommentDraft(content: content)
        switch target {
        case .song(let id): draft.songId = try ID(validating: id, field: "songId")
        case .sheet(let id): draft.sheetId = try ID(validating: id, field: "sheetId")
        case .feed(let id): draft.feedId = try ID(validating: id, field: "feedId")
        case .episode(let id): draft.episodeId = try ID(validating: id, field: "episodeId")
        case .replies(let id): draft.parentId = try ID(validating: id, field: "parentId")
        }
        return try await client.send(CommentsAPI.create, body: draft)
    }

    /// `DELETE v1/comments/{id}`.
    public func deleteComment(id: String) async throws {
        _ = try await client.send(CommentsAPI.delete, path: IDPath(id))
    }

    /// `POST v1/comments/{id}/reports`.
    public func reportComment(id: String, reason: String? = nil) async throws {
        _ = try await client.send(
            CommentsAPI.report, path: IDPath(id),
            body: CommentReportDraft(reason: reason) as CommentReportDraft?)
    }

    /// `POST v1/likes` with `commentId`: the comment comes back with its `likeId`.
    public func likeComment(id: String) async throws -> Comment {
        switch try await client.send(
            CommentsAPI.like, body: LikeDraft(commentId: try ID(validating: id, field: "commentId")))
        {
        case .comment(let comment): return comment
        case .feed, .episode:
            throw APIError(
                kind: .decoding, message: "The server answered something else for a comment's like.")
        }
    }

    /// `POST v1/likes` with `feedId`: the moment comes back with its `likeId`.
    public func likeFeed(id: String) async throws -> Feed {
        switch try await client.send(
            CommentsAPI.like, body: LikeDraft(feedId: try ID(validating: id, field: "feedId")))
        {
        case .feed(let feed): return feed
        case .comment, .episode:
            throw APIError(
                kind: .decoding, message: "The server answered something else for a moment's like.")
        }
    }

    /// `POST v1/likes` with `episodeId`: the podcast episode comes back with its `likeId` and `likesCount`.
    public func likeEpisode(id: String) async throws -> PodcastEpisode {
        switch try await client.send(
            CommentsAPI.like, body: LikeDraft(episodeId: try ID(validating: id, field: "episodeId")))
        {
        case .episode(let episode): return episode
        case .comment, .feed:
            throw APIError(
                kind: .decoding, message: "The server answered something else for an episode's like.")
        }
    }

    /// `DELETE v1/likes/{likeId}`.
    public func unlike(likeID: String) async throws {
        _ = try await client.send(CommentsAPI.unlike, path: IDPath(likeID))
    }

    // MARK: Moments

    /// `GET v1/feeds`: everyone's moments, or one user's, or one topic's, by `cursor` or by `page`.
    public func feeds(
        userID: String? = nil, topicID: String? = nil, cursor: String? = nil, page: Int = 1, size: Int = 20
    ) async throws -> FeedPage {
        try await client.send(
            FeedsAPI.list,
            query: FeedListQuery(userId: userID, topicId: topicID, cursor: cursor, page: page, size: size))
    }

    /// `GET v1/feeds/timeline`: moments of the people one follows, and one's own.
    public func timeline(cursor: String? = nil, page: Int = 1, size: Int = 20) async throws -> FeedPage {
        try await client.send(FeedsAPI.timeline, query: CursorQuery(cursor: cursor, page: page, size: size))
    }

    /// `GET v1/feeds/nearby`: placed moments within `radius` metres, nearest first.
    public func nearbyFeeds(
        latitude: Double, longitude: Double, radius: Double? = nil, cursor: String? = nil, page: Int = 1,
        size: Int = 20
    ) async throws -> FeedPage {
        try await client.send(
            FeedsAPI.nearby,
            query: NearbyQuery(
                latitude: latitude, longitude: longitude, radius: radius, cursor: cursor, page: page,
                size: size))
    }

    /// `GET v1/feeds/{id}`.
    public func feed(id: String) async throws -> Feed {
        try await client.send(FeedsAPI.detail, path: IDPath(id))
    }

    /// `POST v1/feeds`: publish a moment.
    public func publishFeed(_ draft: MomentDraft) async throws -> Feed {
        try await client.send(FeedsAPI.create, body: draft)
    }

    /// `DELETE v1/feeds/{id}`.
    public func deleteFeed(id: String) async throws {
        _ = try await client.send(FeedsAPI.delete, path: IDPath(id))
    }

    // MARK: Topics

    /// `GET v1/topics`: most commented first; with `title`, the one topic of that text (or none).
    public func topics(title: String? = nil, page: Int = 1, size: Int = 20) async throws -> Page<Topic> {
        try await client.send(CommentsAPI.topics, query: TopicListQuery(title: title, page: page, size: size))
    }

    /// `GET v1/topics/{id}`: the topic, its newest comments and moments.
    public func topic(id: String, cursor: String? = nil, size: Int = 20) async throws -> TopicDetail {
        try await client.send(
            CommentsAPI.topic, path: IDPath(id), query: TopicQuery(cursor: cursor, size: size))
    }

    // MARK: Follows and blocks

    /// `POST v1/friends`: follow someone.
    public func follow(userID: String) async throws -> User {
        try await client.send(
            FollowsAPI.follow, body: UserReference(userId: try ID(validating: userID, field: "userId")))
    }

    /// `DELETE v1/friends/{id}`: unfollow.
    public func unfollow(userID: String) async throws {
        _ = try await client.send(FollowsAPI.unfollow, path: IDPath(userID))
    }

    /// `GET v1/users/{id}/following`.
    public func following(userID: String, page: Int = 1, size: Int = 20) async throws -> Page<User> {
        try await client.send(
            FollowsAPI.following, path: IDPath(userID), query: PageQuery(page: page, size: size))
    }

    /// `GET v1/users/{id}/followers`.
    public func followers(userID: String, page: Int = 1, size: Int = 20) async throws -> Page<User> {
        try await client.send(
            FollowsAPI.followers, path: IDPath(userID), query: PageQuery(page: page, size: size))
    }

    /// `GET v1/users/{id}/friends`: people who follow each other.
    public func friends(userID: String, page: Int = 1, size: Int = 20) async throws -> Page<User> {
        try await client.send(
            FollowsAPI.friends, path: IDPath(userID), query: PageQuery(page: page, size: size))
    }

    /// `GET v1/blocks`.
    public func blocks(page: Int = 1, size: Int = 20) async throws -> Page<User> {
        try await client.send(FollowsAPI.blocks, query: PageQuery(page: page, size: size))
    }

    /// `POST v1/blocks`.
    public func block(userID: String) async throws {
        _ = try await client.send(
            FollowsAPI.block, body: UserReference(userId: try ID(validating: userID, field: "userId")))
    }

    /// `DELETE v1/blocks/{id}`.
    public func unblock(userID: String) async throws {
        _ = try await client.send(FollowsAPI.unblock, path: IDPath(userID))
    }

    // MARK: Notifications

    /// `GET v1/notifications`: newest first, by page or by `cursor`.
    public func notifications(
        unreadOnly: Bool = false, cursor: String? = nil, page: Int? = nil, size: Int = 20
    )
        async throws -> NotificationPage
    {
        try await client.send(
            NotificationsAPI.list,
            query: NotificationListQuery(unread: unreadOnly, cursor: cursor, page: page ?? 1, size: size))
    }

    /// `GET v1/notifications/unread`.
    public func unreadNotifications() async throws -> UnreadNotifications {
        try await client.send(NotificationsAPI.unread)
    }

    /// `PATCH v1/notifications/{id}`: mark read or unread.
    public func markNotification(id: String, read: Bool) async throws -> NotificationItem {
        try await client.send(NotificationsAPI.update, path: IDPath(id), body: NotificationChange(read: read))
    }

    /// `POST v1/notifications/read`: all, or `before` and older.
    public func markNotificationsRead(before: String? = nil) async throws {
        _ = try await client.send(
            NotificationsAPI.markRead,
            body: before.map { MarkRead(before: try ID(validating: $0, field: "before")) })
    }

    // MARK: Discovery: home, ads, categories, updates and terms

    /// `GET v1/home`: the home screen's modules in the person's order.
    public func home() async throws -> Cached<[HomeModule]> { try await cached(HomeAPI.home) }

    /// `GET v1/home/layout`: one's order of the home modules, hidden ones included.
    public func homeLayout() async throws -> HomeLayout { try await client.send(HomeAPI.layout) }

    /// `PUT v1/home/layout`: one's order of the home modules (first to last) and which to hide.
    public func saveHomeLayout(_ modules: [HomeLayoutDraft.Choice]) async throws -> HomeLayout {
        try await client.send(HomeAPI.saveLayout, body: HomeLayoutDraft(modules: modules))
    }

    /// `DELETE v1/home/layout`: back to the usual order.
    public func resetHomeLayout() async throws -> HomeLayout { try await client.send(HomeAPI.resetLayout) }

    /// `GET v1/ads?position=`: the ads showing now at a position.
    public func ads(position: AdPosition, page: Int = 1, size: Int = 20) async throws -> Cached<Page<Ad>> {
        try await cached(AdsAPI.list, query: AdListQuery(position: position, page: page, size: size))
    }

    /// `GET v1/categories`: genres with a picture and their counts.
    public func categories(page: Int = 1, size: Int = 50) async throws -> Cached<Page<Category>> {
        try await cached(CategoriesAPI.list, query: CategoryListQuery(page: page, size: size))
    }

    /// `GET v1/app_versions/latest`: the newest version of the app when it is newer than `version`, else nil.
    public func latestAppVersion(platform: AppPlatform, version: String) async throws -> AppVersion? {
        let request = try client.request(
            AppVersionsAPI.latest, path: NoPath(),
            query: AppUpdateQuery(platform: platform, version: version),
            body: NoBody())
        let body = try await client.sendRaw(request)
        do {
            // `data` is null when the app is up to date.
            return try JSONDecoder().decode(APIResponse<AppVersion>.self, from: body).data
        } catch {
            throw APIError(kind: .decoding, message: "The server's answer could not be read: \(error)")
        }
    }

    /// `GET v1/terms`: the current privacy policy and user agreement, and whether one accepted them.
    public func terms() async throws -> TermsStatus { try await client.send(TermsAPI.current) }

    /// `POST v1/terms/acceptances`: accept these versions (ids from `terms()`).
    public func acceptTerms(ids: [String]) async throws -> TermsStatus {
        try await client.send(
            TermsAPI.accept, body: TermsAcceptanceDraft(termsIds: try .ids(ids, field: "termsIds")))
    }

    /// `POST v1/admin/ads`: add an ad with its picture or video (administrators).
    public func createAd(_ fields: AdForm, file: UploadPart) async throws -> Ad {
        let part = Upload.File(
            fileName: file.fileName, contentType: file.contentType, content: .bytes([UInt8](file.data)))
        return try await client.send(AdsAPI.create, body: Form(fields, files: [part]))
    }

    /// `PATCH v1/admin/ads/{id}` (administrators).
    public func updateAd(id: String, _ change: AdChange) async throws -> Ad {
        try await client.send(AdsAPI.update, path: IDPath(id), body: change)
    }

    /// `DELETE v1/admin/ads/{id}` (administrators).
    public func deleteAd(id: String) async throws {
        _ = try await client.send(AdsAPI.delete, path: IDPath(id))
    }

    /// `PUT v1/admin/ads/order`: a position's ads in this order (administrators).
    public func reorderAds(position: AdPosition, ids: [String]) async throws -> [Ad] {
        try await client.send(
            AdsAPI.reorder, body: AdOrder(position: position, adIds: try .ids(ids, field: "adIds")))
    }

    /// `PUT v1/admin/home`: which home modules show, in what order (administrators).
    public func saveHomeSettings(_ modules: [HomeSettingsDraft.Setting]) async throws -> [HomeModuleSetting] {
        try await client.send(HomeAPI.saveSettings, body: HomeSettingsDraft(modules: modules))
    }

    /// `POST v1/admin/app_versions`: publish a version of an app (administrators).
    public func publishAppVersion(_ draft: AppVersionDraft) async throws -> AppVersion {
        try await client.send(AppVersionsAPI.publish, body: draft)
    }

    // MARK: Library and administration

    /// `GET v1/library/scan`: whether a scan runs and its progress (administrators).
    public func libraryScan() async throws -> LibraryScanStatus {
        try await client.send(CatalogAPI.scanStatus)
    }

    /// `POST v1/library/scan`: start a scan (administrators).
    public func startLibraryScan() async throws -> LibraryScanStatus {
        try await client.send(CatalogAPI.startScan)
    }

    /// `GET v1/admin/users`: every user with private fields (administrators).
    public func adminUsers(page: Int = 1, size: Int = 20) async throws -> Page<User> {
        try await client.send(AccountsAPI.adminUsers, query: PageQuery(page: page, size: size))
    }

    /// `PATCH v1/admin/users/{id}`: disable (signing them out everywhere) or re-enable a user.
    public func setUserDisabled(id: String, _ disabled: Bool) async throws -> User {
        try await client.send(
            AccountsAPI.adminUpdateUser, path: IDPath(id), body: UserStatusChange(disabled: disabled))
    }

    /// `GET v1/admin/outbox`: codes the built-in sender delivered instead of SMS or mail.
    public func outbox(page: Int = 1, size: Int = 20) async throws -> Page<OutboxMessage> {
        try await client.send(AccountsAPI.outbox, query: PageQuery(page: page, size: size))
    }

    /// `GET v1/admin/reports`: reported comments.
    public func commentReports(page: Int = 1, size: Int = 20) async throws -> Page<CommentReport> {
        try await client.send(CommentsAPI.reports, query: PageQuery(page: page, size: size))
    }

    /// `PATCH v1/admin/comments/{id}`: hide or show a comment.
    public func setCommentHidden(id: String, _ hidden: Bool) async throws {
        _ = try await client.send(
            CommentsAPI.moderate, path: IDPath(id), body: CommentModeration(hidden: hidden))
    }
}
