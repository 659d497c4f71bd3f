/// One download as the downloads screen shows it.
public struct DownloadRow: Sendable, Equatable {
    public var title: String
    public var artist: String
    /// `queued`, `downloading`, `paused`, `done` or `failed`.
    public var state: String
    /// Bytes received so far.
    public var received: Int64
    /// Bytes in the file, when known.
    public var total: Int64?
    /// Why it failed, shown instead of the sizes.
    public var message: String?

    public init(
        title: String, artist: String, state: String, received: Int64, total: Int64?, message: String? = nil
    ) {
        self.title = title
        self.artist = artist
        self.state = state
        self.received = received
        self.total = total
        self.message = message
    }
}

/// The downloads screen: title, artist, state and progress ("3.2 MB / 7.9 MB 40%") per download,
/// rows that are downloading marked "▶".
public enum DownloadsView {
    /// What an empty list shows.
    public static let emptyMessage = "No downloads"

    /// The list in exactly `height` rows of exactly `width` columns (see `TableView.render`).
    ///
    /// The artist column goes below 60 columns, the state column below 36.
    public static func render(
        rows: [DownloadRow], selected: Int?, scrollOffset: Int, width: Int, height: Int
    ) -> TableView.Output {
        let progressTexts = rows.map(progress)
        let progressWidth = min(24, max(8, progressTexts.map { TerminalWidth.width(of: $0) }.max() ?? 0))
        var columns: [ColumnLayout.Column] = [.init(.flexible(minimum: 6, weight: 3))]
        var header = ["Title"]
        if width >= 60 {
            columns.append(.init(.flexible(minimum: 6, weight: 2)))
            header.append("Artist")
        }
        if width >= 36 {
            columns.append(.init(.fixed(11)))
            header.append("State")
        }
        columns.append(.init(.fixed(progressWidth), alignment: .right))
        header.append("Progress")
        let cells = rows.enumerated().map { index, row -> [String] in
            var cells = [row.title]
            if width >= 60 { cells.append(row.artist) }
            if width >= 36 { cells.append(row.state) }
            cells.append(progressTexts[index])
            return cells
        }
        let downloading = Set(rows.indices.filter { rows[$0].state == "downloading" })
        return TableView.render(
            header: header, rows: cells, layout: ColumnLayout(columns, gap: 2), selected: selected,
            scrollOffset: scrollOffset, width: width, height: height, marked: downloading,
            emptyMessage: emptyMessage)
    }

    /// "3.2 MB / 7.9 MB 40%" while under way, the size when done, the message when failed with one.
    public static func progress(_ row: DownloadRow) -> String {
        if row.state == "failed", let message = row.message, !message.isEmpty {
            return TerminalWidth.sanitized(message)
        }
        guard let total = row.total, total > 0 else {
            return row.received > 0 ? size(row.received) : ""
        }
        if row.state == "done" { return size(total) }
        let received = min(max(0, row.received), total)
        return "\(size(received)) / \(size(total)) \(received * 100 / total)%"
    }

    /// A byte count in binary units with one decimal: "512 B", "1.5 KB", "3.2 MB", "1.1 GB".
    public static func size(_ bytes: Int64) -> String {
        let bytes = max(0, bytes)
        if bytes < 1024 { return "\(bytes) B" }
        var value = Double(bytes) / 1024
        var unit = 0
        let units = ["KB", "MB", "GB", "TB"]
        // Move up a unit before rounding would show "1024.0".
        while value >= 1023.95, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) \(units[unit])"
    }
}
