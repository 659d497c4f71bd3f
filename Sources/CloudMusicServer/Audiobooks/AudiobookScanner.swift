import AudioMetadata
import Cryptography
import Foundation
import MusicCore

/// Finds the books of the audiobooks folder and reads them.
///
/// A book is a folder of audio files at the top of the folder (its parts, in natural name order: "Part 2"
/// before "Part 10"; disc folders inside it, "CD1" "CD2" or "Disc 1", add theirs in disc order) or one audio
/// file there (an .m4b, usually with chapters). Only what lies inside the folder is read: a symbolic link is followed only when its real target is inside too; one pointing out is
/// refused and reported. Finding books reads names, sizes and times only (`Found.stamp`); a book is read
/// (tags, lengths, chapters) only when its stamp changed.
struct AudiobookScanner {
    /// The folder's real path.
    let root: String

    static let maxBooks = 10_000
    static let maxParts = 2_000
    static let coverNames = ["cover", "folder", "front"]
    static let imageExtensions: Set<String> = ["jpg", "jpeg", "png", "webp"]
    static let chapterExtensions: Set<String> = ["m4b", "m4a", "mp4"]

    init?(folder: String) {
        guard let real = FileRoots.realPath(folder) else { return nil }
        root = real
    }

    /// A book as found on disk.
    struct Found: Sendable {
        /// Its name in the folder: the key it keeps across scans.
        var key: String
        var isFolder: Bool
        /// Real paths inside the folder, relative to it: the parts in order, and the cover picture.
        var parts: [String]
        var cover: String?
        /// Names, sizes and modification times of its files.
        var stamp: String
    }

    /// A book as read.
    struct Book: Sendable {
        var fields: PodcastFields
        var book: AudiobookStore.BookFields
        var parts: [AudiobookStore.Part]
    }

