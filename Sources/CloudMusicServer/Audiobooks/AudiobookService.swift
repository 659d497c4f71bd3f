import Foundation
import Logging
import MusicCore
import Storage
import Synchronization

/// The audiobooks folder, scanned into podcasts of the kind `audiobook` (at start and on an administrator's
/// word), and what only books have: covers from their files, and parts' chapters.
///
/// A scan finds the books (names, sizes, times), reads only those whose files changed, writes each book with
/// its parts in one transaction, and deletes the books gone from the folder. A book an administrator deleted
/// is left out while its files are as they were (`AudiobooksSchema.deletions`). Scans run one at a time.
struct AudiobookService: Sendable {
    let database: Database
    /// The folder as given; nil when the server has none.
    let folder: String?
    let logger: Logger?
    let store = AudiobookStore()
    var clock: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }
    private let running = ScanLock()

    /// Remembers a book as deleted, on the caller's connection (the podcast's deletion, one transaction), so
    /// scans do not add it again while its files are unchanged; nothing for a feed's podcast.
    static func rememberDeletion(_ db: Connection, id: Int64, now: Int64) throws {
        try AudiobookStore().rememberDeletion(db, id: id, now: now)
    }

    init(database: Database, folder: String?, logger: Logger?) {
        self.database = database
        self.folder = folder
        self.logger = logger
    }

    final class ScanLock: Sendable {
        let mutex = Mutex(())
    }

    static let noBook = ServiceError.notFound("That audiobook does not exist.")
    static let noPart = ServiceError.notFound("That episode does not exist.")

    /// The folder's real path, where stored paths are relative to.
    var root: String? { folder.flatMap(FileRoots.realPath) }

    func scan() throws -> AudiobookScanReport {
        try running.mutex.withLock { _ in try scanNow() }
    }

    private func scanNow() throws -> AudiobookScanReport {
        guard let folder else {
            throw ServiceError.unavailable(
                "The server has no audiobooks folder (start it with --audiobooks DIR).")
        }
        guard let scanner = AudiobookScanner(folder: folder) else {
            throw ServiceError.unavailable("The audiobooks folder cannot be read.")
        }
        var (found, failed) = scanner.find()
        var report = AudiobookScanReport(added: 0, updated: 0, removed: 0, unchanged: 0, failed: [])
        var (known, deletions) = try database.read { db in (try store.books(db), try store.deletions(db)) }
        for book in found {
            // Deleted by an administrator and unchanged since: left out (a book still here is removed below).
            if let stamp = deletions[book.key] {
                if stamp == book.stamp {
                    report.deleted += 1
                    continue
                }
                logger?.info("event=audiobook_back reason=\"its files changed since it was deleted\"")
            }
            let existing = known.removeValue(forKey: book.key)
            if let existing, existing.stamp == book.stamp {
                report.unchanged += 1
                continue
            }
            guard let read = scanner.read(book, failed: &failed) else {
                failed.append("\(book.key): none of its files can be read")
                continue
            }
            let now = clock()
            _ = try database.write { db in
                if deletions[book.key] != nil { try store.forgetDeletion(db, key: book.key) }
                let id = try store.write(
                    db, key: book.key, existing: existing?.id, fields: read.fields, book: read.book,
                    stamp: book.stamp, parts: read.parts, now: now)
                try PodcastService.reindexEpisodes(db, podcastID: id)
                return id
            }
            if existing == nil { report.added += 1 } else { report.updated += 1 }
        }
        // Books whose folder or file is gone, or cannot be read now.
        let gone = known.values.map(\.id)
        if !gone.isEmpty {
            try database.write { db in for id in gone { try store.delete(db, id: id) } }
        }
        report.removed = gone.count
        report.failed = Array(failed.prefix(100))
        for failure in failed.prefix(20) { logger?.warning("event=audiobook_refused reason=\"\(failure)\"") }
        logger?.info(
            "event=audiobooks_scanned added=\(report.added) updated=\(report.updated) removed=\(report.removed) "
                + "unchanged=\(report.unchanged) failed=\(failed.count)")
        return report
    }

    /// The books administrators deleted, which scans leave out.
    func deletedBooks() throws -> [DeletedAudiobook] {
        try database.read { db in try store.deletedBooks(db) }
    }

    /// Forgets a deletion and scans, so the book is back (read again from its files) in the answer's `added`.
    func restore(deletionID: Int64) throws -> AudiobookScanReport {
        let forgotten = try database.write { db in try store.forgetDeletion(db, id: deletionID) }
        guard forgotten else { throw ServiceError.notFound("That deleted audiobook does not exist.") }
        return try scan()
    }

    /// Scans in the background (at start); failures are logged.
    func startScan() {
        guard folder != nil else { return }
        Thread.detachNewThread { [self] in
            do { _ = try scan() } catch { logger?.error("event=audiobook_scan_failed error=\"\(error)\"") }
        }
    }

    /// A part's chapters: its chapter atoms', else the part as one chapter.
    func chapters(partID: Int64) throws -> EpisodeChapters {
        guard let chapters = try chaptersIfPart(partID) else { throw Self.noPart }
        return chapters
    }

    /// A part's chapters; nil when `partID` is no book's part (a podcast's episode).
    func chaptersIfPart(_ partID: Int64) throws -> EpisodeChapters? {
        guard let part = try database.read({ db in try store.part(db, id: partID) }) else { return nil }
        let duration = part.duration.map(Double.init)
        guard let text = part.chapters,
            let stored = try? JSONDecoder().decode(
                [AudiobookScanner.StoredChapter].self, from: Data(text.utf8)),
            !stored.isEmpty
        else {
            return EpisodeChapters(chapters: [.init(start: 0, end: duration, title: part.title, url: nil)])
        }
        return EpisodeChapters(
            chapters: stored.enumerated().map { index, chapter in
                let end = index + 1 < stored.count ? stored[index + 1].start : duration
                return .init(start: chapter.start, end: end, title: chapter.title, url: nil)
            })
    }

    /// The paths to draw a book's cover from: its picture, and its first part (for an embedded picture).
    /// nil when `bookID` is no book (a feed's podcast).
    func coverSources(bookID: Int64) throws -> (picture: String?, parts: [String])? {
        guard let sources = try database.read({ db in try store.coverSources(db, id: bookID) }) else {
            return nil
        }
        guard let root else { throw Self.noBook }
        var picture: String?
        var parts: [String] = []
        if let cover = sources.cover {
            let isPicture = AudiobookScanner.imageExtensions.contains(
                (cover as NSString).pathExtension.lowercased())
            if isPicture { picture = root + "/" + cover } else { parts.append(root + "/" + cover) }
        }
        if let first = sources.firstPart, !parts.contains(root + "/" + first) {
            parts.append(root + "/" + first)
        }
        return (picture, parts)
    }
}
