import Foundation
import HTTPServer

/// Reading ids, paging and enums from requests, with messages a person can act on.
extension Request {
    /// A numeric id from the path; a malformed one is the same 404 as a missing one.
    func id(_ name: String = "id", thing: String) throws -> Int64 {
        guard let text = pathParameters[name], let id = Int64(text), id > 0 else {
            throw HTTPError.notFound("That \(thing) does not exist.")
        }
        return id
    }

    /// `page` (from 1) and `size` (1...maxSize, default 20).
    func paging(defaultSize: Int = 20, maxSize: Int = 100) throws -> (page: Int, size: Int) {
        let page = try integerQuery("page", default: 1, range: 1...1_000_000)
        let size = try integerQuery("size", default: defaultSize, range: 1...maxSize)
        return (page, size)
    }

    func integerQuery(_ name: String, default value: Int, range: ClosedRange<Int>) throws -> Int {
        guard let text = query[name], !text.isEmpty else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw HTTPError.badRequest(
                "'\(name)' must be a whole number from \(range.lowerBound) to \(range.upperBound).")
        }
        return number
    }

    /// A decimal number from the query, or nil when absent.
    func doubleQuery(_ name: String) throws -> Double? {
        guard let text = query[name], !text.isEmpty else { return nil }
        guard let number = Double(text), number.isFinite else {
            throw HTTPError.badRequest("'\(name)' must be a number.")
        }
        return number
    }

    func optionalIDQuery(_ name: String) throws -> Int64? {
        guard let text = query[name], !text.isEmpty else { return nil }
        guard let id = Int64(text), id > 0 else { throw HTTPError.badRequest("'\(name)' must be an id.") }
        return id
    }

    func enumQuery<T: RawRepresentable & CaseIterable>(_ name: String, default value: T) throws -> T
    where T.RawValue == String {
        guard let text = query[name], !text.isEmpty else { return value }
        guard let parsed = T(rawValue: text) else {
            let choices = T.allCases.map(\.rawValue).joined(separator: ", ")
            throw HTTPError.badRequest("'\(name)' must be one of: \(choices).")
        }
        return parsed
    }
}

extension Response {
    /// A picture the server stored (avatar, cover, upload), when the database says there is one: ids can be
    /// reused after the newest row is deleted, and a file left behind must not become someone else's.
    ///
    /// `immutable` is for content-addressed files, whose bytes never change under one name: caches keep
    /// them for a year without asking again.
    static func storedPicture(
        at path: String, recorded: Bool, request: Request, missing: String, contentType: String = "image/jpeg",
        immutable: Bool = false
    ) throws -> Response {
        guard recorded, FileManager.default.fileExists(atPath: path) else { throw HTTPError.notFound(missing) }
        var response = try Response.file(at: path, contentType: contentType, request: request)
        if immutable { response.headers.replace("Cache-Control", "public, max-age=31536000, immutable") }
        return response
    }
}
