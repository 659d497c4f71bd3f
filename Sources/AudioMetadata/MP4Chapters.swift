import Foundation

/// One chapter of an MP4 (m4b, m4a) file.
public struct MP4Chapter: Sendable, Equatable {
    /// Seconds from the start of the file's audio.
    public var start: Double
    public var title: String

    public init(start: Double, title: String) {
        self.start = start
        self.title = title
    }
}

/// Why an MP4 file's chapters could not be read.
public struct MP4ChaptersError: Error, Sendable, Equatable, CustomStringConvertible {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}

/// Reads the chapters of an MP4 file: Nero chapters (`moov/udta/chpl`), else a QuickTime chapter text track
/// (the track a `tref/chap` names). The file is hostile input: every size is checked against its parent box and
/// the file's length before anything is read, counts are bounded, and only `moov` (at most 64 MB) and the chapter
/// samples (each at most 64 KB) are read; anything that does not add up throws.
public enum MP4Chapters {
    /// The most chapters kept.
    public static let maxChapters = 10_000
    static let maxMoovBytes = 64 << 20
    static let maxSampleBytes = 1 << 16
    static let maxTitleBytes = 1_024

    /// Chapters of the file at `path`, in order of their start; empty when it has none.
    public static func read(path: String) throws(MP4ChaptersError) -> [MP4Chapter] {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw MP4ChaptersError("the file cannot be opened")
        }
        defer { try? handle.close() }
        guard let end = try? handle.seekToEnd() else { throw MP4ChaptersError("the file cannot be read") }
        return try read(FileSource(handle: handle, size: Int64(end)))
    }

    /// Chapters of an MP4 file held in memory.
    public static func read(data: Data) throws(MP4ChaptersError) -> [MP4Chapter] {
        try read(DataSource(data: data))
    }

    static func read(_ source: some ByteSource) throws(MP4ChaptersError) -> [MP4Chapter] {
        // The top level, box by box, without reading the media data.
        var offset: Int64 = 0
        var moov: Data?
        var boxes = 0
        while offset < source.size {
            boxes += 1
            guard boxes <= 10_000 else { throw MP4ChaptersError("too many boxes at the top level") }
            let header = try source.bytes(at: offset, count: min(16, Int(source.size - offset)))
            let box = try BoxHeader(header, available: source.size - offset)
            if box.type == "moov" {
                guard moov == nil else { throw MP4ChaptersError("the file has two moov boxes") }
                guard box.size - Int64(box.headerSize) <= Int64(maxMoovBytes) else {
                    throw MP4ChaptersError("the moov box is too large")
                }
                moov = try source.bytes(
                    at: offset + Int64(box.headerSize), count: Int(box.size) - box.headerSize)
            }
            offset += box.size
        }
        guard let moov else { throw MP4ChaptersError("the file has no moov box") }
        let movie = try Boxes(moov)
        if let udta = try movie.first("udta"), let chpl = try Boxes(udta).first("chpl") {
            let chapters = try nero(chpl)
            if !chapters.isEmpty { return chapters }
        }
        return try textTrack(movie, source: source)
    }

    // MARK: Nero chapters

    /// `chpl`: version, flags, (4 reserved bytes in version 1), a count, then per chapter a start in 100 ns
    /// units and a title of up to 255 bytes.
    static func nero(_ body: Data) throws(MP4ChaptersError) -> [MP4Chapter] {
        var reader = Reader(body)
        let version = try reader.u8()
        try reader.skip(3)
        if version >= 1 { try reader.skip(4) }
        let count = Int(try reader.u8())
        var chapters: [MP4Chapter] = []
        for _ in 0..<count {
            let start = try reader.u64()
            let length = Int(try reader.u8())
            let title = try reader.bytes(length)
            chapters.append(MP4Chapter(start: Double(start) / 10_000_000, title: text(title)))
        }
        return try ordered(chapters)
    }

    // MARK: QuickTime chapter track

    /// The text track a `tref/chap` names (else the first text track): each sample a chapter title, starting
    /// where the samples before it end.
    static func textTrack(_ movie: Boxes, source: some ByteSource) throws(MP4ChaptersError) -> [MP4Chapter] {
        var tracks: [(id: UInt32, handler: String, body: Data)] = []
        var named = Set<UInt32>()
        for trak in try movie.all("trak") {
            let boxes = try Boxes(trak)
            guard let tkhd = try boxes.first("tkhd") else { continue }
            var reader = Reader(tkhd)
            let version = try reader.u8()
            try reader.skip(3 + (version == 1 ? 16 : 8))
            let id = try reader.u32()
            if let tref = try boxes.first("tref"), let chap = try Boxes(tref).first("chap") {
                var ids = Reader(chap)
                while ids.remaining >= 4 { named.insert(try ids.u32()) }
            }
            var handler = ""
            if let mdia = try boxes.first("mdia"), let hdlr = try Boxes(mdia).first("hdlr") {
                var reader = Reader(hdlr)
                try reader.skip(8)
                handler = String(decoding: try reader.bytes(4), as: UTF8.self)
            }
            tracks.append((id, handler, trak))
        }
        let chosen =
            tracks.first { named.contains($0.id) && $0.handler != "soun" }
            ?? tracks.first { $0.handler == "text" || $0.handler == "sbtl" }
        guard let chosen else { return [] }
        guard let mdia = try Boxes(chosen.body).first("mdia") else { return [] }
        let media = try Boxes(mdia)
        guard let mdhd = try media.first("mdhd"), let minf = try media.first("minf"),
            let stbl = try Boxes(minf).first("stbl")
        else { return [] }
        var header = Reader(mdhd)
        let version = try header.u8()
        try header.skip(3 + (version == 1 ? 16 : 8))
        let timescale = try header.u32()
        guard timescale > 0 else { throw MP4ChaptersError("the chapter track's timescale is 0") }
        let table = try Boxes(stbl)
        guard let stts = try table.first("stts"), let stsz = try table.first("stsz"),
            let stsc = try table.first("stsc")
        else { return [] }
        let durations = try sampleDurations(stts)
        let sizes = try sampleSizes(stsz)
        let offsets = try sampleOffsets(
            stsc: stsc, chunks: try chunkOffsets(table), sizes: sizes)
        guard sizes.count <= durations.count + 1 else {
            throw MP4ChaptersError("the chapter track has more samples than durations")
        }
        var chapters: [MP4Chapter] = []
        var time: UInt64 = 0
        for index in sizes.indices {
            let size = sizes[index]
            guard size >= 2, size <= maxSampleBytes else {
                throw MP4ChaptersError("a chapter sample has an impossible size")
            }
            var sample = Reader(try source.bytes(at: offsets[index], count: size))
            let length = Int(try sample.u16())
            let title = try sample.bytes(min(length, sample.remaining))
            chapters.append(MP4Chapter(start: Double(time) / Double(timescale), title: text(title)))
            if index < durations.count {
                let (sum, overflow) = time.addingReportingOverflow(UInt64(durations[index]))
                guard !overflow else { throw MP4ChaptersError("the chapter times overflow") }
                time = sum
            }
        }
        return try ordered(chapters)
    }

    /// Each sample's duration, from the runs of `stts`.
    static func sampleDurations(_ body: Data) throws(MP4ChaptersError) -> [UInt32] {
        var reader = Reader(body)
        try reader.skip(4)
        let runs = try reader.u32()
        var durations: [UInt32] = []
        for _ in 0..<runs {
            let count = try reader.u32()
            let duration = try reader.u32()
            guard durations.count + Int(count) <= maxChapters else {
                throw MP4ChaptersError("the chapter track has too many samples")
            }
            durations.append(contentsOf: repeatElement(duration, count: Int(count)))
        }
        return durations
    }

    static func sampleSizes(_ body: Data) throws(MP4ChaptersError) -> [Int] {
        var reader = Reader(body)
        try reader.skip(4)
        let fixed = try reader.u32()
        let count = Int(try reader.u32())
        guard count <= maxChapters else { throw MP4ChaptersError("the chapter track has too many samples") }
        if fixed != 0 { return Array(repeating: Int(fixed), count: count) }
        var sizes: [Int] = []
        for _ in 0..<count { sizes.append(Int(try reader.u32())) }
        return sizes
    }

    static func chunkOffsets(_ table: Boxes) throws(MP4ChaptersError) -> [Int64] {
        let wide: Bool
        let body: Data
        if let stco = try table.first("stco") {
            (wide, body) = (false, stco)
        } else if let co64 = try table.first("co64") {
            (wide, body) = (true, co64)
        } else {
            throw MP4ChaptersError("the chapter track has no chunk offsets")
        }
        var reader = Reader(body)
        try reader.skip(4)
        let count = Int(try reader.u32())
        guard count <= maxChapters else { throw MP4ChaptersError("the chapter track has too many chunks") }
        var offsets: [Int64] = []
        for _ in 0..<count {
            let offset = wide ? try reader.u64() : UInt64(try reader.u32())
            guard offset <= UInt64(Int64.max) else { throw MP4ChaptersError("a chunk offset is impossible") }
            offsets.append(Int64(offset))
        }
        return offsets
    }

    /// Where each sample lies: `stsc` says how many samples each run of chunks holds; within a chunk the samples
    /// follow one another.
    static func sampleOffsets(stsc: Data, chunks: [Int64], sizes: [Int]) throws(MP4ChaptersError) -> [Int64] {
        var reader = Reader(stsc)
        try reader.skip(4)
        let count = Int(try reader.u32())
        guard count <= maxChapters else {
            throw MP4ChaptersError("the chapter track has too many chunk runs")
        }
        var runs: [(first: Int, perChunk: Int)] = []
        for _ in 0..<count {
            let first = Int(try reader.u32())
            let perChunk = Int(try reader.u32())
            try reader.skip(4)
            guard first >= 1, first <= chunks.count, perChunk <= maxChapters,
                runs.last.map({ first > $0.first }) ?? true
            else { throw MP4ChaptersError("the chapter track's chunk table is inconsistent") }
            runs.append((first, perChunk))
        }
        var offsets: [Int64] = []
        var sample = 0
        runs: for (index, run) in runs.enumerated() {
            let lastChunk = index + 1 < runs.count ? runs[index + 1].first - 1 : chunks.count
            for chunk in run.first...lastChunk {
                var offset = chunks[chunk - 1]
                for _ in 0..<run.perChunk {
                    guard sample < sizes.count else { break runs }
                    offsets.append(offset)
                    let (next, overflow) = offset.addingReportingOverflow(Int64(sizes[sample]))
                    guard !overflow else { throw MP4ChaptersError("a chunk offset is impossible") }
                    offset = next
                    sample += 1
                }
            }
        }
        guard offsets.count == sizes.count else {
            throw MP4ChaptersError("the chapter track's samples are not all in its chunks")
        }
        return offsets
    }

    // MARK: Helpers

    /// Chapters in order of their start; starts must be finite and not negative.
    static func ordered(_ chapters: [MP4Chapter]) throws(MP4ChaptersError) -> [MP4Chapter] {
        guard chapters.count <= maxChapters else { throw MP4ChaptersError("the file has too many chapters") }
        for chapter in chapters where !chapter.start.isFinite || chapter.start < 0 {
            throw MP4ChaptersError("a chapter starts at an impossible time")
        }
        return chapters.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }
            .map(\.element)
    }

    /// A title as text: UTF-16 with a byte-order mark, else UTF-8 (invalid bytes replaced), control characters
    /// dropped, at most `maxTitleBytes`.
    static func text(_ bytes: Data) -> String {
        var title: String
        if bytes.count >= 2, bytes.first == 0xFE || bytes.first == 0xFF,
            let decoded = String(data: bytes, encoding: .utf16)
        {
            title = decoded
        } else {
            title = String(decoding: bytes, as: UTF8.self)
        }
        title = String(
            title.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.map(Character.init))
        title = title.trimmingCharacters(in: .whitespaces)
        while title.utf8.count > maxTitleBytes { title.removeLast() }
        return title
    }
}

