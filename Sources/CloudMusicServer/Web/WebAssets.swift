import Cryptography
import Foundation
import HTTPServer

/// The web player's files, read once at start-up from the `Web` folder, hashed and compressed in memory.
///
/// Every file is also served under `/assets/<build>/<path>`, where `build` is a hash of the whole folder, so
/// those addresses can be cached for a year: a changed file changes the build, and index.html (rewritten
/// here to point at them) is revalidated on every load. Relative imports between modules stay inside one
/// build's prefix, which is why the hash is the folder's and not each file's.
final class WebAssets: Sendable {
    /// One file as it is sent: its type, bytes, gzip copy (when smaller) and validator.
    struct Asset: Sendable {
        let contentType: String
        let body: Data
        let gzipped: Data?
        /// A strong validator from the content, quoted; the gzip copy's ends in `-gz`.
        let etag: String
        /// The service worker, which gets the documents' security headers.
        var isWorker = false
    }

    /// The folder the files came from, or nil when none was found.
    let folder: String?
    /// A hash of every file's path and content, 12 hex digits.
    let build: String
    /// Files by their path inside the folder (`js/main.js`); `index.html` and `sw.js` as rewritten.
    let files: [String: Asset]

    /// The largest file read into memory; larger ones are left out with a warning.
    static let maxFileBytes = 8 << 20

    init(folder: String?, logger: Logger) {
        self.folder = folder
        guard let folder else {
            logger.warning(
                "event=web_missing note=\"The web player's files were not found; start with --web DIR to serve them.\""
            )
            build = "none"
            files = ["index.html": Self.asset(Data(Self.missingPage.utf8), path: "index.html")]
            return
        }
        var raw: [String: Data] = [:]
        for path in Self.walk(folder) {
            guard let data = FileManager.default.contents(atPath: folder + "/" + path) else { continue }
            guard data.count <= Self.maxFileBytes else {
                logger.warning("event=web_file_skipped path=\(path) bytes=\(data.count)")
                continue
            }
            raw[path] = data
        }
        let hasher = Crypto.Hasher(length: 16)
        for path in raw.keys.sorted() {
            hasher.update(Data(path.utf8))
            hasher.update(UInt8(0))
            hasher.update(raw[path]!)
        }
        let build = String(hasher.finalizeHex().prefix(12))
        self.build = build
        let prefix = "/assets/\(build)/"
        let shell = raw.keys.filter { $0 != "index.html" && $0 != "sw.js" }.sorted()
        if let html = raw["index.html"] {
            // Point every reference to one of our files at its hashed address.
            var text = String(decoding: html, as: UTF8.self)
            for path in shell.sorted(by: { $0.count > $1.count }) {
                text = text.replacingOccurrences(of: "\"/\(path)\"", with: "\"\(prefix)\(path)\"")
            }
            raw["index.html"] = Data(text.utf8)
        } else {
            raw["index.html"] = Data(Self.missingPage.utf8)
        }
        if let worker = raw["sw.js"] {
            // The service worker learns the build and the app shell: the files index.html names (its first
            // render), which it keeps at install; the rest it keeps when they are first used, so a phone does
            // not download every screen at once. New bytes also make the browser install the new worker.
            // The whole app is kept once the person downloads a song to play offline.
            let index = String(decoding: raw["index.html"] ?? Data(), as: UTF8.self)
            let list = shell.filter { index.contains("\"\(prefix)\($0)\"") }.map { "\"\(prefix)\($0)\"" }
                .joined(separator: ",")
            let all = shell.map { "\"\(prefix)\($0)\"" }.joined(separator: ",")
            let header =
                "self.CLOUDMUSIC_BUILD = \"\(build)\";\nself.CLOUDMUSIC_FILES = [\(list)];\n"
                + "self.CLOUDMUSIC_APP = [\(all)];\n"
            raw["sw.js"] = Data(header.utf8) + worker
        }
        var files: [String: Asset] = [:]
        for (path, data) in raw { files[path] = Self.asset(data, path: path) }
        files["sw.js"]?.isWorker = true
        self.files = files
        let total = files.values.reduce(0) { $0 + $1.body.count }
        let compressed = files.values.reduce(0) { $0 + ($1.gzipped?.count ?? $1.body.count) }
        logger.info(
            "event=web_loaded folder=\(folder) files=\(files.count) bytes=\(total) gzip_bytes=\(compressed) build=\(build)"
        )
    }

