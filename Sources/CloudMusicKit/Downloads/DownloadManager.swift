import Foundation
import MusicCore
import Storage

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Downloads songs for offline playback: a queue with a concurrency limit, resumable across dropped
/// connections and killed processes, checked against the expected size, within a storage quota.
///
/// Bytes go to `<folder>/<songID>.part` and are renamed to `<folder>/<songID>.<ext>` once complete and
/// checked. The expected size, ETag and Last-Modified are kept in the LocalStore, so a new manager over
/// the same store and folder (after a crash or a kill) resumes with `Range: bytes=N-` and `If-Range`;
/// when the server answers 200 instead of 206 (the file changed) it starts over.
///
/// Songs are fetched from their stream route without transcoding options (`v1/songs/{id}/stream`), which
/// serves the original file with Range, ETag and Last-Modified; the server has no separate download route
/// and sends no content hash, so only the size is checked.
///
/// The quota refuses: a download that would take the folder over it fails with `.quotaExceeded` and
/// nothing already downloaded is evicted (what to delete is the person's choice).
public actor DownloadManager {
    public struct Options: Sendable {
        /// Downloads running at once.
        public var maxConcurrent: Int = 2
        /// Bytes the downloads may take in all (complete files and expected sizes of running ones); nil for
        /// no limit.
        public var quotaBytes: Int64?
        /// A bandwidth cap in bytes a second; nil for none.
        public var maxBytesPerSecond: Int?
        /// Tries per download on network errors, each resuming where the last stopped.
        public var maxAttempts: Int = 5
        /// Seconds without data before a transfer counts as dropped.
        public var timeout: TimeInterval = 30
        public init() {}
    }

    public enum State: String, Sendable, Codable {
        case queued, downloading, paused, failed, completed
    }

    /// One download as `list()` shows it.
    public struct Item: Sendable, Equatable {
        public var songID: String
        public var title: String?
        public var url: URL
        public var state: State
        public var bytesDone: Int64
        /// The expected size, once known.
        public var bytesTotal: Int64?
        /// Why it failed, for a person to read.
        public var error: String?
        /// The complete file, when `state` is `.completed`.
        public var fileURL: URL?
    }

    public enum Event: Sendable, Equatable {
        case progress(songID: String, bytesDone: Int64, bytesTotal: Int64?)
        case stateChanged(songID: String, state: State)
        case removed(songID: String)
    }

    /// Why a download cannot be done.
    public struct DownloadError: Error, Sendable, Equatable, CustomStringConvertible {
        public enum Kind: Sendable, Equatable { case quotaExceeded, sizeMismatch, http, unknownSong }
        public var kind: Kind
        public var message: String
        public var description: String { message }
    }

    public nonisolated let store: LocalStore
    public nonisolated let folder: URL
    public nonisolated let options: Options
    private let client: APIClient?
    private var running: [String: Task<Void, Never>] = [:]
    private var subscribers: [UUID: AsyncStream<Event>.Continuation] = [:]
    private var waiters: [String: [CheckedContinuation<Item?, Never>]] = [:]

    /// A manager over `store`, keeping files in `folder`; `client`, when given, signs requests with its
    /// session token and resolves song `uri`s.
    public init(store: LocalStore, folder: URL, client: APIClient? = nil, options: Options = Options()) throws
    {
        self.store = store
        self.folder = folder
        self.client = client
        self.options = options
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    // MARK: Public API

    /// Queues `song`, fetched from its stream route (the original file).
    public func enqueue(song: Song, expectedSize: Int64? = nil) throws {
        guard let client else {
            throw DownloadError(
                kind: .unknownSong, message: "A download of a song needs the API client to find it.")
        }
        try enqueue(
            songID: song.id, url: client.url(for: song.uri), title: song.title,
            fileExtension: song.format.isEmpty ? nil : song.format, expectedSize: expectedSize)
    }

    /// Queues a download of `url` for `songID`; already queued or complete songs are left alone, failed or
    /// paused ones are queued again. `expectedSize`, when known, is checked against what the server sends.
    public func enqueue(
        songID: String, url: URL, title: String? = nil, fileExtension: String? = nil,
        expectedSize: Int64? = nil
    ) throws {
        if let expectedSize, let quota = options.quotaBytes,
            try usedBytes(excluding: songID) + expectedSize > quota
        {
            throw Self.quotaError(needed: expectedSize, quota: quota)
        }
        let safeID = songID.replacingOccurrences(of: "/", with: "_")
        let ext = (fileExtension ?? url.pathExtension).filter { $0.isLetter || $0.isNumber }
        let fileName = ext.isEmpty ? safeID : "\(safeID).\(ext)"
        let now = Self.now()
        if let existing = try item(songID: songID), existing.state == .completed,
            localFile(songID: songID) == nil
        {
            // Its file was removed behind our back: fetch it again.
            try store.database.write { db in
                _ = try db.execute(
                    "UPDATE downloads SET state = 'failed', bytes_done = 0, etag = NULL, last_modified = NULL WHERE song_id = ?",
                    songID)
            }
        }
        let changed = try store.database.write { db in
            try db.execute(
                """
                INSERT INTO downloads (song_id, url, file_name, title, state, expected_size, created_at, updated_at)
                VALUES (?, ?, ?, ?, 'queued', ?, ?, ?)
                ON CONFLICT (song_id) DO UPDATE SET state = 'queued', error = NULL, updated_at = excluded.updated_at,
                    url = excluded.url, expected_size = coalesce(excluded.expected_size, downloads.expected_size)
                WHERE downloads.state IN ('failed', 'paused')
                """, songID, url.absoluteString, fileName, title, expectedSize, now, now)
        }
        if changed > 0 { emit(.stateChanged(songID: songID, state: .queued)) }
        pump()
    }

    /// Picks up downloads a previous run left queued or running (after a crash or a kill): call once after
    /// creating a manager.
    public func resumeInterrupted() throws {
        try store.database.write { db in
            _ = try db.execute("UPDATE downloads SET state = 'queued' WHERE state = 'downloading'")
        }
        pump()
    }

    /// Stops a download, or keeps a queued one from starting, keeping what arrived for `enqueue` or `resume`.
    public func pause(songID: String) throws {
        if let task = running.removeValue(forKey: songID) {
            task.cancel()
        } else if try item(songID: songID)?.state != .queued {
            return
        }
        try setState(songID, .paused)
        finishWaiters(songID, try item(songID: songID))
        pump()
    }

    /// Queues a paused or failed download again.
    public func resume(songID: String) throws {
        try store.database.write { db in
            _ = try db.execute(
                "UPDATE downloads SET state = 'queued', error = NULL WHERE song_id = ? AND state IN ('paused', 'failed')",
                songID)
        }
        pump()
    }

    /// Deletes a download: its file, its partial file and its row.
    public func delete(songID: String) throws {
        running.removeValue(forKey: songID)?.cancel()
        if let item = try item(songID: songID) {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(fileName(of: item)))
        }
        try? FileManager.default.removeItem(at: partURL(songID))
        try store.database.write { db in _ = try db.execute("DELETE FROM downloads WHERE song_id = ?", songID)
        }
        emit(.removed(songID: songID))
        finishWaiters(songID, nil)
    }

    /// Every download, oldest first.
    public nonisolated func list() throws -> [Item] {
        try store.database.read { db in
            try db.query("SELECT \(Self.columns) FROM downloads ORDER BY created_at, song_id") {
                try self.item(from: $0)
            }
        }
    }

    /// One download, or nil.
    public nonisolated func item(songID: String) throws -> Item? {
        try store.database.read { db in
            try db.queryOne("SELECT \(Self.columns) FROM downloads WHERE song_id = ?", songID) {
                try self.item(from: $0)
            }
        }
    }

    /// The complete downloaded file of a song, for the player to prefer over streaming; nil when there is none.
    public nonisolated func localFile(songID: String) -> URL? {
        guard let item = try? item(songID: songID), item.state == .completed, let url = item.fileURL,
            FileManager.default.fileExists(atPath: url.path)
        else { return nil }
        return url
    }

    /// Where the player should read `song` from: its downloaded file when there is one (so playback works
    /// with the server gone), else its stream on the server.
    public nonisolated func playableURL(for song: Song, client: APIClient) -> URL {
        localFile(songID: song.id) ?? client.url(for: song.uri)
    }

    /// Bytes taken by complete downloads.
    public nonisolated func completedBytes() throws -> Int64 {
        try store.database.read { db in
            try db.queryOne(
                "SELECT coalesce(sum(bytes_done), 0) AS bytes FROM downloads WHERE state = 'completed'"
            ) { try $0.int64("bytes") } ?? 0
        }
    }

    /// Progress and state changes, from now on, until the caller stops iterating.
    public func events() -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: Event.self, bufferingPolicy: .bufferingNewest(1000))
        let id = UUID()
        subscribers[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.unsubscribe(id) }
        }
        return stream
    }

    /// Waits until `songID` is no longer queued or downloading and answers it (nil when deleted).
    public func waitUntilSettled(songID: String) async -> Item? {
        if let item = try? item(songID: songID), item.state != .queued && item.state != .downloading {
            return item
        }
        guard (try? item(songID: songID)) != nil else { return nil }
        return await withCheckedContinuation { waiters[songID, default: []].append($0) }
    }

    // MARK: Queue

    private func unsubscribe(_ id: UUID) { subscribers[id] = nil }

    private func emit(_ event: Event) {
        for continuation in subscribers.values { continuation.yield(event) }
    }

    private func finishWaiters(_ songID: String, _ item: Item?) {
        for waiter in waiters.removeValue(forKey: songID) ?? [] { waiter.resume(returning: item) }
    }

    /// Starts queued downloads while fewer than `maxConcurrent` run.
    private func pump() {
        guard running.count < options.maxConcurrent else { return }
        let queued =
            (try? store.database.read { db in
                try db.query(
                    "SELECT song_id FROM downloads WHERE state = 'queued' ORDER BY created_at, song_id"
                ) {
                    try $0.string("song_id")
                }
            }) ?? []
        for songID in queued where running[songID] == nil && running.count < options.maxConcurrent {
            try? setState(songID, .downloading)
            running[songID] = Task { await self.run(songID) }
        }
    }

    private func run(_ songID: String) async {
        var attempt = 1
        var outcome: Result<Void, any Error>
        while true {
            do {
                try await transfer(songID)
                outcome = .success(())
            } catch let error as APIError where error.kind == .network && attempt < options.maxAttempts {
                let delay = min(0.2 * pow(2, Double(attempt - 1)), 5) * Double.random(in: 1...1.5)
                attempt += 1
                do { try await Task.sleep(for: .milliseconds(Int(delay * 1000))) } catch {
                    outcome = .failure(error)
                }
                if !Task.isCancelled { continue }
                outcome = .failure(CancellationError())
            } catch {
                outcome = .failure(error)
            }
            break
        }
        guard !Task.isCancelled else { return }  // paused or deleted: they updated the row
        running[songID] = nil
        switch outcome {
        case .success:
            try? setState(songID, .completed)
        case .failure(let error):
            let message = (error as? APIError)?.message ?? (error as? DownloadError)?.message ?? "\(error)"
            try? store.database.write { db in
                _ = try db.execute(
                    "UPDATE downloads SET state = 'failed', error = ?, updated_at = ? WHERE song_id = ?",
                    message,
                    Self.now(), songID)
            }
            emit(.stateChanged(songID: songID, state: .failed))
        }
        finishWaiters(songID, try? item(songID: songID))
        pump()
    }

    // MARK: Transfer

    private struct Validators {
        var etag: String?
        var lastModified: String?
        var total: Int64?
        var expected: Int64?
    }

    /// Fetches the rest of `songID` into its `.part` file, then checks and renames it.
    private func transfer(_ songID: String) async throws {
        guard let item = try item(songID: songID) else { throw CancellationError() }
        let part = partURL(songID)
        let saved = try validators(songID)
        var offset =
            (try? FileManager.default.attributesOfItem(atPath: part.path)[.size] as? NSNumber)?.int64Value
            ?? 0
        if offset > 0 && saved.etag == nil && saved.lastModified == nil {
            offset = 0  // nothing to make sure the bytes on disk are of the same file
        }
        if let total = saved.total, offset > total { offset = 0 }
        if offset == 0 { _ = FileManager.default.createFile(atPath: part.path, contents: nil) }

        var request = URLRequest(url: item.url)
        request.timeoutInterval = options.timeout
        if let token = client?.sessionToken {
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        }
        if offset > 0 {
            request.setValue("bytes=\(offset)-", forHTTPHeaderField: "Range")
            if let validator = saved.etag ?? saved.lastModified {
                request.setValue(validator, forHTTPHeaderField: "If-Range")
            }
        }

        let stream = DataStream(request: request, timeout: options.timeout)
        var handle: FileHandle?
        defer { try? handle?.close() }
        var total: Int64? = saved.total
        var done = offset
        var lastSaved = Date()
        let started = Date()
        var sentThisTry: Int64 = 0
        var errorBody = Data()
        var failedResponse: HTTPURLResponse?

        for try await event in stream.events {
            try Task.checkCancellation()
            switch event {
            case .response(let response):
                switch response.statusCode {
                case 206:
                    let range = Self.contentRange(response.value(forHTTPHeaderField: "Content-Range"))
                    guard range?.start == offset else {
                        throw DownloadError(
                            kind: .http, message: "The server sent a different part of the file than asked.")
                    }
                    total = range?.total ?? total
                case 200:
                    offset = 0
                    done = 0
                    let length = response.expectedContentLength
                    total = length >= 0 ? length : nil
                    _ = FileManager.default.createFile(atPath: part.path, contents: nil)  // start over
                case 416 where offset > 0:
                    // What is on disk does not fit the file any more: start over next try.
                    try? FileManager.default.removeItem(at: part)
                    try clearValidators(songID)
                    throw APIError(
                        kind: .network, httpStatus: 416,
                        message: "The partial download no longer fits the file.")
                default:
                    failedResponse = response
                    continue
                }
                if let expected = saved.expected, let total, expected != total {
                    try? FileManager.default.removeItem(at: part)
                    throw DownloadError(
                        kind: .sizeMismatch,
                        message:
                            "The server's file is \(total) bytes, not the \(expected) expected; the download was discarded."
                    )
                }
                if let total, let quota = options.quotaBytes, try usedBytes(excluding: songID) + total > quota
                {
                    try? FileManager.default.removeItem(at: part)
                    throw Self.quotaError(needed: total, quota: quota)
                }
                try store.database.write { db in
                    _ = try db.execute(
                        """
                        UPDATE downloads SET bytes_total = ?, etag = ?, last_modified = ?, bytes_done = ?, updated_at = ?
                        WHERE song_id = ?
                        """, total, response.value(forHTTPHeaderField: "ETag"),
                        response.value(forHTTPHeaderField: "Last-Modified"), done, Self.now(), songID)
                }
                handle = try FileHandle(forWritingTo: part)
                try handle?.seekToEnd()
            case .data(let data):
                if failedResponse != nil {
                    errorBody.append(data)
                    continue
                }
                guard let handle else { continue }
                try handle.write(contentsOf: data)
                done += Int64(data.count)
                sentThisTry += Int64(data.count)
                if Date().timeIntervalSince(lastSaved) > 0.25 {
                    lastSaved = Date()
                    try saveProgress(songID, done)
                }
                emit(.progress(songID: songID, bytesDone: done, bytesTotal: total))
                if let rate = options.maxBytesPerSecond, rate > 0 {
                    let due = Double(sentThisTry) / Double(rate) - Date().timeIntervalSince(started)
                    if due > 0 { try await Task.sleep(for: .milliseconds(Int(due * 1000))) }
                }
            }
        }
        try Task.checkCancellation()  // a paused stream ends early: never take it for the whole file
        if let failedResponse {
            let error = APIClient.error(from: errorBody, response: failedResponse)
            if [502, 503, 504].contains(failedResponse.statusCode) {
                throw APIError(kind: .network, httpStatus: error.httpStatus, message: error.message)
            }
            throw error
        }
        try handle?.synchronize()
        try handle?.close()
        handle = nil
        try saveProgress(songID, done)
        let size =
            (try FileManager.default.attributesOfItem(atPath: part.path)[.size] as? NSNumber)?.int64Value
            ?? -1
        if let total, size != total {
            if size < total {
                throw APIError(
                    kind: .network, message: "The connection ended after \(size) of \(total) bytes.")
            }
            try? FileManager.default.removeItem(at: part)
            throw DownloadError(
                kind: .sizeMismatch,
                message: "The download is \(size) bytes, not the \(total) expected; it was discarded.")
        }
        let final = folder.appendingPathComponent(item.fileURL?.lastPathComponent ?? fileName(of: item))
        try? FileManager.default.removeItem(at: final)
        try FileManager.default.moveItem(at: part, to: final)
    }

    // MARK: Rows

    private static let columns = "song_id, title, url, state, bytes_done, bytes_total, error, file_name"

    private nonisolated func item(from row: Row) throws -> Item {
        let state = State(rawValue: try row.string("state")) ?? .failed
        let fileName = try row.string("file_name")
        return Item(
            songID: try row.string("song_id"), title: try row.optionalString("title"),
            url: URL(string: try row.string("url")) ?? folder, state: state,
            bytesDone: try row.int64("bytes_done"),
            bytesTotal: try row.optionalInt64("bytes_total"), error: try row.optionalString("error"),
            fileURL: state == .completed ? folder.appendingPathComponent(fileName) : nil)
    }

    private func fileName(of item: Item) -> String {
        (try? store.database.read { db in
            try db.queryOne("SELECT file_name FROM downloads WHERE song_id = ?", item.songID) {
                try $0.string("file_name")
            }
        }) ?? item.songID
    }

    private func validators(_ songID: String) throws -> Validators {
        try store.database.read { db in
            try db.queryOne(
                "SELECT etag, last_modified, bytes_total, expected_size FROM downloads WHERE song_id = ?",
                songID
            ) { row in
                Validators(
                    etag: try row.optionalString("etag"),
                    lastModified: try row.optionalString("last_modified"),
                    total: try row.optionalInt64("bytes_total"),
                    expected: try row.optionalInt64("expected_size"))
            }
        } ?? Validators()
    }

    private func clearValidators(_ songID: String) throws {
        try store.database.write { db in
            _ = try db.execute(
                "UPDATE downloads SET etag = NULL, last_modified = NULL, bytes_done = 0 WHERE song_id = ?",
                songID)
        }
    }

    private func saveProgress(_ songID: String, _ done: Int64) throws {
        try store.database.write { db in
            _ = try db.execute(
                "UPDATE downloads SET bytes_done = ?, updated_at = ? WHERE song_id = ?", done, Self.now(),
                songID)
        }
    }

    private func setState(_ songID: String, _ state: State) throws {
        try store.database.write { db in
            _ = try db.execute(
                "UPDATE downloads SET state = ?, updated_at = ? WHERE song_id = ?", state.rawValue,
                Self.now(), songID)
        }
        emit(.stateChanged(songID: songID, state: state))
    }

    /// Bytes that complete downloads take plus the expected sizes of the others, leaving out `songID`.
    private func usedBytes(excluding songID: String) throws -> Int64 {
        try store.database.read { db in
            try db.queryOne(
                """
                SELECT coalesce(sum(CASE WHEN state = 'completed' THEN bytes_done ELSE coalesce(bytes_total, expected_size, bytes_done) END), 0) AS bytes
                FROM downloads WHERE song_id <> ? AND state <> 'failed'
                """, songID
            ) { try $0.int64("bytes") } ?? 0
        }
    }

    private nonisolated func partURL(_ songID: String) -> URL {
        folder.appendingPathComponent(songID.replacingOccurrences(of: "/", with: "_") + ".part")
    }

    private static func quotaError(needed: Int64, quota: Int64) -> DownloadError {
        DownloadError(
            kind: .quotaExceeded,
            message:
                "Not enough download space: this song needs \(needed) bytes and the downloads may take \(quota) in all. Delete some downloads first."
        )
    }

    private static func now() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    /// `bytes 100-199/1000` as (100, 1000).
    static func contentRange(_ header: String?) -> (start: Int64, total: Int64?)? {
        guard let header, header.hasPrefix("bytes ") else { return nil }
        let parts = header.dropFirst(6).split(separator: "/")
        guard parts.count == 2, let dash = parts[0].firstIndex(of: "-"), let start = Int64(parts[0][..<dash])
        else {
            return nil
        }
        return (start, Int64(parts[1]))
    }
}
