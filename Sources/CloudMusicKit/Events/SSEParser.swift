/// Server-Sent Events as the HTML standard reads them (`text/event-stream`), fed bytes as they arrive.
///
/// Lines end in CR LF, LF or CR (a CR at the end of one chunk and an LF at the start of the next are one
/// line end); a line starting with `:` is a comment; `field: value` loses one space after the colon; `data`
/// lines join with line feeds; `event` names the type (`message` when absent); `id` sets the last event id
/// (kept for the events after it, ignored when it holds NUL); `retry` with only digits sets the reconnection
/// time; a blank line dispatches the event, unless it has no data. Bytes are UTF-8 (invalid ones read as
/// U+FFFD); a byte order mark at the start is dropped. An event cut off by the end of the stream is dropped.
public struct SSEParser: Sendable {
    /// One dispatched event.
    public struct Event: Sendable, Equatable {
        /// The `event` field, or `message`.
        public var type: String
        /// The `data` lines joined with line feeds.
        public var data: String
        /// The last event id at the moment it was dispatched (the stream's, not only this event's); empty
        /// when none was ever given.
        public var lastEventID: String

        public init(type: String = "message", data: String, lastEventID: String = "") {
            self.type = type
            self.data = data
            self.lastEventID = lastEventID
        }
    }

    /// A line or an event grew past `maximumSize`: the stream is not one this client can read.
    public struct TooLarge: Error, Sendable, Equatable {}

    /// The most bytes one line, or one event's data, may take.
    public let maximumSize: Int
    /// The last event id so far (what a reconnection sends as `Last-Event-ID`).
    public private(set) var lastEventID = ""
    /// The reconnection time the server asked for, in milliseconds.
    public private(set) var retry: Int?
    /// Comment lines seen so far (the server's heartbeats).
    public private(set) var comments = 0

    private var line: [UInt8] = []
    private var afterCR = false
    private var atStart = true
    private var data: [UInt8] = []
    private var hasData = false
    private var eventType = ""
    private var idBuffer = ""

    public init(maximumSize: Int = 4 << 20) { self.maximumSize = maximumSize }

    /// Reads `bytes` and answers the events they completed, in order.
    public mutating func feed<Bytes: Sequence>(_ bytes: Bytes) throws(TooLarge) -> [Event]
    where Bytes.Element == UInt8 {
        var events: [Event] = []
        for byte in bytes {
            if afterCR {
                afterCR = false
                if byte == 0x0A { continue }
            }
            switch byte {
            case 0x0D:
                afterCR = true
                if let event = try endLine() { events.append(event) }
            case 0x0A:
                if let event = try endLine() { events.append(event) }
            default:
                guard line.count < maximumSize else { throw TooLarge() }
                line.append(byte)
            }
        }
        return events
    }

    /// Forgets a half-read line and event (the connection ended), an `id` of that event with it; the last
    /// event id dispatched and the retry stay.
    public mutating func reset() {
        idBuffer = lastEventID
        line = []
        afterCR = false
        atStart = true
        data = []
        hasData = false
        eventType = ""
    }

    private mutating func endLine() throws(TooLarge) -> Event? {
        defer { line.removeAll(keepingCapacity: true) }
        if atStart {
            atStart = false
            if line.starts(with: [0xEF, 0xBB, 0xBF]) { line.removeFirst(3) }
        }
        if line.isEmpty { return dispatch() }
        if line[0] == UInt8(ascii: ":") {
            comments += 1
            return nil
        }
        let field: ArraySlice<UInt8>
        var value: ArraySlice<UInt8>
        if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            field = line[..<colon]
            value = line[(colon + 1)...]
            if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        } else {
            field = line[...]
            value = []
        }
        switch String(decoding: field, as: UTF8.self) {
        case "data":
            guard data.count + value.count < maximumSize else { throw TooLarge() }
            data.append(contentsOf: value)
            data.append(0x0A)
            hasData = true
        case "event":
            eventType = String(decoding: value, as: UTF8.self)
        case "id":
            if !value.contains(0) { idBuffer = String(decoding: value, as: UTF8.self) }
        case "retry":
            if !value.isEmpty, value.allSatisfy({ (0x30...0x39).contains($0) }),
                let milliseconds = Int(String(decoding: value, as: UTF8.self))
            {
                retry = milliseconds
            }
        default:
            break
        }
        return nil
    }

    private mutating func dispatch() -> Event? {
        lastEventID = idBuffer
        defer {
            data.removeAll(keepingCapacity: true)
            hasData = false
            eventType = ""
        }
        guard hasData else { return nil }
        if data.last == 0x0A { data.removeLast() }
        return Event(
            type: eventType.isEmpty ? "message" : eventType, data: String(decoding: data, as: UTF8.self),
            lastEventID: lastEventID)
    }
}
