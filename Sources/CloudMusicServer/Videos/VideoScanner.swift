import Cryptography
import Foundation
import Logging
import MusicCore
import Storage
import Synchronization

/// Turns videos folders into video rows, incrementally, as the music scan does: an unchanged file (same size
/// and modification time) costs one stat; new and changed files are probed and given a still on every core and
/// written in small transactions; files gone are removed only after a complete walk of an available folder.
/// At the end, videos without a song or singer are matched again, since the music scan may have added them.
struct VideoScanner: Sendable {
    let database: Database
    let folders: [String]
    /// Where stills are cached (`<data>/cache/video-stills`).
    let stillFolder: String
    let store = VideoStore()
    let matcher = VideoMatcher()
    let batchSize = 50
    var clock: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }

    init(database: Database, folders: [String], stillFolder: String) {
        self.database = database
        self.folders = folders.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        self.stillFolder = stillFolder
    }

    struct Found: Sendable {
        var path: String
        var size: Int64
        var mtimeNanoseconds: Int64
    }

    func scan(progress: @Sendable (ScanProgress) -> Void = { _ in }) throws -> ScanReport {
        let startedAt = clock()
        var counts = (seen: 0, added: 0, updated: 0, removed: 0, unchanged: 0, failed: 0)
        var issues: [ScanReport.Issue] = []
        func note(_ path: String, _ reason: String) {
            counts.failed += 1
            if issues.count < 1_000 { issues.append(.init(path: path, reason: reason)) }
        }
        try FileManager.default.createDirectory(atPath: stillFolder, withIntermediateDirectories: true)

        // 1. Walk: stat only.
        var roots: [(path: String, id: Int64, available: Bool)] = []
        for root in folders {
            let id = try database.write { try store.folderID($0, path: root) }
            var isDirectory: ObjCBool = false
            let available =
                FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory)
                && isDirectory.boolValue
            if !available {
                note(root, "videos folder is missing or not a folder; its videos are kept until it is back")
            }
            roots.append((root, id, available))
        }
        let known = try database.read { try store.knownFiles($0, folderIDs: roots.map(\.id)) }
        var seen = Set<String>()
        var toRead: [(file: Found, folderID: Int64, existingID: Int64?)] = []
        for root in roots where root.available {
            Self.walk(root.path) { file in
                counts.seen += 1
                seen.insert(file.path)
                if let old = known[file.path] {
                    if old.size == file.size && old.mtimeNanoseconds == file.mtimeNanoseconds {
                        counts.unchanged += 1
                    } else {
                        toRead.append((file, root.id, old.id))
                    }
                } else {
                    toRead.append((file, root.id, nil))
                }
            } unreadable: {
                note($0, $1)
            }
        }
        progress(ScanProgress(phase: "reading", filesSeen: counts.seen, toRead: toRead.count, read: 0))

        // 2. Probe new and changed files on every core; write each batch in one transaction.
        toRead.sort { $0.file.path < $1.file.path }
        var done = 0
        for start in stride(from: 0, to: toRead.count, by: batchSize) {
            let batch = Array(toRead[start..<min(start + batchSize, toRead.count)])
            let results = readInParallel(batch.map(\.file))
            try database.write { db in
                let now = clock()
                for (index, result) in results.enumerated() {
                    switch result {
                    case .failure(let reason):
                        note(batch[index].file.path, reason)
                    case .success(let fields):
                        let id = try store.save(
                            db, fields, folderID: batch[index].folderID, uploadedBy: nil,
                            existingID: batch[index].existingID, now: now)
                        try matcher.match(db, videoID: id, title: fields.title, artist: fields.artistName)
                        if batch[index].existingID == nil { counts.added += 1 } else { counts.updated += 1 }
                    }
                }
            }
            done += batch.count
            progress(ScanProgress(phase: "reading", filesSeen: counts.seen, toRead: toRead.count, read: done))
        }

        // 3. Remove what is gone from folders that are there, then match again what has no song yet.
        progress(ScanProgress(phase: "finishing", filesSeen: counts.seen, toRead: toRead.count, read: done))
        let available = roots.filter(\.available).map(\.path)
        let gone = known.filter { path, _ in
            !seen.contains(path) && available.contains { path.hasPrefix($0 + "/") }
        }.map { $0.value.id }
        for start in stride(from: 0, to: gone.count, by: 500) {
            let slice = Array(gone[start..<min(start + 500, gone.count)])
            try database.write { try store.delete($0, ids: slice) }
        }
        counts.removed = gone.count
        try database.write { db in try matcher.matchAgain(db) }
        let finishedAt = clock()
        return ScanReport(
            id: String(startedAt), state: "finished", startedAt: APIDate.string(startedAt),
            finishedAt: APIDate.string(finishedAt), filesSeen: counts.seen, added: counts.added,
            updated: counts.updated, moved: 0, removed: counts.removed, unchanged: counts.unchanged,
            failed: counts.failed, issues: issues)
    }

    enum ReadResult: Sendable {
        case success(VideoStore.Fields)
        case failure(String)
    }

    private func readInParallel(_ files: [Found]) -> [ReadResult] {
        let results = Mutex([ReadResult](repeating: .failure("not read"), count: files.count))
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            let result = read(files[index])
            results.withLock { $0[index] = result }
        }
        return results.withLock { $0 }
    }

    /// Probes a file and takes its still (a video without a still is kept, with no icon).
    private func read(_ file: Found) -> ReadResult {
        let probe: VideoProbe
        do {
            probe = try VideoMedia.probe(file.path)
        } catch {
            return .failure("not a video the server can read: \(error)")
        }
        let name = VideoStills.name(path: file.path, size: file.size, mtimeNanoseconds: file.mtimeNanoseconds)
        let still: String? =
            (try? VideoStills.make(
                name, of: file.path, durationMilliseconds: probe.durationMilliseconds, in: stillFolder))
                != nil
            ? name : nil
        let (title, artist) = VideoNaming.titleAndArtist(
            probe: probe, fileName: (file.path as NSString).lastPathComponent)
        return .success(
            VideoStore.Fields(
                path: file.path, size: file.size, mtimeNanoseconds: file.mtimeNanoseconds, title: title,
                artistName: artist, probe: probe, thumbnail: still))
    }

    /// Calls `found` for each video file under `root`; `unreadable` for folders it cannot open.
    static func walk(_ root: String, found: (Found) -> Void, unreadable: (String, String) -> Void) {
        FolderWalk.walk(root, unreadable: unreadable) { directory, files in
            for file in files {
                guard let dot = file.name.lastIndex(of: "."),
                    VideoMedia.extensions.contains(file.name[file.name.index(after: dot)...].lowercased())
                else { continue }
                found(
                    Found(
                        path: directory + "/" + file.name, size: file.size,
                        mtimeNanoseconds: file.mtimeNanoseconds
                    ))
            }
        }
    }
}

