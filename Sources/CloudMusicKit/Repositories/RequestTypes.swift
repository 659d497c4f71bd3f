import Foundation
import MusicCore

/// How to sign up or sign in: by email or by phone.
public enum AccountIdentifier: Sendable, Equatable {
    case email(String)
    case phone(String)

    var field: (name: String, value: String) {
        switch self {
        case .email(let value): ("email", value)
        case .phone(let value): ("phone", value)
        }
    }
}

/// Which list of comments: on a song, a sheet or a moment, or the replies to a comment.
public enum CommentTarget: Sendable, Equatable {
    case song(String)
    case sheet(String)
    case feed(String)
    case replies(to: String)

    var field: (name: String, value: String) {
        switch self {
        case .song(let id): ("songId", id)
        case .sheet(let id): ("sheetId", id)
        case .feed(let id): ("feedId", id)
        case .replies(let id): ("parentId", id)
        }
    }
}

/// A sheet's fields to create or change; nil fields are left out (on a change: left as they are).
public struct SheetDraft: Codable, Sendable, Equatable {
    public var title: String?
    public var detail: String?
    public var tags: [String]?
    public var isPrivate: Bool?

    public init(title: String? = nil, detail: String? = nil, tags: [String]? = nil, isPrivate: Bool? = nil) {
        self.title = title
        self.detail = detail
        self.tags = tags
        self.isPrivate = isPrivate
    }
}

/// Profile fields to change; nil fields stay as they are, empty text clears.
public struct ProfileChange: Codable, Sendable, Equatable {
    public var nickname: String?
    public var description: String?
    /// 0 unknown, 10 male, 20 female.
    public var gender: Int?
    /// `yyyy-MM-dd`.
    public var birthday: String?
    public var province: String?
    public var city: String?
    public var area: String?

    public init(
        nickname: String? = nil, description: String? = nil, gender: Int? = nil, birthday: String? = nil,
        province: String? = nil, city: String? = nil, area: String? = nil
    ) {
        self.nickname = nickname
        self.description = description
        self.gender = gender
        self.birthday = birthday
        self.province = province
        self.city = city
        self.area = area
    }
}

/// A moment to publish: text and/or up to nine pictures uploaded first, and an optional place.
public struct MomentDraft: Codable, Sendable, Equatable {
    public struct Image: Codable, Sendable, Equatable {
        /// A `uri` answered by `upload(_:)`.
        public var uri: String
        public init(uri: String) { self.uri = uri }
    }

    public var content: String?
    public var images: [Image]
    public var province: String?
    public var city: String?
    public var place: String?
    public var latitude: Double?
    public var longitude: Double?

    public init(
        content: String? = nil, images: [Image] = [], province: String? = nil, city: String? = nil,
        place: String? = nil, latitude: Double? = nil, longitude: Double? = nil
    ) {
        self.content = content
        self.images = images
        self.province = province
        self.city = city
        self.place = place
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// The play queue to save.
public struct QueueDraft: Codable, Sendable, Equatable {
    public var songIds: [String]
    public var currentIndex: Int?
    public var position: Int
    public var loopMode: LoopMode
    /// The version this queue was based on: the save is refused (`.conflict`) when the server's is newer.
    /// Nil overwrites whatever is there.
    public var baseVersion: Int?

    public init(
        songIds: [String], currentIndex: Int? = nil, position: Int = 0, loopMode: LoopMode = .list,
        baseVersion: Int? = nil
    ) {
        self.songIds = songIds
        self.currentIndex = currentIndex
        self.position = position
        self.loopMode = loopMode
        self.baseVersion = baseVersion
    }
}
