import Foundation
import MusicCore
import Storage

/// The rules of ads: who sees which (only those inside their time window), how administrators make,
/// change, order and delete them, and the checks on their times, positions, styles and files.
///
/// What shows now is cached per position and page until an ad of the position starts or stops, at most a
/// minute, and forgotten at every change an administrator makes.
final class AdService: Sendable {
    let database: Database
    let store = AdStore()
    let media: AdMedia
    let clock: @Sendable () -> Int64
    /// Called after every change, so what shows ads (the home banner) can forget its copy.
    let changed: @Sendable () -> Void
    private let showing = ExpiringCache<ShowingKey, PreparedAnswer<Page<Ad>>>(capacity: 1_000)

    private struct ShowingKey: Hashable, Sendable {
        var position: Int?
        var page: Int
        var size: Int
    }

    init(
        database: Database, folder: String,
        clock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) },
        changed: @escaping @Sendable () -> Void = {}
    ) {
        self.database = database
        media = AdMedia(folder: folder)
        self.clock = clock
        self.changed = changed
    }

    static let noAd = ServiceError.notFound("That ad does not exist.")

    // MARK: Showing

    /// The ads showing now at `position` (every position when nil), ready to send.
    func showing(position: Int?, paging: Paging) throws -> PreparedAnswer<Page<Ad>> {
        if let position { try Self.check(position: position) }
        let key = ShowingKey(position: position, page: paging.page, size: paging.size)
        return try showing.value(key, serveStale: false) { [self] in
            let now = clock()
            let (page, next) = try database.read { db in
                let (records, total) = try store.ads(db, position: position, showingAt: now, paging: paging)
                return (
                    Page(
                        items: records.map { $0.model() }, total: total, page: paging.page, size: paging.size),
                    try store.nextChange(db, position: position, after: now)
                )
            }
            let answer = try PreparedAnswer(page)
            return (answer, expires: Double(min(next ?? now + 60, now + 60)))
        }
    }

    /// An ad's picture (a video's first frame) or video: its path and type.
    func file(adID: Int64, video: Bool) throws -> (path: String, type: String) {
        guard let record = try database.read({ db in try store.ad(db, id: adID) }) else { throw Self.noAd }
        if video {
            guard record.posterFile != nil else {
                throw ServiceError.notFound("That ad has no video: it shows a picture (its `icon`).")
            }
            return (media.path(record.mediaFile), record.mediaType)
        }
        return (media.path(record.pictureFile), record.posterFile == nil ? record.mediaType : "image/jpeg")
    }

    // MARK: Administration

    func adminList(position: Int?, paging: Paging) throws -> Page<Ad> {
        if let position { try Self.check(position: position) }
        return try database.read { db in
            let (records, total) = try store.ads(db, position: position, showingAt: nil, paging: paging)
            return Page(items: records.map { $0.model() }, total: total, page: paging.page, size: paging.size)
        }
    }

    /// Adds an ad; `createdBy` is the administrator (nil for the server's own demo ads).
    func create(_ form: AdForm, files: [Upload.File], createdBy: Int64?) throws -> Ad {
        let title = try Self.title(form.title)
        guard let position = form.position else { throw ServiceError.invalid("Give 'position'.") }
        try Self.check(position: position)
        let style = try Self.style(form.style)
        let link = try Self.link(form.link)
        let startsAt = try form.startsAt.map { try Self.moment($0, field: "startsAt") }
        let endsAt = try form.endsAt.map { try Self.moment($0, field: "endsAt") }
        try Self.checkWindow(startsAt: startsAt, endsAt: endsAt)
        if style == .app && link == nil {
            throw ServiceError.invalid("An app-link ad needs a 'link': the app link or address it opens.")
        }
        let stored = try media.store(files)
        try Self.checkStyle(style, isVideo: stored.isVideo) { forget(stored) }
        var record = AdStore.Record(
            title: title, position: position, style: style.rawValue, link: link, mediaFile: "", mediaType: "",
            width: 0, height: 0, size: 0, startsAt: startsAt, endsAt: endsAt, sort: 0)
        record.apply(stored)
        let ad: Ad
        do {
            ad = try database.write { db -> Ad in
                record.sort = try form.sort ?? store.nextSort(db, position: position)
                let id = try store.insert(db, record, createdBy: createdBy, now: clock())
                guard let saved = try store.ad(db, id: id) else { throw Self.noAd }
                return saved.model()
            }
        } catch {
            forget(stored)
            throw error
        }
        forgetShowing()
        return ad
    }

    /// Deletes the files of `stored` unless an ad uses them (a failed change leaves nothing behind).
    private func forget(_ stored: AdMedia.Stored) {
        let names = [stored.mediaFile, stored.posterFile ?? ""]
        if let unused = try? database.read({ db in try store.unusedFiles(db, names) }) {
            media.remove(unused)
        }
    }

    func update(id: Int64, _ change: AdChange) throws -> Ad {
        let title = try change.title.map(Self.title)
        if let position = change.position { try Self.check(position: position) }
        let style = try change.style.map(Self.style)
        let link = try change.link.map { try Self.link($0) }
        let startsAt = try change.startsAt.map { try $0.map { try Self.moment($0, field: "startsAt") } }
        let endsAt = try change.endsAt.map { try $0.map { try Self.moment($0, field: "endsAt") } }
        let ad = try database.write { db -> Ad in
            guard var record = try store.ad(db, id: id) else { throw Self.noAd }
            if let title { record.title = title }
            if let position = change.position, position != record.position {
                record.position = position
                if change.sort == nil { record.sort = try store.nextSort(db, position: position) }
            }
            if let style {
                try Self.checkStyle(style, isVideo: record.posterFile != nil)
                record.style = style.rawValue
            }
            if let link { record.link = link }
            if let startsAt { record.startsAt = startsAt }
            if let endsAt { record.endsAt = endsAt }
            if let sort = change.sort { record.sort = sort }
            try Self.checkWindow(startsAt: record.startsAt, endsAt: record.endsAt)
            if record.style == AdStyle.app.rawValue && record.link == nil {
                throw ServiceError.invalid("An app-link ad needs a 'link': the app link or address it opens.")
            }
            try store.update(db, record, now: clock())
            return record.model()
        }
        forgetShowing()
        return ad
    }

    /// Replaces an ad's file: a video makes it a video ad, a picture an image ad (an app-link ad stays one).
    func replaceMedia(id: Int64, files: [Upload.File]) throws -> Ad {
        guard try database.read({ db in try store.ad(db, id: id) }) != nil else { throw Self.noAd }
        let stored = try media.store(files)
        let (ad, unused): (Ad, [String])
        do {
            (ad, unused) = try database.write { db -> (Ad, [String]) in
                guard var record = try store.ad(db, id: id) else { throw Self.noAd }
                let old = [record.mediaFile, record.posterFile ?? ""]
                record.apply(stored)
                if stored.isVideo {
                    record.style = AdStyle.video.rawValue
                } else if record.style == AdStyle.video.rawValue {
                    record.style = AdStyle.image.rawValue
                }
                try store.update(db, record, now: clock())
                return (record.model(), try store.unusedFiles(db, old))
            }
        } catch {
            forget(stored)
            throw error
        }
        media.remove(unused)
        forgetShowing()
        return ad
    }

    func delete(id: Int64) throws {
        let unused = try database.write { db -> [String] in
            guard let record = try store.ad(db, id: id) else { throw Self.noAd }
            try store.delete(db, id: id)
            return try store.unusedFiles(db, [record.mediaFile, record.posterFile ?? ""])
        }
        media.remove(unused)
        forgetShowing()
    }

    /// Puts `ids` first, in that order, and the position's other ads after them as they were.
    func reorder(_ order: AdOrder) throws -> [Ad] {
        try Self.check(position: order.position)
        var wanted: [Int64] = []
        for id in order.adIds.map(\.rawValue) {
            guard !wanted.contains(id) else {
                throw ServiceError.invalid("Ad \(id) is listed twice in 'adIds'.")
            }
            wanted.append(id)
        }
        let ads = try database.write { db -> [Ad] in
            let current = try store.ads(db, position: order.position)
            let known = Set(current.map(\.id))
            if let stranger = wanted.first(where: { !known.contains($0) }) {
                throw ServiceError.invalid("Ad \(stranger) is not one of position \(order.position)'s ads.")
            }
            let rest = current.map(\.id).filter { !wanted.contains($0) }
            let now = clock()
            for (sort, id) in (wanted + rest).enumerated() {
                try store.setSort(db, id: id, sort: sort, now: now)
            }
            return try store.ads(db, position: order.position).map { $0.model() }
        }
        forgetShowing()
        return ads
    }

    /// Adds an ad from files on the server's own disk (the demo's pictures), as an administrator would.
    func createFromFile(_ form: AdForm, path: String) throws -> Ad {
        var size = stat()
        guard stat(path, &size) == 0 else { throw ServiceError.notFound("\(path) does not exist.") }
        let file = Upload.File(
            fileName: (path as NSString).lastPathComponent, contentType: nil,
            content: .stored(path: path, size: Int(size.st_size)))
        return try create(form, files: [file], createdBy: nil)
    }

    private func forgetShowing() {
        showing.invalidateAll()
        changed()
    }

    // MARK: Checks

    static func check(position: Int) throws {
        guard AdPosition(rawValue: position) != nil else {
            throw ServiceError.invalid("'position' must be \(AdPosition.choices), not \(position).")
        }
    }

    static func style(_ value: Int) throws -> AdStyle {
        guard let style = AdStyle(rawValue: value) else {
            throw ServiceError.invalid("'style' must be \(AdStyle.choices), not \(value).")
        }
        return style
    }

    /// A video ad needs a video, and the other styles a picture; `refused` runs before the refusal.
    static func checkStyle(_ style: AdStyle, isVideo: Bool, refused: () -> Void = {}) throws {
        if style == .video && !isVideo {
            refused()
            throw ServiceError.invalid("A video ad (style 10) needs a video file; this one is a picture.")
        }
        if style != .video && isVideo {
            refused()
            throw ServiceError.invalid(
                "The file is a video, so the ad's style must be 10 (video), not \(style.rawValue).")
        }
    }

    static func title(_ text: String) throws -> String {
        guard let title = try AdChange.titleText.check(text) else {
            throw ServiceError.invalid("Give the ad a title.")
        }
        return title
    }

    /// An http(s) address or an app link (`scheme://...`); empty is none. `field` names it in messages.
    static func link(_ text: String?, field: String = "link") throws -> String? {
        guard let text = text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else {
            return nil
        }
        guard text.count <= 2_000, let colon = text.firstIndex(of: ":"),
            text[text.index(after: colon)...].hasPrefix("//")
        else {
            throw ServiceError.invalid(
                "'\(field)' must be an address such as https://example.com/page or an app link such as cloudmusic://sheet/5."
            )
        }
        let scheme = text[..<colon].lowercased()
        guard let first = scheme.first, first.isLetter,
            scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }),
            !["javascript", "data", "file", "vbscript"].contains(scheme),
            !text.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 })
        else {
            throw ServiceError.invalid(
                "'\(field)' must be an address such as https://example.com/page or an app link such as cloudmusic://sheet/5."
            )
        }
        return text
    }

    /// Unix seconds of an ISO 8601 moment.
    static func moment(_ text: String, field: String) throws -> Int64 {
        guard let seconds = APIDate.parse(text) else {
            throw ServiceError.invalid(
                "'\(field)' must be a date and time such as 2025-05-01T08:00:00Z or 2025-05-01T16:00:00+08:00."
            )
        }
        return seconds
    }

    static func checkWindow(startsAt: Int64?, endsAt: Int64?) throws {
        if let startsAt, let endsAt, endsAt <= startsAt {
            throw ServiceError.invalid(
                "The ad would end (\(APIDate.string(endsAt))) before it starts (\(APIDate.string(startsAt))). "
                    + "Choose an end after the start.")
        }
    }
}