/// A box's header: its size (the whole box, header included) and type.
struct BoxHeader {
    var size: Int64
    var type: String
    var headerSize: Int

    /// Reads a header from `bytes`; the box must fit in `available` bytes.
    init(_ bytes: Data, available: Int64) throws(MP4ChaptersError) {
        var reader = Reader(bytes)
        let small = try reader.u32()
        let typeBytes = try reader.bytes(4)
        type = String(decoding: typeBytes, as: UTF8.self)
        switch small {
        case 0:
            size = available
            headerSize = 8
        case 1:
            let large = try reader.u64()
            guard large <= UInt64(Int64.max) else { throw MP4ChaptersError("a box's size is impossible") }
            size = Int64(large)
            headerSize = 16
        default:
            size = Int64(small)
            headerSize = 8
        }
        guard size >= Int64(headerSize), size <= available else {
            throw MP4ChaptersError(
                "a box's size does not fit in what holds it (the file is truncated or damaged)")
        }
    }
}

/// The child boxes of a box's body.
struct Boxes {
    var children: [(type: String, body: Data)] = []

    init(_ body: Data) throws(MP4ChaptersError) {
        var offset = 0
        while body.count - offset >= 8 {
            guard children.count < 100_000 else { throw MP4ChaptersError("a box has too many children") }
            let start = body.startIndex + offset
            let header = try BoxHeader(
                body[start..<(start + min(16, body.count - offset))], available: Int64(body.count - offset))
            let from = start + header.headerSize
            let to = start + Int(header.size)
            children.append((header.type, Data(body[from..<to])))
            offset += Int(header.size)
        }
        // QuickTime may end a list of boxes with four zero bytes; anything else left over is damage.
        guard body[(body.startIndex + offset)...].allSatisfy({ $0 == 0 }) else {
            throw MP4ChaptersError("a box ends inside another box's header")
        }
    }

