import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One audio file found on disk, with what a rescan compares and the sidecars beside it.
struct FoundFile: Sendable {
    var path: String
    var folderID: Int64
    var size: Int64
    var mtimeNanoseconds: Int64
    /// A `.lrc` or `.ksc` with the same base name, if any.
    var lyricPath: String?
    /// cover/folder/front image in the same directory, if any.
    var folderCover: String?
}

/// Walks music folders with readdir and lstat only, so an unchanged rescan costs a stat per file.
///
/// Hidden entries and symbolic links are skipped: links could leave the music folder or loop.
struct LibraryWalker {
    let audioExtensions: Set<String>
    static let coverNames = ["cover", "folder", "front", "album", "albumart", "albumartsmall"]
    static let imageExtensions: Set<String> = ["jpg", "jpeg", "png", "webp"]

    /// Calls `found` for each audio file under `root`; `unreadable` for directories it cannot open.
    func walk(
        root: String, folderID: Int64, found: (FoundFile) -> Void, unreadable: (String, String) -> Void
    ) {
        var pending = [root.hasSuffix("/") && root.count > 1 ? String(root.dropLast()) : root]
        var audio: [(name: String, base: Substring, size: Int64, mtime: Int64)] = []
        var lyrics: [Substring: String] = [:]
        while let directory = pending.popLast() {
            guard let dir = opendir(directory) else {
                unreadable(directory, "cannot open folder: \(String(cString: strerror(errno)))")
                continue
            }
            let descriptor = dirfd(dir)
            audio.removeAll(keepingCapacity: true)
            lyrics.removeAll(keepingCapacity: true)
            var cover: (rank: Int, name: String)?
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) {
                    String(cString: $0.baseAddress!.assumingMemoryBound(to: CChar.self))
                }
                if name.hasPrefix(".") { continue }
                var info = stat()
                guard fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
                let kind = info.st_mode & S_IFMT
                if kind == S_IFDIR {
                    pending.append(directory + "/" + name)
                    continue
                }
                guard kind == S_IFREG, let dot = name.lastIndex(of: ".") else { continue }
                let ext = name[name.index(after: dot)...].lowercased()
                let base = name[..<dot]
                if audioExtensions.contains(ext) {
                    let mtime = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
                    audio.append((name, base, Int64(info.st_size), mtime))
                } else if ext == "lrc" || ext == "ksc" {
                    // KSC wins when both exist: it carries word timings.
                    if lyrics[base] == nil || ext == "ksc" { lyrics[base] = name }
                } else if Self.imageExtensions.contains(ext),
                    let rank = Self.coverNames.firstIndex(of: base.lowercased()),
                    cover == nil || rank < cover!.rank
                {
                    cover = (rank, name)
                }
            }
            closedir(dir)
            let coverPath = cover.map { directory + "/" + $0.name }
            for file in audio {
                found(
                    FoundFile(
                        path: directory + "/" + file.name, folderID: folderID, size: file.size,
                        mtimeNanoseconds: file.mtime,
                        lyricPath: lyrics[file.base].map { directory + "/" + $0 },
                        folderCover: coverPath))
            }
        }
    }
}
