import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Walks the folders the server scans (music, videos) with readdir and lstat only, so that an unchanged
/// rescan costs a stat per file.
///
/// Hidden entries and symbolic links are skipped: links could leave the folder or loop.
enum FolderWalk {
    /// A regular file, with what a rescan compares.
    struct File {
        var name: String
        var size: Int64
        var mtimeNanoseconds: Int64
    }

    /// Calls `folder` with each folder under `root` (`root` included, without a trailing "/") and its regular
    /// files, a folder's files together so that what sits beside a file (lyrics, a cover) can be found;
    /// `unreadable` with a folder that cannot be opened and why.
    static func walk(
        _ root: String, unreadable: (_ path: String, _ reason: String) -> Void,
        folder: (_ path: String, _ files: [File]) -> Void
    ) {
        var pending = [root.hasSuffix("/") && root.count > 1 ? String(root.dropLast()) : root]
        var files: [File] = []
        while let directory = pending.popLast() {
            guard let dir = opendir(directory) else {
                unreadable(directory, "cannot open folder: \(String(cString: strerror(errno)))")
                continue
            }
            let descriptor = dirfd(dir)
            files.removeAll(keepingCapacity: true)
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
                } else if kind == S_IFREG {
                    let mtime = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
                    files.append(File(name: name, size: Int64(info.st_size), mtimeNanoseconds: mtime))
                }
            }
            closedir(dir)
            folder(directory, files)
        }
    }
}