    func first(_ type: String) throws(MP4ChaptersError) -> Data? { children.first { $0.type == type }?.body }
    func all(_ type: String) throws(MP4ChaptersError) -> [Data] {
        children.filter { $0.type == type }.map(\.body)
    }
}

/// Big-endian reads that throw instead of reading past the end.
struct Reader {
    let data: Data
    var offset = 0

    init(_ data: Data) { self.data = data }

    var remaining: Int { data.count - offset }

    mutating func bytes(_ count: Int) throws(MP4ChaptersError) -> Data {
        guard count >= 0, count <= remaining else { throw MP4ChaptersError("a box ends too soon") }
        let start = data.startIndex + offset
        offset += count
        return Data(data[start..<(start + count)])
    }

    mutating func skip(_ count: Int) throws(MP4ChaptersError) { _ = try bytes(count) }

    mutating func u8() throws(MP4ChaptersError) -> UInt8 { try bytes(1).first! }

    mutating func u16() throws(MP4ChaptersError) -> UInt16 {
        try bytes(2).reduce(0) { $0 << 8 | UInt16($1) }
    }

    mutating func u32() throws(MP4ChaptersError) -> UInt32 {
        try bytes(4).reduce(0) { $0 << 8 | UInt32($1) }
    }

    mutating func u64() throws(MP4ChaptersError) -> UInt64 {
        try bytes(8).reduce(0) { $0 << 8 | UInt64($1) }
    }
}