extension AdStore.Record {
    /// Takes the stored file's description.
    mutating func apply(_ stored: AdMedia.Stored) {
        mediaFile = stored.mediaFile
        mediaType = stored.mediaType
        posterFile = stored.posterFile
        width = stored.width
        height = stored.height
        durationMilliseconds = stored.durationMilliseconds
        size = stored.size
        codecs = stored.codecs
    }
}

extension APIDate {
    /// Unix seconds of an ISO 8601 date and time: `yyyy-MM-ddTHH:mm[:ss[.fff]]` with `Z` or `±HH:MM`
    /// (`±HHMM`); a date alone (`yyyy-MM-dd`) is its midnight in UTC. Nil for anything else.
    static func parse(_ text: String) -> Int64? {
        let b = Array(text.trimmingCharacters(in: .whitespaces).utf8)
        func number(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= b.count else { return nil }
            var value = 0
            for i in start..<(start + count) {
                guard (0x30...0x39).contains(b[i]) else { return nil }
                value = value * 10 + Int(b[i] - 0x30)
            }
            return value
        }
        guard b.count >= 10, let year = number(0, 4), b[4] == 0x2D, let month = number(5, 2), b[7] == 0x2D,
            let day = number(8, 2), (1...12).contains(month), (1...31).contains(day), year >= 1970
        else { return nil }
        var hour = 0
        var minute = 0
        var second = 0
        var offset = 0
        if b.count > 10 {
            guard b[10] == 0x54 || b[10] == 0x74 || b[10] == 0x20, let h = number(11, 2), b.count > 13,
                b[13] == 0x3A,
                let m = number(14, 2), h < 24, m < 60
            else { return nil }
            hour = h
            minute = m
            var i = 16
            if i < b.count, b[i] == 0x3A {
                guard let s = number(i + 1, 2), s < 61 else { return nil }
                second = min(s, 59)
                i += 3
                if i < b.count, b[i] == 0x2E {
                    i += 1
                    let start = i
                    while i < b.count, (0x30...0x39).contains(b[i]) { i += 1 }
                    guard i > start else { return nil }
                }
            }
            guard i < b.count else { return nil }
            switch b[i] {
            case 0x5A, 0x7A:
                guard i + 1 == b.count else { return nil }
            case 0x2B, 0x2D:
                let sign = b[i] == 0x2B ? 1 : -1
                guard let oh = number(i + 1, 2), oh <= 14 else { return nil }
                var om = 0
                if i + 3 < b.count {
                    let colon = b[i + 3] == 0x3A
                    guard let value = number(i + (colon ? 4 : 3), 2), value < 60,
                        i + (colon ? 6 : 5) == b.count
                    else { return nil }
                    om = value
                } else {
                    guard i + 3 == b.count else { return nil }
                }
                offset = sign * (oh * 3600 + om * 60)
            default:
                return nil
            }
        }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        let seconds = Int64(timegm(&parts))
        // timegm normalises impossible dates (February 30th): refuse them.
        var check = time_t(seconds)
        var back = tm()
        gmtime_r(&check, &back)
        guard back.tm_mday == Int32(day), back.tm_mon == Int32(month - 1) else { return nil }
        return seconds - Int64(offset)
    }
}
