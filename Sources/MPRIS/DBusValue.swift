/// A D-Bus value in Swift terms: what the service reads from calls and writes into replies and signals.
///
/// Arrays carry their element signature so that empty arrays still marshal with the right type.
indirect enum DBusValue: Sendable, Equatable {
    case byte(UInt8)
    case boolean(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    case array(elementSignature: String, [DBusValue])
    case dictEntry(DBusValue, DBusValue)
    case structure([DBusValue])
    case variant(DBusValue)

    /// The value's D-Bus type signature, such as `s` or `a{sv}`.
    var signature: String {
        switch self {
        case .byte: "y"
        case .boolean: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .array(let element, _): "a" + element
        case .dictEntry(let key, let value): "{" + key.signature + value.signature + "}"
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        case .variant: "v"
        }
    }

    /// `as`: a list of strings.
    static func strings(_ values: [String]) -> DBusValue {
        .array(elementSignature: "s", values.map { .string($0) })
    }

    /// `a{sv}`: the property and metadata maps MPRIS uses everywhere.
    static func vardict(_ entries: [(String, DBusValue)]) -> DBusValue {
        .array(elementSignature: "{sv}", entries.map { .dictEntry(.string($0.0), .variant($0.1)) })
    }
}
