/// Stores write SQLite's `?`; PostgreSQL numbers its parameters. The rewrite runs once per cached statement.
enum Placeholders {
    /// `sql` with each `?` outside literals, quoted names, comments and dollar-quoted bodies made `$1, $2, ...`,
    /// and how many parameters it takes. SQL already numbered (`$1`) is kept; mixing both forms is refused.
    static func numbered(_ sql: String) throws -> (sql: String, count: Int) {
        let bytes = Array(sql.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 16)
        var questionMarks = 0
        var highestNumbered = 0
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            switch byte {
            case UInt8(ascii: "'"):
                // E'...' strings take backslash escapes; standard strings only ''.
                let escapes =
                    i > 0 && (bytes[i - 1] | 0x20) == UInt8(ascii: "e") && !isWordByte(at: i - 2, bytes)
                let end = endOfQuoted(bytes, from: i, quote: byte, backslashEscapes: escapes)
                output += bytes[i..<end]
                i = end
            case UInt8(ascii: "\""):
                let end = endOfQuoted(bytes, from: i, quote: byte, backslashEscapes: false)
                output += bytes[i..<end]
                i = end
            case UInt8(ascii: "-") where i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "-"):
                var end = i
                while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
                output += bytes[i..<end]
                i = end
            case UInt8(ascii: "/") where i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "*"):
                let end = endOfBlockComment(bytes, from: i)
                output += bytes[i..<end]
                i = end
            case UInt8(ascii: "$") where !isWordByte(at: i - 1, bytes):
                if let (number, end) = parameterNumber(bytes, from: i) {
                    highestNumbered = max(highestNumbered, number)
                    output += bytes[i..<end]
                    i = end
                } else if let end = endOfDollarQuoted(bytes, from: i) {
                    output += bytes[i..<end]
                    i = end
                } else {
                    output.append(byte)
                    i += 1
                }
            case UInt8(ascii: "?"):
                questionMarks += 1
                output += Array("$\(questionMarks)".utf8)
                i += 1
            default:
                output.append(byte)
                i += 1
            }
        }
        if questionMarks > 0 && highestNumbered > 0 {
            throw PostgresError(
                kind: .other, message: "the statement mixes ? and $n placeholders; write one form", sql: sql)
        }
        return (String(decoding: output, as: UTF8.self), max(questionMarks, highestNumbered))
    }

    private static func isWordByte(at index: Int, _ bytes: [UInt8]) -> Bool {
        guard index >= 0 else { return false }
        let byte = bytes[index]
        return byte >= 0x80 || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$")
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || ((byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z"))
    }

    /// The index just past a quoted literal or name opening at `start` (a doubled quote stays inside).
    private static func endOfQuoted(_ bytes: [UInt8], from start: Int, quote: UInt8, backslashEscapes: Bool)
        -> Int
    {
        var i = start + 1
        while i < bytes.count {
            if backslashEscapes && bytes[i] == UInt8(ascii: "\\") {
                i += 2
                continue
            }
            if bytes[i] == quote {
                if i + 1 < bytes.count && bytes[i + 1] == quote {
                    i += 2
                    continue
                }
                return i + 1
            }
            i += 1
        }
        return bytes.count
    }

    /// PostgreSQL's block comments nest.
    private static func endOfBlockComment(_ bytes: [UInt8], from start: Int) -> Int {
        var depth = 0
        var i = start
        while i + 1 < bytes.count {
            if bytes[i] == UInt8(ascii: "/") && bytes[i + 1] == UInt8(ascii: "*") {
                depth += 1
                i += 2
            } else if bytes[i] == UInt8(ascii: "*") && bytes[i + 1] == UInt8(ascii: "/") {
                depth -= 1
                i += 2
                if depth == 0 { return i }
            } else {
                i += 1
            }
        }
        return bytes.count
    }

    /// `$12` at `start`: its number and the index past it.
    private static func parameterNumber(_ bytes: [UInt8], from start: Int) -> (Int, Int)? {
        var i = start + 1
        var number = 0
        while i < bytes.count, bytes[i] >= UInt8(ascii: "0"), bytes[i] <= UInt8(ascii: "9") {
            number = number * 10 + Int(bytes[i] - UInt8(ascii: "0"))
            i += 1
        }
        return i > start + 1 ? (number, i) : nil
    }

    /// A `$tag$ ... $tag$` body (the tag may be empty) at `start`: the index past its closing tag.
    private static func endOfDollarQuoted(_ bytes: [UInt8], from start: Int) -> Int? {
        var i = start + 1
        while i < bytes.count && bytes[i] != UInt8(ascii: "$") {
            guard isWordByte(at: i, bytes), bytes[i] != UInt8(ascii: "$") else { return nil }
            i += 1
        }
        guard i < bytes.count else { return nil }
        let tag = bytes[start...i]
        var j = i + 1
        while j + tag.count <= bytes.count {
            if bytes[j] == UInt8(ascii: "$") && bytes[j..<(j + tag.count)].elementsEqual(tag) {
                return j + tag.count
            }
            j += 1
        }
        return bytes.count
    }
}
