import AudioMetadata
import Cryptography
import Foundation
import MusicCore
import Storage
import Synchronization

/// Uploads (`POST v1/files/multi`): each part is checked by its bytes (never its name or declared type),
/// re-encoded by ffmpeg with every piece of metadata (EXIF, GPS) dropped and its long side capped, given a
/// thumbnail, stored once per content and recorded with who uploaded it.
///
/// JPEG and WebP are stored as JPEG; PNG as PNG (transparency kept); GIF as a PNG still of its first frame.
/// The per-person upload rate is counted in memory: one server instance. The files of one request are
/// recorded in one transaction, after every one of them is in place.
final class UploadService: Sendable {
    struct Settings: Sendable {
        /// Files in one request; the apps post up to nine moment pictures.
        var maxFiles = 9
        var maxFileBytes = 20 << 20
        /// The stored picture's longest side, and the thumbnail's.
        var maxSide = 2048
        var thumbnailSide = 360
        /// ffmpeg refuses to decode pictures with more pixels (a small file can claim a huge picture).
        var maxPixels = 40_000_000
        /// Files one person may upload a minute, counted per part (repeats included).
        var filesPerMinute = 30
        /// ffmpeg runs at once; more requests wait up to `encodeWait` seconds for a turn.
        var concurrentEncodes = 2
        var encodeWait = 30
        var encodeTimeout: TimeInterval = 30
    }

    let database: Database
    let store = FileStore()
    /// `<dataFolder>/files`.
    let folder: String
    let settings: Settings
    let clock: @Sendable () -> Int64
    private let recent = Mutex<[Int64: [Int64]]>([:])
    private let encodeSlots: DispatchSemaphore