    var index: Asset { files["index.html"]! }

    /// Finds the Web folder: the one given (`--web`, `CLOUDMUSIC_WEB`), else a `Web` folder with an index.html
    /// beside an ancestor of the executable (`.build/release/..` is the repository), else in the current folder.
    static func locate(_ explicit: String?) -> String? {
        if let explicit { return explicit }
        var candidates: [String] = []
        if let executable = executablePath() {
            var url = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
            for _ in 0..<6 {
                candidates.append(url.appendingPathComponent("Web").path)
                url.deleteLastPathComponent()
            }
        }
        candidates.append(FileManager.default.currentDirectoryPath + "/Web")
        return candidates.first { FileManager.default.fileExists(atPath: $0 + "/index.html") }
    }

    private static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if n > 0 { return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        return Bundle.main.executablePath
    }

    /// Regular files under `folder`, as relative paths; hidden files and symbolic links are left out, so
    /// nothing outside the folder is ever read.
    private static func walk(_ folder: String) -> [String] {
        var found: [String] = []
        func visit(_ relative: String) {
            let absolute = relative.isEmpty ? folder : folder + "/" + relative
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: absolute) else { return }
            for name in names.sorted() where !name.hasPrefix(".") {
                let path = relative.isEmpty ? name : relative + "/" + name
                var info = stat()
                guard lstat(folder + "/" + path, &info) == 0 else { continue }
                switch info.st_mode & S_IFMT {
                case S_IFDIR: visit(path)
                case S_IFREG: found.append(path)
                default: continue
                }
            }
        }
        visit("")
        return found
    }

    private static func asset(_ data: Data, path: String) -> Asset {
        let type = contentType(forPath: path)
        let hasher = Crypto.Hasher(length: 12)
        hasher.update(data)
        let tag = hasher.finalizeHex()
        var gzipped: Data?
        if isCompressible(type), data.count > 256, let packed = Gzip.compress(data), packed.count < data.count
        {
            gzipped = packed
        }
        return Asset(contentType: type, body: data, gzipped: gzipped, etag: "\"\(tag)\"")
    }

    static func contentType(forPath path: String) -> String {
        let ext = path.split(separator: ".").last.map { $0.lowercased() } ?? ""
        switch ext {
        case "html": return "text/html; charset=utf-8"
        case "js", "mjs": return "text/javascript; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "json": return "application/json; charset=utf-8"
        case "webmanifest": return "application/manifest+json; charset=utf-8"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "webp": return "image/webp"
        case "ico": return "image/x-icon"
        case "woff2": return "font/woff2"
        case "txt", "md": return "text/plain; charset=utf-8"
        default: return "application/octet-stream"
        }
    }

    private static func isCompressible(_ type: String) -> Bool {
        type.hasPrefix("text/") || type.hasPrefix("application/json")
            || type.hasPrefix("application/manifest")
            || type.hasPrefix("image/svg")
    }

    private static let missingPage = """
        <!doctype html><html lang="en"><meta charset="utf-8"><title>CloudMusic</title>
        <p>CloudMusic is running, but the web player's files were not found. Start the server with
        <code>--web DIR</code> (or <code>CLOUDMUSIC_WEB</code>) pointing at the repository's <code>Web</code> folder.
        The API is at <a href="/v1/server">/v1/server</a>.</p>
        """
}
