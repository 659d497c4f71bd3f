import Foundation
import MusicCore
import Storage

/// The rules of update checks: versions compare as semantic versions, a check answers the newest version
/// only when it is newer than the app's own, and it is forced when any version in between is. The versions
/// of each platform are kept in memory (apps check at every start) until an administrator changes them.
final class AppVersionService: Sendable {
    let database: Database
    let store = AppVersionStore()
    let clock: @Sendable () -> Int64
    private let cache = ExpiringCache<AppPlatform, [(SemanticVersion, AppVersionStore.Record)]>(capacity: 8)

    init(database: Database, clock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) })
    {
        self.database = database
        self.clock = clock
    }

    static let noVersion = ServiceError.notFound("That version does not exist.")

    /// The newest version of `platform` when it is newer than `version`, else nil.
    func latest(platform: AppPlatform?, version text: String) throws -> AppVersion? {
        guard let platform else {
            throw ServiceError.invalid(
                "Give 'platform': \(AppPlatform.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        let current = try Self.version(text, field: "version")
        let newer = try versions(platform).filter { $0.0 > current }
        guard let newest = newer.max(by: { $0.0 < $1.0 }) else { return nil }
        var answer = newest.1.model()
        answer.force = newer.contains { $0.1.force }
        return answer
    }

    private func versions(_ platform: AppPlatform) throws -> [(SemanticVersion, AppVersionStore.Record)] {
        try cache.value(platform) { [self] in
            let records = try database.read { db in try store.versions(db, platform: platform) }
            let parsed = records.compactMap { record in SemanticVersion(record.version).map { ($0, record) } }
            return (parsed, Double(clock()) + 3_600)
        }
    }

    func list(platform: AppPlatform?, paging: Paging) throws -> Page<AppVersion> {
        try database.read { db in try store.page(db, platform: platform, paging: paging) }
    }

    func publish(_ draft: AppVersionDraft, createdBy: Int64?) throws -> AppVersion {
        let version = try Self.version(draft.version, field: "version")
        guard (0...2_000_000_000).contains(draft.build) else {
            throw ServiceError.invalid("'build' must be a whole number from 0 to 2000000000.")
        }
        let notes = try Self.notes(draft.notes ?? "")
        let uri = try draft.uri.flatMap { try AdService.link($0, field: "uri") }
        let model = try database.write { db -> AppVersion in
            if let same = try store.versions(db, platform: draft.platform).first(where: {
                SemanticVersion($0.version) == version
            }) {
                throw ServiceError.conflict(
                    "Version \(same.version) of the \(draft.platform.rawValue) app is already published. "
                        + "Change it, or publish a higher version.")
            }
            let id = try store.insert(
                db, platform: draft.platform, version: draft.version.trimmingCharacters(in: .whitespaces),
                build: draft.build, notes: notes, uri: uri, force: draft.force ?? false, createdBy: createdBy,
                now: clock())
            guard let record = try store.version(db, id: id) else { throw Self.noVersion }
            return record.model()
        }
        cache.invalidate(draft.platform)
        return model
    }

    func update(id: Int64, _ change: AppVersionChange) throws -> AppVersion {
        let notes = try change.notes.map(Self.notes)
        let uri = try change.uri.map { try $0.flatMap { try AdService.link($0, field: "uri") } }
        let record = try database.write { db -> AppVersionStore.Record in
            guard var record = try store.version(db, id: id) else { throw Self.noVersion }
            if let notes { record.notes = notes }
            if let uri { record.uri = uri }
            if let force = change.force { record.force = force }
            try store.update(db, record, now: clock())
            return try store.version(db, id: id) ?? record
        }
        cache.invalidate(record.platform)
        return record.model()
    }

    func delete(id: Int64) throws {
        let platform = try database.write { db -> AppPlatform in
            guard let record = try store.version(db, id: id) else { throw Self.noVersion }
            try store.delete(db, id: id)
            return record.platform
        }
        cache.invalidate(platform)
    }

    static func version(_ text: String, field: String) throws -> SemanticVersion {
        guard let version = SemanticVersion(text.trimmingCharacters(in: .whitespaces)) else {
            throw ServiceError.invalid(
                "'\(field)' must be a version such as 1.2.3 (or 2.0.0-beta.1); '\(text.prefix(64))' is not one."
            )
        }
        return version
    }

    static func notes(_ text: String) throws -> String {
        try AppVersionDraft.notesText.check(text) ?? ""
    }
}
