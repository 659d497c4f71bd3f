import CPostgres
import Foundation
import Storage

/// The current row of a query's result (in PostgreSQL's text format); valid only inside the decode closure.
///
/// Reads as SQLite's `Row` does: `int64` takes whole numbers (and booleans as 0 and 1, since SQLite has no
/// booleans), `double` any number, `string` anything but numbers, booleans and bytes, `data` bytes or text,
/// `bool` booleans or whole numbers.
public struct PostgresRow: SQLRow {
    let result: OpaquePointer
    var row: Int32
    let columns: ColumnIndex
    let sql: String

    /// The type ids (pg_type.oid) this row tells apart.
    enum TypeID {
        static let bool: UInt32 = 16
        static let bytea: UInt32 = 17
        static let int8: UInt32 = 20
        static let int2: UInt32 = 21
        static let int4: UInt32 = 23
        static let oid: UInt32 = 26
        static let float4: UInt32 = 700
        static let float8: UInt32 = 701
        static let numeric: UInt32 = 1700
        static let wholeNumbers: Set<UInt32> = [int8, int2, int4, oid]
        static let numbers: Set<UInt32> = [int8, int2, int4, oid, float4, float8, numeric]
    }

    public func index(_ name: String) throws -> Int {
        guard let i = columns.byName[name] else {
            throw PostgresError(kind: .other, message: "no column named \(name)", sql: sql)
        }
        return i
    }

    public var columnCount: Int { Int(PQnfields(result)) }

    public func isNull(_ index: Int) -> Bool {
        PQgetisnull(result, row, Int32(index)) == 1
    }

    public func int64(_ index: Int) throws -> Int64 {
        let type = try typeOf(index, "a whole number")
        let text = try bytes(index, "a whole number")
        if type == TypeID.bool { return text.first == UInt8(ascii: "t") ? 1 : 0 }
        guard TypeID.wholeNumbers.contains(type) || type == TypeID.numeric, let value = Self.wholeNumber(text)
        else { throw mismatch(index, "a whole number") }
        return value
    }

    public func double(_ index: Int) throws -> Double {
        let type = try typeOf(index, "a number")
        guard TypeID.numbers.contains(type),
            let value = Double(String(decoding: try bytes(index, "a number"), as: UTF8.self))
        else { throw mismatch(index, "a number") }
        return value
    }

    public func string(_ index: Int) throws -> String {
        let type = try typeOf(index, "text")
        guard !TypeID.numbers.contains(type), type != TypeID.bool, type != TypeID.bytea else {
            throw mismatch(index, "text")
        }
        return String(decoding: try bytes(index, "text"), as: UTF8.self)
    }

    public func data(_ index: Int) throws -> Data {
        let type = try typeOf(index, "bytes")
        let text = try bytes(index, "bytes")
        if type == TypeID.bytea {
            guard let decoded = Self.hexBytes(text) else { throw mismatch(index, "bytes") }
            return decoded
        }
        guard !TypeID.numbers.contains(type), type != TypeID.bool else { throw mismatch(index, "bytes") }
        return Data(text)
    }

    public func bool(_ index: Int) throws -> Bool {
        let type = try typeOf(index, "a boolean")
        if type == TypeID.bool { return try bytes(index, "a boolean").first == UInt8(ascii: "t") }
        return try int64(index) != 0
    }

    public func value(_ index: Int) -> SQLValue {
        guard index >= 0, index < columnCount, !isNull(index) else { return .null }
        switch PQftype(result, Int32(index)) {
        case TypeID.bool, TypeID.int2, TypeID.int4, TypeID.int8, TypeID.oid:
            return (try? int64(index)).map(SQLValue.integer) ?? .null
        case TypeID.numeric:
            if let whole = try? int64(index) { return .integer(whole) }
            return (try? double(index)).map(SQLValue.real) ?? .null
        case TypeID.float4, TypeID.float8:
            return (try? double(index)).map(SQLValue.real) ?? .null
        case TypeID.bytea:
            return (try? data(index)).map(SQLValue.blob) ?? .null
        default:
            return (try? string(index)).map(SQLValue.text) ?? .null
        }
    }

    /// The column's type; throws for a column that does not exist.
    private func typeOf(_ index: Int, _ expected: String) throws -> UInt32 {
        guard index >= 0, index < columnCount else {
            throw PostgresError(kind: .other, message: "no column \(index)", sql: sql)
        }
        return PQftype(result, Int32(index))
    }

    /// The value's text; a NULL is a mismatch, as in SQLite's `Row` (read it with an optional getter).
    private func bytes(_ index: Int, _ expected: String) throws -> UnsafeBufferPointer<UInt8> {
        guard !isNull(index), let value = PQgetvalue(result, row, Int32(index)) else {
            throw mismatch(index, expected)
        }
        return UnsafeBufferPointer(
            start: UnsafeRawPointer(value).assumingMemoryBound(to: UInt8.self),
            count: Int(PQgetlength(result, row, Int32(index))))
    }

    private func mismatch(_ index: Int, _ expected: String) -> PostgresError {
        let name = PQfname(result, Int32(index)).map { String(cString: $0) } ?? "\(index)"
        let found = isNull(index) ? "NULL" : "of type \(PQftype(result, Int32(index)))"
        return PostgresError(
            kind: .other, message: "column \(name) is not \(expected) (it is \(found))", sql: sql)
    }

    /// `-123` as a number; nil for anything else (a fraction, an overflow).
    static func wholeNumber(_ text: UnsafeBufferPointer<UInt8>) -> Int64? {
        var i = 0
        let negative = text.first == UInt8(ascii: "-")
        if negative || text.first == UInt8(ascii: "+") { i = 1 }
        guard i < text.count else { return nil }
        var value: Int64 = 0
        while i < text.count {
            let digit = text[i] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (times, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowB) =
                negative
                ? times.subtractingReportingOverflow(Int64(digit))
                : times.addingReportingOverflow(Int64(digit))
            guard !overflowA, !overflowB else { return nil }
            value = next
            i += 1
        }
        return value
    }

    /// bytea's hex form, `\x0a1b...`.
    static func hexBytes(_ text: UnsafeBufferPointer<UInt8>) -> Data? {
        guard text.count >= 2, text[0] == UInt8(ascii: "\\"), text[1] == UInt8(ascii: "x"),
            text.count % 2 == 0
        else { return nil }
        func nibble(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var decoded = Data(count: (text.count - 2) / 2)
        let valid = decoded.withUnsafeMutableBytes { (output: UnsafeMutableRawBufferPointer) -> Bool in
            var j = 0
            var i = 2
            while i < text.count {
                guard let high = nibble(text[i]), let low = nibble(text[i + 1]) else { return false }
                output[j] = high << 4 | low
                j += 1
                i += 2
            }
            return true
        }
        return valid ? decoded : nil
    }
}
