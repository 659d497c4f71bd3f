/// `s` with spaces, quotes, backslashes, control and non-ASCII bytes %-escaped, so that a client can't add
/// fields to a `key=value` log line.
func logSafe(_ s: String) -> String {
    @inline(__always) func unsafe(_ b: UInt8) -> Bool { b <= 0x20 || b == 0x22 || b == 0x5C || b >= 0x7F }
    guard s.utf8.contains(where: unsafe) else { return s }
    let hex = Array("0123456789ABCDEF".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(s.utf8.count + 16)
    for b in s.utf8 {
        if unsafe(b) {
            out.append(contentsOf: [0x25, hex[Int(b >> 4)], hex[Int(b & 15)]])
        } else {
            out.append(b)
        }
    }
    return String(decoding: out, as: UTF8.self)
}

/// `s` in double quotes, with quotes, backslashes and line breaks escaped so it stays one log field on one line.
func logQuoted(_ s: String) -> String {
    var out = "\""
    for c in s.unicodeScalars {
        switch c {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        default: out.unicodeScalars.append(c)
        }
    }
    return out + "\""
}
