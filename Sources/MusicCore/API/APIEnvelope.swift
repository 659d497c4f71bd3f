/// The JSON envelope of every API response: `{"status":0,"data":...}` or `{"status":n,"message":"..."}`.
///
/// `status` is 0 on success; otherwise `message` is a sentence a person can act on (the apps show it).
public struct APIResponse<T: Decodable & Sendable>: Decodable, Sendable {
    public let status: Int
    public let message: String?
    public let data: T?

    public init(status: Int = 0, message: String? = nil, data: T? = nil) {
        self.status = status
        self.message = message
        self.data = data
    }

    /// True when `status` is 0.
    public var isSuccess: Bool { status == 0 }
}

extension APIResponse: Encodable where T: Encodable {}

extension APIResponse: Equatable where T: Equatable {}

/// One page of a list: `{"total":N,"pages":P,"size":S,"page":p,"next":p+1 or null,"data":[...]}`.
///
/// Pages are numbered from 1.
public struct Page<T: Codable & Sendable>: Codable, Sendable {
    /// The number of items in the whole list.
    public var total: Int
    /// The number of pages: `total / size` rounded up, 0 when the list is empty.
    public var pages: Int
    /// The requested page size.
    public var size: Int
    /// This page's number, from 1.
    public var page: Int
    /// The next page's number, or nil on the last page.
    public var next: Int?
    /// The items on this page.
    public var data: [T]

    public init(total: Int, pages: Int, size: Int, page: Int, next: Int?, data: [T]) {
        self.total = total
        self.pages = pages
        self.size = size
        self.page = page
        self.next = next
        self.data = data
    }

    /// A page of `items`, computing `pages` and `next` from `total`, `page` and `size`.
    ///
    /// A `size` below 1 gives 0 pages.
    public init(items: [T], total: Int, page: Int, size: Int) {
        let pages = (total <= 0 || size <= 0) ? 0 : (total - 1) / size + 1
        self.init(
            total: total, pages: pages, size: size, page: page, next: page < pages ? page + 1 : nil,
            data: items)
    }

    /// The same page with each item transformed.
    public func map<U: Codable & Sendable>(_ transform: (T) throws -> U) rethrows -> Page<U> {
        Page<U>(total: total, pages: pages, size: size, page: page, next: next, data: try data.map(transform))
    }

    /// Encodes `next` as `null` on the last page, as the apps expect, instead of leaving it out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(total, forKey: .total)
        try container.encode(pages, forKey: .pages)
        try container.encode(size, forKey: .size)
        try container.encode(page, forKey: .page)
        try container.encode(next, forKey: .next)
        try container.encode(data, forKey: .data)
    }
}

extension Page: Equatable where T: Equatable {}
