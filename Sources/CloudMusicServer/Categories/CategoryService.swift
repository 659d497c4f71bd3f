import Foundation
import MusicCore
import Storage

/// Categories: genres with a picture and what each holds. Building them reads every song's genre, so the
/// list is kept in memory and rebuilt in the background once a minute (a scan's or a sheet's changes show
/// within that minute).
final class CategoryService: Sendable {
    let database: Database
    let store = CategoryStore()
    private let cache = ExpiringCache<Int, [Category]>(capacity: 1)
    static let lifetime: Double = 60

    init(database: Database) { self.database = database }

    /// Every category, those with most songs first.
    func all() throws -> [Category] {
        try cache.value(0) { [database, store] in
            (
                try database.read { db in try store.categories(db) },
                Date().timeIntervalSince1970 + Self.lifetime
            )
        }
    }

    func list(paging: Paging) throws -> Page<Category> {
        let all = try all()
        let items = Array(all.dropFirst(min(paging.offset, all.count)).prefix(paging.size))
        return Page(items: items, total: all.count, page: paging.page, size: paging.size)
    }
}
