import Foundation
import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Watches the music folders with inotify and starts a rescan once changes have settled.
final class LibraryWatcher: @unchecked Sendable {
    private let descriptor: Int32
    private let folders: [String]
    private let settleSeconds: Double
    private let logger: Logger
    private let onSettled: @Sendable () -> Void
    /// Watch descriptors to folder paths; touched only by the watcher's thread after start.
    private var watched: [Int32: String] = [:]
    private let mask = UInt32(
        IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_CLOSE_WRITE | IN_DELETE_SELF)
    /// How many events the watcher has read, and whether a rescan is due, so that one can tell an event was
    /// seen and ignored without waiting out the settle time.
    private let progress = Mutex((events: 0, rescanDue: false))

    var eventsRead: Int { progress.withLock { $0.events } }
    var rescanDue: Bool { progress.withLock { $0.rescanDue } }

    init?(
        folders: [String], settleSeconds: Double = 5, logger: Logger,
        onSettled: @escaping @Sendable () -> Void
    ) {
        descriptor = inotify_init1(Int32(IN_CLOEXEC))
        guard descriptor >= 0 else {
            logger.warning(
                "cannot watch the music folders (inotify: \(String(cString: strerror(errno)))); rescan by hand"
            )
            return nil
        }
        self.folders = folders
        self.settleSeconds = settleSeconds
        self.logger = logger
        self.onSettled = onSettled
    }

    func start() {
        for folder in folders { addTree(folder) }
        let thread = Thread { [self] in run() }
        thread.name = "library-watch"
        thread.start()
    }

    private func addTree(_ root: String) {
        var pending = [root]
        while let folder = pending.popLast() {
            let wd = inotify_add_watch(descriptor, folder, mask)
            if wd < 0 {
                logger.warning(
                    "cannot watch \(folder): \(String(cString: strerror(errno))) (raise fs.inotify.max_user_watches)"
                )
                return
            }
            watched[wd] = folder
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
            for name in names where !name.hasPrefix(".") {
                var info = stat()
                let path = folder + "/" + name
                if lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR { pending.append(path) }
            }
        }
    }

    private func run() {
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        var dirtySince: Date?
        while true {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let timeout: Int32 = dirtySince == nil ? -1 : 500
            let ready = poll(&poller, 1, timeout)
            if ready > 0 {
                let count = read(descriptor, &buffer, buffer.count)
                guard count > 0 else { continue }
                var offset = 0
                while offset + MemoryLayout<inotify_event>.size <= count {
                    let (wd, eventMask, nameLength, name) = buffer.withUnsafeBytes {
                        raw -> (Int32, UInt32, Int, String) in
                        let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                        let nameStart = offset + MemoryLayout<inotify_event>.size
                        let nameBytes = raw[nameStart..<min(nameStart + Int(event.len), raw.count)]
                        let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                        return (event.wd, event.mask, Int(event.len), name)
                    }
                    offset += MemoryLayout<inotify_event>.size + nameLength
                    if !name.hasPrefix(".") || eventMask & UInt32(IN_DELETE_SELF) != 0 { dirtySince = Date() }
                    if eventMask & UInt32(IN_ISDIR) != 0, eventMask & UInt32(IN_CREATE | IN_MOVED_TO) != 0,
                        let parent = watched[wd]
                    {
                        addTree(parent + "/" + name)
                    }
                    if eventMask & UInt32(IN_IGNORED) != 0 { watched[wd] = nil }
                    progress.withLock {
                        $0.events += 1
                        $0.rescanDue = dirtySince != nil
                    }
                }
            } else if let since = dirtySince, Date().timeIntervalSince(since) >= settleSeconds {
                dirtySince = nil
                progress.withLock { $0.rescanDue = false }
                logger.info("music folders changed; starting a rescan")
                onSettled()
            }
        }
    }
}
