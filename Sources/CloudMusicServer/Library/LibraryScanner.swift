import AudioMetadata
import Foundation
import Logging
import MusicCore
import Storage
import Synchronization

/// Turns music folders into catalog rows, incrementally.
///
/// Unchanged files (same size and mtime) cost one stat. New and changed files are read in parallel
/// and written in small transactions, so a scan killed halfway leaves a usable library and the next
/// scan starts where it stopped. Files gone from disk are removed only after a complete walk, and a
/// new file whose content fingerprint matches a vanished one takes over its id (a move or rename).
final class LibraryScanner: Sendable {
    let database: Database
    let folders: [String]
    let logger: Logger?
    let batchSize = 500
    let maxIssues = 1_000
    /// For crash tests: with CLOUDMUSIC_SCAN_STOP_IN_BATCH=N the scan stops itself (SIGSTOP) halfway through batch
    /// N's transaction, so that the test's kill lands there every time, not only when a loaded machine lets the
    /// test look between two batches.
    static let stopInBatch = ProcessInfo.processInfo.environment["CLOUDMUSIC_SCAN_STOP_IN_BATCH"].flatMap {
        Int($0)
    }

    init(database: Database, folders: [String], logger: Logger? = nil) {
        self.database = database
        self.folders = folders.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        self.logger = logger
    }

    func scan(progress: @Sendable (ScanProgress) -> Void = { _ in }) throws -> ScanReport {
        let startedAt = Int64(Date().timeIntervalSince1970)
        let scanID = try database.write { db in try LibraryStore.beginScan(db, at: startedAt) }
        try rewriteOldSearchRows()
        var counts = (seen: 0, added: 0, updated: 0, moved: 0, removed: 0, unchanged: 0, failed: 0)
        var issues: [ScanReport.Issue] = []
        func note(_ path: String, _ reason: String) {
            counts.failed += 1
            if issues.count < maxIssues { issues.append(.init(path: path, reason: reason)) }
        }

        // 1. Walk: stat only.
        var folderIDs: [(root: String, id: Int64, available: Bool)] = []
        for root in folders {
            let id = try database.write { try LibraryStore.folderID($0, path: root) }
            var isDirectory: ObjCBool = false
            let available =
                FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory)
                && isDirectory.boolValue
            if !available {
                note(root, "music folder is missing or not a folder; its songs are kept until it is back")
            }
            folderIDs.append((root, id, available))
        }
        let existing = try database.read {
            try LibraryStore.existingSongs($0, folderIDs: folderIDs.map(\.id))
        }
        var seen = Set<String>(minimumCapacity: existing.count)
        var toRead: [(FoundFile, root: String, existingID: Int64?)] = []
        var lyricChanges: [(Int64, String?)] = []
        var covers = Set<String>()
        let walker = LibraryWalker(audioExtensions: AudioFileReader.supportedExtensions)
        for folder in folderIDs where folder.available {
            walker.walk(
                root: folder.root, folderID: folder.id,
                found: { file in
                    counts.seen += 1
                    seen.insert(file.path)
                    if let cover = file.folderCover { covers.insert(cover) }
                    if let old = existing[file.path] {
                        if old.size == file.size && old.mtimeNanoseconds == file.mtimeNanoseconds
                            && old.tagsVersion >= LibraryStore.tagsVersion
                        {
                            counts.unchanged += 1
                            if old.lyricPath != file.lyricPath {
                                lyricChanges.append((old.id, file.lyricPath))
                            }
                        } else {
                            toRead.append((file, folder.root, old.id))
                        }
                    } else {
                        toRead.append((file, folder.root, nil))
                    }
                    if counts.seen % 5_000 == 0 {
                        progress(
                            ScanProgress(
                                phase: "walking", filesSeen: counts.seen, toRead: toRead.count, read: 0))
                    }
                },
                unreadable: { note($0, $1) })
        }
        if !lyricChanges.isEmpty {
            try database.write { db in
                for (id, path) in lyricChanges {
                    try LibraryStore.updateLyricPath(db, songID: id, lyricPath: path)
                }
            }
        }

        // 2. Vanished songs, by fingerprint, so a moved file can take over its old id.
        let availableFolders = Set(folderIDs.filter(\.available).map(\.root))
        var vanished: [String: [Int64]] = [:]
        var vanishedIDs = Set<Int64>()
        // Songs stored by older scans carry the legacy fingerprint: a new file of the same size is checked
        // against it too (rare: only files moved since the upgrade).
        var legacySizes = Set<Int64>()
        for (path, song) in existing
        where !seen.contains(path) && availableFolders.contains(where: { path.hasPrefix($0 + "/") }) {
            vanished[song.fingerprint, default: []].append(song.id)
            vanishedIDs.insert(song.id)
            if !song.fingerprint.hasPrefix("2:") { legacySizes.insert(song.size) }
        }
        /// The id of a vanished song with this fingerprint, taken so that no other file gets it.
        func takeVanished(_ fingerprint: String) -> Int64? {
            guard var candidates = vanished[fingerprint], let id = candidates.popLast() else { return nil }
            vanished[fingerprint] = candidates
            vanishedIDs.remove(id)
            return id
        }

