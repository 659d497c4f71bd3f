import AudioMetadata
import Cryptography
import Foundation
import MusicCore
import Storage

/// The rules of videos: lists and details (a view counts as a click once per viewer in 30 seconds), streams
/// and the MP4 conversion (sharing the songs' limit on conversions), stills, likes, and administrators' uploads.
struct VideoService: Sendable {
    let database: Database
    let store = VideoStore()
    let catalog = Catalog()
    let matcher = VideoMatcher()
    let clicks: ViewerClicks
    let transcodes: TranscodeLimiter
    /// The folders a video's file may be opened in.
    let files: FileRoots
    /// `<data>/cache/video-stills`.
    let stillFolder: String
    /// `<data>/videos`: uploaded files, named by their content's hash.
    let uploadFolder: String
    var clock: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }

    static let noVideo = ServiceError.notFound("That video does not exist.")

    // MARK: For other features, on their connection (inside their transaction)

    /// Whether the video exists, whoever asks (a comment's or a message's target).
    static func exists(_ db: Connection, id: Int64) throws -> Bool {
        try VideoStore().video(db, id: id, viewerID: nil) != nil
    }

    /// The videos of these ids as models, as the viewer sees them: one query for the videos, one for their songs.
    func videos(_ db: Connection, ids: [Int64], viewerID: Int64?) throws -> [Video] {
        try models(db, store.videos(db, ids: ids, viewerID: viewerID))
    }

    /// Adds counted clicks (`ViewerClicks` writes them in batches).
    static func addClicks(_ db: Connection, _ counts: [Int64: Int]) throws {
        try VideoStore().addClicks(db, counts)
    }

    // MARK: Reading

    func videos(order: VideoOrder, paging: Paging, viewer: Viewer?) throws -> Page<Video> {
        try database.read { db in
            let (records, total) = try store.videos(
                db, order: order, paging: paging, viewerID: viewer?.userID)
            return Page(items: try models(db, records), total: total, page: paging.page, size: paging.size)
        }
    }

    /// A video; the view counts as a click unless this viewer's last counted one is under 30 seconds old.
    func detail(id: Int64, viewer: Viewer?, address: String) throws -> Video {
        var video = try database.read { db in
            guard let record = try store.video(db, id: id, viewerID: viewer?.userID) else {
                throw Self.noVideo
            }
            return try models(db, [record])[0]
        }
        video.clicksCount += clicks.view(
            .video, id: id, by: ClickViewer(userID: viewer?.userID, address: address))
        return video
    }

    private func video(_ db: Connection, id: Int64, viewer: Viewer?) throws -> Video {
        guard let record = try store.video(db, id: id, viewerID: viewer?.userID) else { throw Self.noVideo }
        var video = try models(db, [record])[0]
        video.clicksCount += clicks.unwritten(.video, id: id)
        return video
    }

    /// Models for rows, with their songs in one query.
    func models(_ db: Connection, _ records: [VideoStore.Record]) throws -> [Video] {
        let songs = try catalog.songs(db, ids: Array(Set(records.compactMap(\.songID))))
        let songsByID = Dictionary(songs.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return records.map { record in
            let id = IDPath<Video>(row: record.id)
            let uri = VideosAPI.stream.uri(id)
            let safe = VideoMedia.isBrowserSafe(
                container: record.format, videoCodec: record.videoCodec, audioCodec: record.audioCodec,
                path: record.path)
            return Video(
                id: String(record.id), title: record.title, uri: uri,
                compatibleUri: safe ? uri : uri + "?format=mp4",
                icon: record.thumbnail == nil ? nil : VideosAPI.cover.uri(id),
                duration: record.durationMilliseconds,
                width: record.width, height: record.height, format: Self.formatName(record),
                videoCodec: record.videoCodec,
                audioCodec: record.audioCodec, clicksCount: record.clicksCount,
                commentsCount: record.commentsCount,
                likesCount: record.likesCount, liked: record.liked,
                singer: record.artistID.map {
                    ArtistSummary(id: String($0), name: record.artistDisplayName ?? record.artistName ?? "")
                },
                song: record.songID.flatMap { songsByID[String($0)] },
                createdAt: APIDate.string(record.createdAt), updatedAt: APIDate.string(record.updatedAt))
        }
    }

    /// The container as people name it: from the file's extension, which the probe agreed with.
    private static func formatName(_ record: VideoStore.Record) -> String {
        let ext = (record.path as NSString).pathExtension.lowercased()
        return ext == "m4v" ? "mp4" : ext
    }

    // MARK: Streams and stills

    /// What a stream request gets: the original file, or an MP4 conversion to run as the bytes go out.
    enum StreamReply {
        case file(path: String)
        case transcode(executable: String, arguments: [String], release: @Sendable () -> Void)
    }

    func stream(id: Int64, query: VideoStreamQuery, clients: [String]) throws -> StreamReply {
        guard let record = try database.read({ db in try store.video(db, id: id, viewerID: nil) }) else {
            throw Self.noVideo
        }
        guard FileManager.default.fileExists(atPath: record.path) else {
            throw ServiceError.notFound(
                "This video's file is missing; a scan of the videos folders will remove it.")
        }
        if query.format == .original {
            return .file(path: record.path)
        }
        guard let ffmpeg = FFmpeg.installed else {
            throw ServiceError.unavailable(
                "Converting is unavailable: ffmpeg is not installed on the server.")
        }
        // ffmpeg follows links: it is given the real path, checked to be inside the folders.
        guard let input = files.checkedPath(record.path) else {
            throw ServiceError.notFound(
                "This video's file is missing; a scan of the videos folders will remove it.")
        }
        let release = try transcodes.slot(for: clients)
        return .transcode(
            executable: ffmpeg.executable,
            arguments: VideoMedia.mp4Arguments(
                path: input, videoCodec: record.videoCodec, audioCodec: record.audioCodec,
                timeOffset: query.timeOffset ?? 0),
            release: release)
    }

    /// The video's still, taken again when the cache lost it.
    func still(id: Int64) throws -> String {
        guard let record = try database.read({ db in try store.video(db, id: id, viewerID: nil) }) else {
            throw Self.noVideo
        }
        guard let name = record.thumbnail else { throw ServiceError.notFound("This video has no still.") }
        do {
            try VideoStills.make(
                name, of: record.path, durationMilliseconds: record.durationMilliseconds, in: stillFolder)
        } catch {
            throw ServiceError.notFound(
                "This video's still cannot be made: its file is missing or unreadable.")
        }
        return stillFolder + "/" + name
    }

    // MARK: Uploads

    /// Stores an uploaded video (checked by its first bytes, then probed), takes its still, and adds it; the same
    /// content uploaded again is the video it already is.
    func upload(
        path uploadPath: String, size: Int, fields: [String: String], fileName: String?, viewer: Viewer
    ) throws
        -> Video
    {
        guard size > 0 else { throw ServiceError.invalid("The file is empty. Choose the video again.") }
        let notAVideo = ServiceError.unsupportedFormat(
            "That file is not a video the server can play. Send an MP4, MKV, WebM or MOV video "
                + "(the server looks at the file's content, not its name).")
        guard let container = VideoContainer.detect(fileAt: uploadPath) else { throw notAVideo }
        guard VideoMedia.ffprobe != nil, FFmpeg.installed != nil else {
            throw ServiceError.unavailable("Videos cannot be added: ffmpeg is not installed on the server.")
        }
        let probe: VideoProbe
        do { probe = try VideoMedia.probe(uploadPath) } catch { throw notAVideo }
        let title = try TextPolicy.check(fields["title"], field: "The title", limit: 200)
        let artist = try TextPolicy.check(fields["artist"], field: "The artist", limit: 200)
        guard let hash = Crypto.sha256Hex(ofFileAt: uploadPath) else {
            throw ServiceError.serverFault("The upload could not be read back. Try again.")
        }
        let destination = uploadFolder + "/" + hash + "." + container.fileExtension
        if !FileManager.default.fileExists(atPath: destination) {
            do {
                try FileManager.default.createDirectory(
                    atPath: uploadFolder, withIntermediateDirectories: true)
                let temporary = destination + ".\(UUID().uuidString).tmp"
                try FileManager.default.copyItem(atPath: uploadPath, toPath: temporary)
                guard rename(temporary, destination) == 0 else {
                    unlink(temporary)
                    throw CacheWriteFailure(path: destination)
                }
            } catch {
                throw ServiceError.serverFault(
                    "The video could not be stored (is the disk full?). Try again.")
            }
        }
        var info = stat()
        stat(destination, &info)
        let mtime = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        let stillName = VideoStills.name(path: destination, size: Int64(size), mtimeNanoseconds: mtime)
        try? FileManager.default.createDirectory(atPath: stillFolder, withIntermediateDirectories: true)
        let still: String? =
            (try? VideoStills.make(
                stillName, of: destination, durationMilliseconds: probe.durationMilliseconds, in: stillFolder))
                != nil
            ? stillName : nil
        let named = VideoNaming.titleAndArtist(probe: probe, fileName: fileName ?? "")
        let record = VideoStore.Fields(
            path: destination, size: Int64(size), mtimeNanoseconds: mtime,
            title: title ?? named.title,
            artistName: artist ?? named.artist, probe: probe, thumbnail: still)
        return try database.write { db in
            let existing = try store.videoID(db, path: destination)
            let id = try store.save(
                db, record, folderID: nil, uploadedBy: viewer.userID, existingID: existing, now: clock())
            try matcher.match(db, videoID: id, title: record.title, artist: record.artistName)
            return try video(db, id: id, viewer: viewer)
        }
    }

    /// Deletes an uploaded video with its file; a scanned one is the videos folder's to remove.
    func delete(id: Int64) throws {
        let path: String? = try database.write { db in
            guard let record = try store.video(db, id: id, viewerID: nil) else { throw Self.noVideo }
            guard record.folderID == nil else {
                throw ServiceError.conflict(
                    "This video is a file in a videos folder: remove the file there, and the next scan removes it."
                )
            }
            try store.delete(db, ids: [id])
            return try store.pathInUse(db, record.path) ? nil : record.path
        }
        if let path, path.hasPrefix(uploadFolder + "/") { unlink(path) }
    }

    // MARK: Likes

    func like(id: Int64, viewer: Viewer) throws -> Video {
        try database.write { db in
            guard try store.video(db, id: id, viewerID: nil) != nil else { throw Self.noVideo }
            _ = try store.like(db, userID: viewer.userID, videoID: id, now: clock())
            return try video(db, id: id, viewer: viewer)
        }
    }

    func unlike(id: Int64, viewer: Viewer) throws -> Video {
        try database.write { db in
            guard try store.video(db, id: id, viewerID: nil) != nil else { throw Self.noVideo }
            try store.unlike(db, userID: viewer.userID, videoID: id)
            return try video(db, id: id, viewer: viewer)
        }
    }
}
