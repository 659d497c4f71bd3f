import Foundation
import MusicCore
import Storage

/// The rules of the terms: the current version of each document is the highest; a person has accepted the
/// terms when they accepted the current version of every document published; a new version must be
/// accepted again. Only a current version can be accepted.
final class TermsService: Sendable {
    let database: Database
    let store = TermsStore()
    let clock: @Sendable () -> Int64

    init(database: Database, clock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) })
    {
        self.database = database
        self.clock = clock
    }

    func current(viewer: Viewer?) throws -> TermsStatus {
        try database.read { db in try status(db, userID: viewer?.userID) }
    }

    private func status(_ db: Connection, userID: Int64?) throws -> TermsStatus {
        let current = try store.current(db)
        guard let userID else {
            return TermsStatus(terms: current.map { $0.model(accepted: nil) }, accepted: nil)
        }
        let accepted = try store.accepted(db, userID: userID, termsIDs: current.map(\.id))
        return TermsStatus(
            terms: current.map { $0.model(accepted: accepted.contains($0.id)) },
            accepted: current.allSatisfy { accepted.contains($0.id) })
    }

    /// Whether the person has accepted the current version of every document (true when none is published).
    func hasAcceptedCurrent(userID: Int64) throws -> Bool {
        try database.read { db in try status(db, userID: userID).accepted ?? true }
    }

    func accept(_ draft: TermsAcceptanceDraft, viewer: Viewer) throws -> TermsStatus {
        return try database.write { db in
            let current = try store.current(db)
            let now = clock()
            for id in draft.termsIds {
                guard let terms = try store.terms(db, id: id.rawValue) else {
                    throw ServiceError.notFound("That version of the terms does not exist.")
                }
                guard let newest = current.first(where: { $0.kind == terms.kind }), newest.id == terms.id
                else {
                    let name = terms.kind == .privacy ? "privacy policy" : "user agreement"
                    throw ServiceError.conflict(
                        "Version \(terms.version) of the \(word: name) is no longer the current one. "
                            + "Read the current version (GET /v1/terms) and accept that.")
                }
                try store.accept(db, userID: viewer.userID, termsID: id.rawValue, now: now)
            }
            return try status(db, userID: viewer.userID)
        }
    }

    func acceptances(viewer: Viewer) throws -> [TermsAcceptance] {
        try database.read { db in try store.acceptances(db, userID: viewer.userID) }
    }

    func list(kind: TermsKind?, paging: Paging) throws -> Page<Terms> {
        try database.read { db in try store.page(db, kind: kind, paging: paging) }
    }

    func publish(_ draft: TermsDraft, createdBy: Int64?) throws -> Terms {
        guard let title = try TermsDraft.titleText.check(draft.title) else {
            throw ServiceError.invalid("Give the document a title of at most 100 characters.")
        }
        guard
            let text = try TermsDraft.textText.check(draft.text)
        else { throw ServiceError.invalid("Give the document's text.") }
        return try database.write { db in
            let id = try store.insert(
                db, kind: draft.kind, title: title, text: text, createdBy: createdBy, now: clock())
            guard let record = try store.terms(db, id: id) else {
                throw ServiceError.serverFault("The terms could not be saved. Please tell the administrator.")
            }
            return record.model(accepted: nil)
        }
    }
}
