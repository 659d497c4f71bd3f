/// The privacy policy and the user agreement as the v1 API sends them, each in numbered versions.

/// Which document.
public enum TermsKind: String, Codable, Sendable, CaseIterable, SchemaEnum {
    /// The privacy policy.
    case privacy
    /// The user agreement.
    case user
}

/// One version of a document.
public struct Terms: Codable, Sendable, Equatable, Identifiable {
    public var id: String
    public var kind: TermsKind
    /// 1, 2, 3, ... per kind; the highest is the current one.
    public var version: Int
    public var title: String
    /// The full text (plain text, paragraphs separated by blank lines).
    public var text: String
    /// Whether the signed-in viewer has accepted this version; nil for a visitor.
    public var accepted: Bool?
    public var createdAt: String
    public var updatedAt: String

    public init(
        id: String, kind: TermsKind, version: Int, title: String, text: String, accepted: Bool?,
        createdAt: String, updatedAt: String
    ) {
        self.id = id
        self.kind = kind
        self.version = version
        self.title = title
        self.text = text
        self.accepted = accepted
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// The current version of each document, and whether the viewer has accepted all of them.
public struct TermsStatus: Codable, Sendable, Equatable {
    /// The current version of each kind that has been published.
    public var terms: [Terms]
    /// True when the signed-in viewer has accepted every current version (also when there is nothing to
    /// accept); nil for a visitor.
    public var accepted: Bool?

    public init(terms: [Terms], accepted: Bool?) {
        self.terms = terms
        self.accepted = accepted
    }
}

/// That someone accepted a version of a document, and when.
public struct TermsAcceptance: Codable, Sendable, Equatable {
    public var termsId: String
    public var kind: TermsKind
    public var version: Int
    public var acceptedAt: String

    public init(termsId: String, kind: TermsKind, version: Int, acceptedAt: String) {
        self.termsId = termsId
        self.kind = kind
        self.version = version
        self.acceptedAt = acceptedAt
    }
}