        // 3. Read new and changed files in parallel; write each batch in one transaction.
        toRead.sort { $0.0.path < $1.0.path }
        var store: LibraryStore? = nil
        var done = 0
        // Reading (tags, on every core) and writing (one transaction per batch) overlap: the next batch is
        // read while this one is written.
        let batches = stride(from: 0, to: toRead.count, by: batchSize).map {
            Array(toRead[$0..<min($0 + batchSize, toRead.count)])
        }
        let reader = BatchReader()
        if let first = batches.first { reader.start(first.map { ($0.0, $0.root) }) }
        for (number, batch) in batches.enumerated() {
            let results = reader.wait()
            if number + 1 < batches.count { reader.start(batches[number + 1].map { ($0.0, $0.root) }) }
            try database.write { db in
                if store == nil { store = try LibraryStore(db) }
                for (index, result) in results.enumerated() {
                    if number + 1 == Self.stopInBatch, index == results.count / 2 { raise(SIGSTOP) }
                    switch result {
                    case .failure(let reason):
                        note(batch[index].0.path, reason)
                    case .success(let song):
                        if let id = batch[index].existingID {
                            try store!.save(db, song: song, existingID: id)
                            counts.updated += 1
                        } else if let id = takeVanished(song.fingerprint)
                            ?? (legacySizes.contains(song.file.size)
                                ? (try? ScannedSong.legacyFingerprint(
                                    path: song.file.path, size: song.file.size))
                                    .flatMap(takeVanished) : nil)
                        {
                            try store!.save(db, song: song, existingID: id)
                            counts.moved += 1
                        } else {
                            try store!.save(db, song: song, existingID: nil)
                            counts.added += 1
                        }
                    }
                }
            }
            done += batch.count
            progress(ScanProgress(phase: "reading", filesSeen: counts.seen, toRead: toRead.count, read: done))
        }

        // 4. Remove what is gone, recount, and close the report.
        progress(ScanProgress(phase: "finishing", filesSeen: counts.seen, toRead: toRead.count, read: done))
        let removedIDs = Array(vanishedIDs)
        for start in stride(from: 0, to: removedIDs.count, by: 500) {
            let slice = Array(removedIDs[start..<min(start + 500, removedIDs.count)])
            try database.write { try LibraryStore.deleteSongs($0, ids: slice) }
        }
        counts.removed = removedIDs.count
        let report = ScanReport(
            id: String(scanID), state: "finished", startedAt: APIDate.string(startedAt),
            finishedAt: APIDate.string(Int64(Date().timeIntervalSince1970)), filesSeen: counts.seen,
            added: counts.added, updated: counts.updated, moved: counts.moved, removed: counts.removed,
            unchanged: counts.unchanged, failed: counts.failed, issues: issues)
        let changed = counts.added + counts.updated + counts.moved + counts.removed > 0
        try database.write { db in
            try LibraryStore.forgetFolderCovers(db, under: Array(availableFolders), except: covers)
            if changed { try LibraryStore.refreshCountsAndOrphans(db) }
            try LibraryStore.finishScan(db, report: report)
        }
        logger?.info(
            "scan finished: seen=\(counts.seen) added=\(counts.added) updated=\(counts.updated) moved=\(counts.moved) "
                + "removed=\(counts.removed) unchanged=\(counts.unchanged) failed=\(counts.failed)")
        return report
    }

    /// Search rows written before `SearchText` last changed (pinyin words) are written again, a batch per
    /// transaction, so that a library scanned by an older version finds 周杰伦 by "zjl" too.
    private func rewriteOldSearchRows() throws {
        guard try database.read({ try LibraryStore.searchTextIsOld($0) }) else { return }
        for index in LibraryStore.SearchIndex.allCases {
            var after: Int64 = 0
            while let last = try database.write({
                try LibraryStore.rewriteSearchRows($0, index, after: after, limit: batchSize)
            }) {
                after = last
            }
        }
        try database.write { try LibraryStore.markSearchTextCurrent($0) }
        logger?.info("search index written again for SearchText version \(SearchText.version)")
    }

    enum ReadResult: Sendable {
        case success(ScannedSong)
        case failure(String)
    }

    /// Reads tags on every core; one bad file becomes a failure, never a stop.
    /// Reads one batch in the background while the caller writes the one before.
    final class BatchReader: @unchecked Sendable {
        private var results: [ReadResult] = []
        private let done = DispatchSemaphore(value: 0)

        func start(_ files: [(FoundFile, String)]) {
            DispatchQueue.global(qos: .userInitiated).async {
                self.results = LibraryScanner.readInParallel(files)
                self.done.signal()
            }
        }

        func wait() -> [ReadResult] {
            done.wait()
            return results
        }
    }

    static func readInParallel(_ files: [(FoundFile, String)]) -> [ReadResult] {
        let results = Mutex([ReadResult](repeating: .failure("not read"), count: files.count))
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            let (file, root) = files[index]
            let result: ReadResult
            do {
                result = .success(try ScannedSong.read(file, root: root))
            } catch let error as AudioMetadataError {
                result = .failure(error.reason)
            } catch {
                result = .failure("\(error)")
            }
            results.withLock { $0[index] = result }
        }
        return results.withLock { $0 }
    }
}