    /// The books of the folder, and what was refused or could not be listed.
    func find() -> (books: [Found], failed: [String]) {
        var failed: [String] = []
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: root) else {
            return ([], ["The audiobooks folder cannot be read."])
        }
        var books: [Found] = []
        for name in names.sorted(by: Self.natural) where !name.hasPrefix(".") {
            guard books.count < Self.maxBooks else { break }
            guard let (real, info) = resolve(root + "/" + name, failed: &failed) else { continue }
            let mode = info.st_mode & S_IFMT
            if mode == S_IFDIR {
                if let book = folderBook(key: name, folder: real, failed: &failed) { books.append(book) }
            } else if mode == S_IFREG,
                AudiobookFile.extensions.contains(AudioFileReader.fileExtension(of: name))
            {
                let relative = String(real.dropFirst(root.count + 1))
                books.append(
                    Found(
                        key: name, isFolder: false, parts: [relative], cover: nil,
                        stamp: Self.stamp([(relative, info)])))
            }
        }
        return (books, failed)
    }

    private func folderBook(key: String, folder: String, failed: inout [String]) -> Found? {
        var parts: [(String, stat)] = []
        var cover: (rank: Int, path: String, info: stat)?
        collect(folder, name: key, isDisc: false, parts: &parts, cover: &cover, failed: &failed)
        guard !parts.isEmpty else { return nil }
        return Found(
            key: key, isFolder: true, parts: parts.map(\.0), cover: cover?.path,
            stamp: Self.stamp(parts + (cover.map { [($0.path, $0.info)] } ?? [])))
    }

    /// A book folder's parts and cover, in natural name order; a disc folder inside it ("CD1", "Disc 2", "Part
    /// 3") adds its parts where its name sorts, so a book's parts are in disc order, then file order. A cover
    /// beside the parts wins over one in a disc folder. Other folders inside a book are not the book's.
    private func collect(
        _ folder: String, name: String, isDisc: Bool, parts: inout [(String, stat)],
        cover: inout (rank: Int, path: String, info: stat)?, failed: inout [String]
    ) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
            failed.append("\(name): the folder cannot be read")
            return
        }
        for entry in names.sorted(by: Self.natural) where !entry.hasPrefix(".") {
            let ext = AudioFileReader.fileExtension(of: entry)
            let base = (entry as NSString).deletingPathExtension.lowercased()
            let isPart = AudiobookFile.extensions.contains(ext)
            let coverRank =
                Self.imageExtensions.contains(ext)
                ? Self.coverNames.firstIndex(of: base).map { $0 + (isDisc ? Self.coverNames.count : 0) } : nil
            let isDiscFolder = !isDisc && Self.isDiscName(entry)
            guard isPart || coverRank != nil || isDiscFolder else { continue }
            guard let (real, info) = resolve(folder + "/" + entry, failed: &failed) else { continue }
            let relative = String(real.dropFirst(root.count + 1))
            switch info.st_mode & S_IFMT {
            case S_IFDIR where isDiscFolder:
                collect(
                    real, name: name + "/" + entry, isDisc: true, parts: &parts, cover: &cover,
                    failed: &failed)
            case S_IFREG where isPart:
                if parts.count < Self.maxParts { parts.append((relative, info)) }
            case S_IFREG:
                if let coverRank, cover == nil || coverRank < cover!.rank {
                    cover = (coverRank, relative, info)
                }
            default:
                continue
            }
        }
    }

    /// Whether a folder inside a book is one of its discs: a number ("01"), or one after a disc's word ("CD1",
    /// "cd 02", "Disc 1", "Disk2", "Part 3", "Vol. 4", "卷2"), or "第2卷"; the number is in digits ("卷三" is not).
    static func isDiscName(_ name: String) -> Bool {
        let pattern =
            #"^(?:(?:cd|disc|disk|part|pt|vol|volume|tape|side|卷|碟|盘)[\s._-]*)?\d{1,3}(?:$|[\s._)-])"#
            + #"|^第\s*\d{1,3}\s*[卷部张碟盘册]"#
        return name.range(of: pattern, options: [.regularExpression, .caseInsensitive]) != nil
    }

    /// The real path of `path` and its status, when it lies inside the folder; a link out is reported.
    private func resolve(_ path: String, failed: inout [String]) -> (String, stat)? {
        guard let real = FileRoots.realPath(path) else { return nil }
        guard real.hasPrefix(root + "/") else {
            failed.append(
                "\(path.dropFirst(root.count + 1)): a link to outside the audiobooks folder is refused")
            return nil
        }
        var info = stat()
        guard stat(real, &info) == 0 else { return nil }
        return (real, info)
    }

    static func stamp(_ files: [(String, stat)]) -> String {
        let hasher = Crypto.Hasher()
        for (path, info) in files {
            hasher.update(Data(path.utf8))
            hasher.update(Int64(info.st_size))
            hasher.update(Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))
        }
        return hasher.finalizeHex()
    }

    /// "Part 2" before "Part 10".
    static func natural(_ a: String, _ b: String) -> Bool {
        a.compare(b, options: [.numeric, .caseInsensitive]) == .orderedAscending
    }

    // MARK: Reading

    /// Reads a found book's tags, lengths and chapters; parts that cannot be read are left out and reported.
    func read(_ found: Found, failed: inout [String]) -> Book? {
        var files: [(path: String, file: AudiobookFile)] = []
        for part in found.parts {
            do {
                files.append((part, try AudiobookFile.read(path: root + "/" + part)))
            } catch {
                failed.append("\(part): \(error.reason)")
            }
        }
        guard let first = files.first?.file else { return nil }
        let name =
            found.isFolder ? found.key : (found.key as NSString).deletingPathExtension
        let named = Self.seriesInName(name)
        let title =
            (found.isFolder ? first.first("ALBUM") : first.first("ALBUM", "TITLE")) ?? named.title
        let author = first.first("ALBUMARTIST", "ARTIST")
        let series = first.first("SERIES", "MOVEMENTNAME", "SHOWNAME") ?? named.series
        let seriesPart =
            first.first("SERIES-PART", "SERIESPART", "MOVEMENTNUMBER").flatMap { Double($0) } ?? named.part
        let narrator = first.first("NARRATOR", "NARRATEDBY", "COMPOSER")
        let description = first.long("DESCRIPTION", "COMMENT") ?? ""
        let search = [title, author, narrator, series].compactMap { $0 }.joined(separator: " ")
        var parts: [AudiobookStore.Part] = []
        for (index, (path, file)) in files.enumerated() {
            let ext = AudioFileReader.fileExtension(of: path)
            var chapters: String?
            if Self.chapterExtensions.contains(ext) {
                do {
                    let read = try MP4Chapters.read(path: root + "/" + path)
                    if !read.isEmpty { chapters = Self.chaptersJSON(read) }
                } catch {
                    failed.append("\(path): its chapters cannot be read: \(error.reason)")
                }
            }
            let partTitle =
                found.isFolder ? (file.first("TITLE") ?? Self.partName(path)) : title
            let size =
                (try? FileManager.default.attributesOfItem(atPath: root + "/" + path)[.size] as? Int64)
                ?? nil
            parts.append(
                AudiobookStore.Part(
                    path: path,
                    fields: PodcastEpisodeFields(
                        title: partTitle, descriptionText: "", publishedAt: nil,
                        duration: (file.durationMilliseconds + 500) / 1_000, enclosureURL: "",
                        enclosureType: Self.mediaType(ext), enclosureLength: size, season: nil,
                        episode: index + 1,
                        chaptersURL: nil, transcriptURL: nil, imageURL: nil),
                    chapters: chapters))
        }
        let cover = found.cover ?? found.parts.first
        return Book(
            fields: PodcastFields(
                title: title, author: author, descriptionText: description, descriptionHTML: nil, link: nil,
                imageURL: nil, categories: [], explicit: false, language: nil,
                searchText: PodcastFeeds.searchText(search)),
            book: AudiobookStore.BookFields(
                narrator: narrator, series: series, seriesPart: seriesPart, year: first.year, cover: cover),
            parts: parts)
    }

    /// A part's name from its path: the file's name, after its disc folder's when it is in one ("CD2 · 01").
    static func partName(_ path: String) -> String {
        let components = path.split(separator: "/").map(String.init)
        let file = (components.last ?? path).deletingExtension
        guard components.count >= 3, let disc = components.dropLast().last, isDiscName(disc) else {
            return file
        }
        return "\(disc) · \(file)"
    }

    /// "Series 01 - Title" (a folder's or file's name): the series, the part and the title; else the name.
    static func seriesInName(_ name: String) -> (series: String?, part: Double?, title: String) {
        let pattern = #"^(.+?)\s+(\d{1,4}(?:\.\d{1,2})?)\s*-\s*(.+)$"#
        guard let regex = try? NSRegularExpression(pattern: pattern),
            let found = regex.firstMatch(in: name, range: NSRange(name.startIndex..., in: name)),
            let series = Range(found.range(at: 1), in: name), let part = Range(found.range(at: 2), in: name),
            let title = Range(found.range(at: 3), in: name)
        else { return (nil, nil, name) }
        return (String(name[series]), Double(name[part]), String(name[title]))
    }

    static func mediaType(_ ext: String) -> String {
        switch ext {
        case "m4b", "m4a", "mp4", "aac", "alac": "audio/mp4"
        case "mp3": "audio/mpeg"
        case "flac": "audio/flac"
        case "ogg", "oga", "opus", "spx": "audio/ogg"
        case "wav": "audio/wav"
        default: "application/octet-stream"
        }
    }

    struct StoredChapter: Codable {
        var start: Double
        var title: String
    }

    static func chaptersJSON(_ chapters: [MP4Chapter]) -> String {
        let stored = chapters.map { StoredChapter(start: $0.start, title: $0.title) }
        return String(decoding: (try? JSONEncoder().encode(stored)) ?? Data("[]".utf8), as: UTF8.self)
    }
}

extension String {
    fileprivate var deletingExtension: String { (self as NSString).deletingPathExtension }
}