/// Where the file's bytes come from: a file (read at offsets), or memory.
protocol ByteSource {
    var size: Int64 { get }
    /// Exactly `count` bytes at `offset`; throws when they are not all there.
    func bytes(at offset: Int64, count: Int) throws(MP4ChaptersError) -> Data
}

struct FileSource: ByteSource {
    let handle: FileHandle
    let size: Int64

    func bytes(at offset: Int64, count: Int) throws(MP4ChaptersError) -> Data {
        guard offset >= 0, count >= 0, offset <= size, Int64(count) <= size - offset else {
            throw MP4ChaptersError("the file ends before the data a box points at")
        }
        do {
            try handle.seek(toOffset: UInt64(offset))
            let data = try handle.read(upToCount: count) ?? Data()
            guard data.count == count else { throw MP4ChaptersError("the file ends too soon") }
            return data
        } catch let error as MP4ChaptersError {
            throw error
        } catch {
            throw MP4ChaptersError("the file cannot be read")
        }
    }
}

struct DataSource: ByteSource {
    let data: Data
    var size: Int64 { Int64(data.count) }

    func bytes(at offset: Int64, count: Int) throws(MP4ChaptersError) -> Data {
        guard offset >= 0, count >= 0, offset <= size, Int64(count) <= size - offset else {
            throw MP4ChaptersError("the file ends before the data a box points at")
        }
        let start = data.startIndex + Int(offset)
        return Data(data[start..<(start + count)])
    }
}
