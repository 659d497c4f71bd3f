import MusicCore
import Storage

/// What other features read of ads (the home banner), on the caller's connection; `AdStore` stays inside
/// Ads.
struct AdReads: Sendable {
    private let store = AdStore()

    /// The ads of a position showing at `now`, a page of them (`AdStore.ads(_:position:showingAt:paging:)`).
    func ads(_ db: Connection, position: Int, showingAt now: Int64, paging: Paging) throws -> [Ad] {
        try store.ads(db, position: position, showingAt: now, paging: paging).records.map { $0.model() }
    }

    /// When an ad of the position next starts or stops after `now`.
    func nextChange(_ db: Connection, position: Int, after now: Int64) throws -> Int64? {
        try store.nextChange(db, position: position, after: now)
    }
}
