/// The privacy policy and the user agreement: their current versions, who accepted which version when, and
/// publishing new versions.
public enum TermsAPI {
    public static let current = Endpoint<NoPath, NoQuery, NoBody, TermsStatus, OptionalSignIn>(
        "current", .GET, "/v1/terms",
        "The current privacy policy and user agreement with their text, and whether one has accepted them")
    public static let accept = Endpoint<NoPath, NoQuery, TermsAcceptanceDraft, TermsStatus, SignedIn>(
        "accept", .POST, "/v1/terms/acceptances",
        "Accept versions of the documents (by id, as `GET v1/terms` gives them); accepting one again keeps the first time",
        status: 201, refusals: [.notFound, .conflict])
    public static let acceptances = Endpoint<NoPath, NoQuery, NoBody, [TermsAcceptance], SignedIn>(
        "acceptances", .GET, "/v1/terms/acceptances", "Which versions one has accepted and when, newest first"
    )
    public static let adminList = Endpoint<NoPath, TermsListQuery, NoBody, Page<Terms>, Admin>(
        "adminList", .GET, "/v1/admin/terms", "list every version of the documents, newest first")
    public static let publish = Endpoint<NoPath, NoQuery, TermsDraft, Terms, Admin>(
        "publish", .POST, "/v1/admin/terms",
        "publish a new version of a document; everyone must accept it again", status: 201)

    public static let group = APIGroup(
        "terms", "The privacy policy and user agreement, and who accepted which version",
        [current, accept, acceptances, adminList, publish])
}

public struct TermsListQuery: APIParameters, Equatable {
    public var kind: TermsKind?
    public var paging = Paging()
    public init() {}
    public init(kind: TermsKind?, page: Int = 1, size: Int = 20) {
        self.kind = kind
        paging = Paging(page: page, size: size)
    }
    public static let fields: [ParameterField<Self>] =
        [.choice("kind", \.kind, doc: "Only this document's versions.")] + Paging.fields(\.paging)
}

/// The versions one accepts.
public struct TermsAcceptanceDraft: Codable, Sendable, Equatable {
    public var termsIds: [ID<Terms>]
    public init(termsIds: [ID<Terms>]) { self.termsIds = termsIds }
}

/// A new version of a document.
public struct TermsDraft: Codable, Sendable, Equatable {
    public var kind: TermsKind
    public var title: String
    public var text: String
    public init(kind: TermsKind, title: String, text: String) {
        self.kind = kind
        self.title = title
        self.text = text
    }
}

extension TermsAcceptanceDraft: LimitedBody {
    public static let limits: [FieldLimit<Self>] = [
        .count(
            "termsIds", \.termsIds, max: 10, min: 1,
            tooMany: ServiceError.invalid("Send at most 10 ids in 'termsIds'."),
            tooFew: ServiceError.invalid(
                "Give 'termsIds': the ids of the versions accepted, from GET /v1/terms."))
    ]
}

extension TermsDraft: LimitedBody {
    public static let titleText = WrittenText(field: "The title", limit: 100)
    public static let textText = WrittenText(field: "The text", limit: 200_000, lines: .many)
    public static let limits: [FieldLimit<Self>] = [
        .text("title", \.title, titleText), .text("text", \.text, textText),
    ]
}
