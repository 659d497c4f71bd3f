import Cryptography
import MusicCore

/// The `nextCursor` of an album page: where the next page starts by key (the last episode's sort value and
/// id), with the album, the order and the next page's offset, signed with the server's key.
///
/// The text is `podcast.order.offset.value.id.mac` (`value` is `x` for an episode without one). The signature
/// is what makes a cursor refusable: a cursor altered by hand (another offset, so another page number, or
/// another key) fails it, and a cursor of another album or order names them, so the answer can say which.
/// A key stays meaningful when its episode is deleted afterwards (the next page still starts after that
/// place), which a check against the episode's row would not allow.
struct AlbumCursor: Equatable {
    /// The order a cursor was given for: newest first, oldest first, or a book's parts.
    enum Order: String {
        case newest = "n"
        case oldest = "o"
        case parts = "p"
    }

    var podcastID: Int64
    var order: Order
    /// How many episodes come before the page the cursor opens.
    var offset: Int
    var key: PodcastStore.AlbumKey

    static let forged = ServiceError.invalid(
        "That 'cursor' is not one this server gave out for an album page; start again without it.")

    func text(signedWith secret: [UInt8]) -> String {
        let payload =
            "\(podcastID).\(order.rawValue).\(offset).\(key.value.map(String.init) ?? "x").\(key.id)"
        return "\(payload).\(Self.signature(payload, secret))"
    }

    /// The cursor `text` holds, refused (400) unless this server signed it.
    static func parse(_ text: String, secret: [UInt8]) throws -> AlbumCursor {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 6 else { throw forged }
        let payload = parts[0..<5].joined(separator: ".")
        guard
            Crypto.constantTimeEqual(Array(parts[5].utf8), Array(signature(payload, secret).utf8)),
            let podcastID = Int64(parts[0]), let order = Order(rawValue: String(parts[1])),
            let offset = Int(parts[2]), offset >= 0, let id = Int64(parts[4])
        else { throw forged }
        let value: Int64?
        if parts[3] == "x" {
            value = nil
        } else {
            guard let number = Int64(parts[3]) else { throw forged }
            value = number
        }
        return AlbumCursor(
            podcastID: podcastID, order: order, offset: offset,
            key: PodcastStore.AlbumKey(value: value, id: id))
    }

    /// 128 bits of a keyed BLAKE2b of the payload, as hex.
    private static func signature(_ payload: String, _ secret: [UInt8]) -> String {
        Crypto.hex(Array(Crypto.keyedHash("album-cursor:" + payload, key: secret).prefix(16)))
    }
}