/// Stills of videos, cached under the data folder by a name made from the file's path, size and time, so a
/// changed file gets a new still and an unchanged one keeps its own.
enum VideoStills {
    static func name(path: String, size: Int64, mtimeNanoseconds: Int64) -> String {
        let hasher = Crypto.Hasher()
        hasher.update(Data(path.utf8))
        hasher.update(size)
        hasher.update(mtimeNanoseconds)
        return hasher.finalizeHex() + ".jpg"
    }

    /// Takes the still unless it is already there.
    static func make(_ name: String, of path: String, durationMilliseconds: Int, in folder: String) throws {
        let destination = folder + "/" + name
        if FileManager.default.fileExists(atPath: destination) { return }
        try VideoMedia.writeStill(of: path, durationMilliseconds: durationMilliseconds, to: destination)
    }
}

/// Finds the song of the library a video belongs to ("Artist - Title" as sheets import them, with marks such
/// as "(MV)" left out of the title), and its singer: the song's first artist, else the catalog's artist of
/// that name.
struct VideoMatcher: Sendable {
    let store = VideoStore()
    let catalog = Catalog()

    func match(_ db: Connection, videoID: Int64, title: String, artist: String?) throws {
        let songTitle = VideoNaming.songTitle(title)
        let described = artist.map { "\($0) - \(songTitle)" } ?? songTitle
        let songID = try catalog.songID(db, matching: M3U.Entry(location: "", title: described))
        var artistID = try songID.flatMap { try store.firstArtistID(db, songID: $0) }
        if artistID == nil, let artist { artistID = try store.artistID(db, named: artist) }
        try store.setMatch(db, videoID: videoID, songID: songID, artistID: artistID)
    }

    /// Matches again the videos still without a song or singer.
    func matchAgain(_ db: Connection, limit: Int = 1_000) throws {
        for video in try store.unmatched(db, limit: limit) {
            try match(db, videoID: video.id, title: video.title, artist: video.artist)
        }
    }
}
