import Foundation
import MusicCore

/// How to sign up or sign in: by email or by phone.
public enum AccountIdentifier: Sendable, Equatable {
    case email(String)
    case phone(String)

    /// The phone and the email of a request body, one of them nil.
    var phoneAndEmail: (phone: String?, email: String?) {
        switch self {
        case .email(let value): (nil, value)
        case .phone(let value): (value, nil)
        }
    }
}

/// Which list of comments: on a song, a sheet, a moment or a podcast episode, or the replies to a comment.
public enum CommentTarget: Sendable, Equatable {
    case song(String)
    case sheet(String)
    case feed(String)
    case episode(String)
    case replies(to: String)
}