    init(
        database: Database, folder: String, settings: Settings = Settings(),
        clock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }
    ) {
        self.database = database
        self.folder = folder
        self.settings = settings
        self.clock = clock
        encodeSlots = DispatchSemaphore(value: max(1, settings.concurrentEncodes))
    }

    func path(of name: UploadedFiles.Name) -> String {
        folder + "/" + name.sha256.prefix(2) + "/" + name.fileName
    }

    // MARK: Uploading

    /// Stores the file parts of one request and describes them in the order they came; nothing is stored
    /// when any part is refused.
    func upload(_ parts: [Upload.File], userID: Int64) throws -> [StoredFile] {
        guard !parts.isEmpty else {
            throw ServiceError.invalid(
                "Choose at least one picture: send them as multipart/form-data file parts.")
        }
        guard parts.count <= settings.maxFiles else {
            throw ServiceError.invalid(
                "You can upload at most \(settings.maxFiles) files at once, and you sent \(parts.count). "
                    + "Send fewer.")
        }
        var formats: [ImageFormat] = []
        for (index, part) in parts.enumerated() {
            let label = Self.label(part, index: index, of: parts.count)
            guard part.size > 0 else {
                throw ServiceError.invalid("\(label) is empty. Choose the picture again.")
            }
            guard part.size <= settings.maxFileBytes else {
                throw ServiceError.tooLarge(
                    "\(label) is larger than the \(settings.maxFileBytes >> 20) MB allowed for one file. "
                        + "Choose a smaller picture.")
            }
            guard let format = ImageFormat.detect(fileAt: part.path) else {
                throw ServiceError.unsupportedFormat(
                    "\(label) is not a picture the server can read. Send JPEG, PNG, WebP or GIF pictures "
                        + "(the server looks at the file's content, not its name).")
            }
            formats.append(format)
        }
        try takeAllowance(userID: userID, files: parts.count)

        var hashes: [String] = []
        for part in parts {
            guard let hash = Crypto.sha256Hex(ofFileAt: part.path) else { throw Self.storageFailure }
            hashes.append(hash)
        }
        // Encode every new content first, then move them all into place, then record them: a picture
        // that fails to decode leaves nothing behind.
        var pending: [String: Encoded] = [:]
        var known: [String: FileStore.Record] = [:]
        defer { for encoded in pending.values { encoded.discard() } }
        let recorded = try database.read { db in
            try Set(hashes).reduce(into: [String: FileStore.Record]()) {
                $0[$1] = try store.file(db, sha256: $1)
            }
        }
        for (index, hash) in hashes.enumerated() where pending[hash] == nil && known[hash] == nil {
            if let record = recorded[hash], storedFilesExist(record) {
                known[hash] = record
                continue
            }
            pending[hash] = try encode(
                parts[index], format: formats[index], sha256: hash,
                label: Self.label(parts[index], index: index, of: parts.count))
        }
        var records: [FileStore.Record] = []
        var seen = Set<String>()
        for hash in hashes where seen.insert(hash).inserted {
            if let record = known[hash] {
                records.append(record)
            } else if let encoded = pending[hash] {
                records.append(try encoded.install())
            }
        }
        let now = clock()
        let saved = try database.write { db in
            try records.map { try store.save(db, $0, userID: userID, now: now) }
        }
        var byHash: [String: FileStore.Record] = [:]
        for record in saved { byHash[record.sha256] = record }
        return try hashes.map { hash in
            guard let record = byHash[hash] else { throw Self.storageFailure }
            return try Self.model(record)
        }
    }

    /// The API model of a stored upload.
    static func model(_ record: FileStore.Record) throws -> StoredFile {
        guard let encoding = UploadedFiles.Encoding(mime: record.mime) else { throw storageFailure }
        let main = UploadedFiles.Name(sha256: record.sha256, thumbnail: false, encoding: encoding)
        let thumb = UploadedFiles.Name(sha256: record.sha256, thumbnail: true, encoding: encoding)
        return StoredFile(
            id: record.sha256, uri: UploadedFiles.uri(main), icon: UploadedFiles.uri(thumb),
            mime: record.mime,
            width: record.width, height: record.height, size: record.size)
    }

    /// "File 2 (photo.jpg)", or "The file (photo.jpg)" when it is the only one.
    static func label(_ part: Upload.File, index: Int, of count: Int) -> LocalizedText {
        let base = count == 1 ? LocalizedText("The file") : LocalizedText("File \(index + 1)")
        guard let name = part.fileName?.trimmingCharacters(in: .whitespacesAndNewlines), !name.isEmpty else {
            return base
        }
        let shown = name.count > 60 ? name.prefix(57) + "..." : name
        return LocalizedText("\(base) (\(shown))")
    }

    static let storageFailure = ServiceError.serverFault(
        "The server could not store the upload. Please tell the administrator.")

    private func storedFilesExist(_ record: FileStore.Record) -> Bool {
        guard let encoding = UploadedFiles.Encoding(mime: record.mime) else { return false }
        return [false, true].allSatisfy {
            access(
                path(of: UploadedFiles.Name(sha256: record.sha256, thumbnail: $0, encoding: encoding)), F_OK)
                == 0
        }
    }

    /// Counts `files` against the person's allowance for the last minute, or throws 429.
    private func takeAllowance(userID: Int64, files: Int) throws {
        let now = clock()
        let wait: Int64? = recent.withLock { recent in
            if recent.count > 10_000 { recent = recent.filter { ($0.value.last ?? 0) > now - 60 } }
            var times = recent[userID, default: []].filter { $0 > now - 60 }
            defer { recent[userID] = times }
            let excess = times.count + files - settings.filesPerMinute
            guard excess <= 0 else {
                // Oldest first: the request fits once the `excess` oldest uploads are a minute old.
                return excess <= times.count ? max(1, times[excess - 1] + 60 - now) : 60
            }
            times += Array(repeating: now, count: files)
            return nil
        }
        if let wait {
            throw ServiceError.rateLimited(
                "You can upload \(settings.filesPerMinute) files a minute. "
                    + "Try again in \(wait) second\(wait == 1 ? "" : "s").",
                retryAfter: Int(wait))
        }
    }

    // MARK: Encoding

    /// A re-encoded picture and its thumbnail in temporary files beside their final place.
    struct Encoded: Sendable {
        var sha256: String
        var encoding: UploadedFiles.Encoding
        var format: ImageFormat
        var originalSize: Int
        var main: String
        var thumbnail: String
        var mainTemporary: String
        var thumbnailTemporary: String

        /// Moves both files into place (when another upload of the same content got there first, its files
        /// stay) and describes what is now stored.
        func install() throws -> FileStore.Record {
            for (temporary, final) in [(thumbnailTemporary, thumbnail), (mainTemporary, main)] {
                // link() never replaces a file: one already in place came complete from another upload of
                // the same content, and stays. Where hard links are not supported, rename() (atomic too).
                if link(temporary, final) != 0 && errno != EEXIST {
                    guard [EPERM, ENOTSUP, EOPNOTSUPP].contains(errno), rename(temporary, final) == 0 else {
                        throw UploadService.storageFailure
                    }
                }
                unlink(temporary)
            }
            var st = stat()
            guard stat(main, &st) == 0, let dimensions = ImageFormat.dimensions(ofFileAt: main) else {
                throw UploadService.storageFailure
            }
            let size = Int(st.st_size)
            return FileStore.Record(
                sha256: sha256, kind: "image", mime: encoding.mime, width: dimensions.width,
                height: dimensions.height, size: size, originalFormat: format.rawValue,
                originalSize: originalSize)
        }

        func discard() {
            unlink(mainTemporary)
            unlink(thumbnailTemporary)
        }
    }

    private func encode(_ part: Upload.File, format: ImageFormat, sha256: String, label: LocalizedText) throws
        -> Encoded
    {
        guard let ffmpeg = FFmpeg.installed else {
            throw ServiceError.unavailable("The server cannot process pictures now (ffmpeg is missing).")
        }
        let encoding: UploadedFiles.Encoding = format == .png || format == .gif ? .png : .jpeg
        let main = path(of: UploadedFiles.Name(sha256: sha256, thumbnail: false, encoding: encoding))
        let thumbnail = path(of: UploadedFiles.Name(sha256: sha256, thumbnail: true, encoding: encoding))
        let subfolder = (main as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: subfolder, withIntermediateDirectories: true)
        } catch {
            throw Self.storageFailure
        }
        let token = UUID().uuidString
        let encoded = Encoded(
            sha256: sha256, encoding: encoding, format: format, originalSize: part.size, main: main,
            thumbnail: thumbnail, mainTemporary: "\(subfolder)/.\(sha256).\(token).tmp",
            thumbnailTemporary: "\(subfolder)/.\(sha256).\(token).thumb.tmp")

        let codec =
            encoding == .jpeg
            ? ["-c:v", "mjpeg", "-q:v", "3", "-pix_fmt", "yuvj420p"] : ["-c:v", "png"]
        func box(_ side: Int) -> String {
            "scale=w='min(\(side),iw)':h='min(\(side),ih)':force_original_aspect_ratio=decrease"
        }
        func output(_ label: String, _ path: String) -> [String] {
            ["-map", label, "-frames:v", "1", "-map_metadata", "-1", "-map_chapters", "-1"]
                + ["-fflags", "+bitexact", "-flags:v", "+bitexact"] + codec + ["-f", "image2", path]
        }
        guard encodeSlots.wait(timeout: .now() + .seconds(settings.encodeWait)) == .success else {
            throw ServiceError.unavailable(
                "The server is busy with other pictures. Try again in a moment.", retryAfter: 5)
        }
        defer { encodeSlots.signal() }
        do {
            // One decode for both: the picture capped at maxSide, and the thumbnail made from it.
            let graph =
                "[0:v:0]\(box(settings.maxSide)),split=2[full][small];"
                + "[small]\(box(settings.thumbnailSide))[thumb]"
            try ffmpeg.run(
                ["-max_pixels", String(settings.maxPixels), "-f", format.demuxer, "-i", part.path]
                    + ["-filter_complex", graph]
                    + output("[full]", encoded.mainTemporary) + output("[thumb]", encoded.thumbnailTemporary),
                timeout: settings.encodeTimeout)
            try Self.flush(encoded.mainTemporary)
            try Self.flush(encoded.thumbnailTemporary)
        } catch {
            encoded.discard()
            if let error = error as? ServiceError { throw error }
            throw ServiceError.invalid(
                "\(label) could not be read as a picture. It may be damaged or too large; try another one.")
        }
        return encoded
    }

    /// Makes a written file durable before it is linked into place, so a crash cannot leave an empty one.
    private static func flush(_ path: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw storageFailure }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw storageFailure }
    }

    // MARK: Serving and housekeeping

    /// The stored file a name asks for and its type; 404 for a malformed name or one never recorded.
    func storedFile(named text: String) throws -> (path: String, mime: String) {
        guard let name = UploadedFiles.Name(text),
            let record = try database.read({ db in try store.file(db, sha256: name.sha256) }),
            record.mime == name.encoding.mime
        else { throw Self.noFile }
        return (path(of: name), record.mime)
    }

    static let noFile = ServiceError.notFound("That file does not exist.")

    /// The stored upload a `uri` from `POST v1/files/multi` names, when `userID` uploaded it (for a moment's
    /// pictures: only one's own uploads); nil for any other uri or someone else's file.
    func uploadedFile(uri: String, by userID: Int64) throws -> StoredFile? {
        guard let sha256 = UploadedFiles.sha256(fromURI: uri),
            let record = try database.read({ db in
                try store.hasUploaded(db, userID: userID, sha256: sha256)
                    ? try store.file(db, sha256: sha256) : nil
            })
        else { return nil }
        let model = try Self.model(record)
        return model.uri == uri ? model : nil
    }

    /// Deletes temporary files an interrupted upload left behind (older than an hour, so that another
    /// server on the same storage is not disturbed).
    func removeLeftovers() {
        let manager = FileManager.default
        guard let subfolders = try? manager.contentsOfDirectory(atPath: folder) else { return }
        let cutoff = Date().addingTimeInterval(-3600)
        for sub in subfolders where sub.count == 2 {
            let dir = folder + "/" + sub
            for name in (try? manager.contentsOfDirectory(atPath: dir)) ?? [] where name.hasSuffix(".tmp") {
                let path = dir + "/" + name
                if let modified = try? manager.attributesOfItem(atPath: path)[.modificationDate] as? Date,
                    modified < cutoff
                {
                    unlink(path)
                }
            }
        }
    }
}

extension Upload.File {
    /// Where the server stored the file for the length of the request.
    var path: String {
        if case .stored(let path, _) = content { return path }
        return ""
    }
}
