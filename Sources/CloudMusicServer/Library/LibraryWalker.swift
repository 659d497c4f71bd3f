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

/// Finds the audio files of a music folder, each with the lyrics and the folder cover beside it.
struct LibraryWalker {
    let audioExtensions: Set<String>
    static let coverNames = ["cover", "folder", "front", "album", "albumart", "albumartsmall"]
    static let imageExtensions: Set<String> = ["jpg", "jpeg", "png", "webp"]

    /// Calls `found` for each audio file under `root`; `unreadable` for folders it cannot open.
    func walk(
        root: String, folderID: Int64, found: (FoundFile) -> Void, unreadable: (String, String) -> Void
    ) {
        var audio: [(file: FolderWalk.File, base: Substring)] = []
        var lyrics: [Substring: String] = [:]
        FolderWalk.walk(root, unreadable: unreadable) { directory, files in
            audio.removeAll(keepingCapacity: true)
            lyrics.removeAll(keepingCapacity: true)
            var cover: (rank: Int, name: String)?
            for file in files {
                let name = file.name
                guard let dot = name.lastIndex(of: ".") else { continue }
                let ext = name[name.index(after: dot)...].lowercased()
                let base = name[..<dot]
                if audioExtensions.contains(ext) {
                    audio.append((file, base))
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
            let coverPath = cover.map { directory + "/" + $0.name }
            for (file, base) in audio {
                found(
                    FoundFile(
                        path: directory + "/" + file.name, folderID: folderID, size: file.size,
                        mtimeNanoseconds: file.mtimeNanoseconds,
                        lyricPath: lyrics[base].map { directory + "/" + $0 }, folderCover: coverPath))
            }
        }
    }
}
