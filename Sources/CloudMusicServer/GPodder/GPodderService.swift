import Cryptography
import Foundation
import MusicCore
import Storage
import Synchronization

/// The rules of the gPodder sync API (the part AntennaPod and Kasts use): signing in with the CloudMusic account
/// (email or phone and password) or an app password (nickname, email or phone), devices, subscription changes and
/// episode actions. Podcasts' own tables are written only through `PodcastService`.
///
/// A play action of a known episode is the person's place in it (the later one wins, as in v1), and every place,
/// whichever client wrote it, is read back as a play action. Other actions, and plays of episodes the server does
/// not have, are kept as sent so that the person's other devices get them.
struct GPodderService: Sendable {
    let database: Database
    let podcasts: PodcastService
    let accounts: AccountService
    let passwords: AppPasswordService
    let store = GPodderStore()
    /// Seconds a sign-in session lasts.
    var sessionLifetime: Int64 = 30 * 86_400
    var clock: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }
    var millisecondClock: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1_000) }
    /// Basic credentials that matched in the last minute: apps send them with every request.
    let recent = RecentCredentials()

    /// Who is calling.
    struct Person: Sendable {
        var userID: Int64
        var isAdmin: Bool
        var viewer: Viewer { Viewer(userID: userID, sessionID: 0, isAdmin: isAdmin) }
    }

    static let wrongCredentials = ServiceError.unauthenticated(
        "Wrong username or password. Sign in with your email or phone and password, or with an app password made in CloudMusic's settings."
    )
    static let signIn = ServiceError.unauthenticated(
        "Sign in first: send your username and password (HTTP Basic), or the sessionid cookie from login.json."
    )
    static let notYours = ServiceError.forbidden(
        "This address names another person: use the username you signed in with.")
    static let maxActions = 1_000
    static let maxSubscriptionChanges = 2_000
    static let maxAddressLength = 2_000

    // MARK: Signing in

    /// The person these Basic credentials belong to: an app password first, else the account's password.
    func person(username: String, password: String, address: String, userAgent: String?) throws -> Person {
        let key = recent.digest(username: username, password: password)
        if let known = recent.person(key, now: clock()) { return known }
        var found: Person?
        if let user = try? passwords.authenticate(
            .password(username: username, password: Array(password.utf8)), address: address)
        {
            found = Person(userID: user.id, isAdmin: user.isAdmin)
        } else {
            let email = username.contains("@") ? username : nil
            let phone = email == nil ? username : nil
            let input = AccountService.LoginInput(
                phone: phone, email: email, password: password, code: nil, device: "gPodder")
            let signed: LoginResult
            do {
                signed = try accounts.login(input, address: address, userAgent: userAgent)
            } catch let error as ServiceError where error.kind == .rateLimited || error.kind == .forbidden {
                throw error
            } catch {
                throw Self.wrongCredentials
            }
            // Only the check was wanted: the v1 session it opened ends at once.
            let viewer = try accounts.authenticate(token: signed.session, address: address)
            try accounts.revokeSession(id: viewer.sessionID, by: viewer)
            found = Person(userID: viewer.userID, isAdmin: viewer.isAdmin)
        }
        guard let found else { throw Self.wrongCredentials }
        recent.remember(key, found, now: clock())
        return found
    }

    /// Opens a session; answers its token (the `sessionid` cookie).
    func openSession(for person: Person) throws -> String {
        let token = Crypto.randomToken()
        let now = clock()
        try database.write { db in
            try store.insertSession(
                db, tokenHash: Crypto.tokenHash(token), userID: person.userID, now: now,
                expiresAt: now + sessionLifetime)
        }
        return token
    }

    /// The person of a session token, or nil when it is unknown or expired.
    func person(sessionToken token: String) throws -> Person? {
        guard token.utf8.count == 64, Crypto.unhex(token) != nil else { return nil }
        let hash = Crypto.tokenHash(token.lowercased())
        return try database.read { db in try store.session(db, tokenHash: hash, now: clock()) }.map {
            Person(userID: $0.userID, isAdmin: $0.isAdmin)
        }
    }

    func closeSession(token: String) throws {
        let hash = Crypto.tokenHash(token.lowercased())
        try database.write { db in try store.deleteSession(db, tokenHash: hash) }
    }

    /// Refuses (403) a username in the address that does not name `person`.
    func requireOwner(username: String, person: Person) throws {
        let trimmed = username.trimmingCharacters(in: .whitespaces)
        let email = trimmed.contains("@") ? try? AccountRules.email(trimmed) : nil
        let phone = email == nil ? try? AccountRules.phone(trimmed) : nil
        let id = try database.read { db in
            try store.userID(
                db, nicknameKey: AppPasswordService.nicknameKey(trimmed), email: email, phone: phone)
        }
        guard id == person.userID else { throw Self.notYours }
    }

    // MARK: Devices

    func devices(of person: Person) throws -> [GPodderDevice] {
        let subscriptions = try podcasts.subscriptionCount(viewer: person.viewer)
        return try database.read { db in
            try store.devices(db, userID: person.userID).map {
                GPodderDevice(id: $0.id, caption: $0.caption, type: $0.type, subscriptions: subscriptions)
            }
        }
    }

    static let deviceTypes: Set<String> = ["desktop", "laptop", "mobile", "server", "other"]

    /// Registers a device or changes its caption or type; a device is registered too by its first use.
    func saveDevice(id: String, caption: String?, type: String?, for person: Person) throws {
        let id = try Self.checkedDeviceID(id)
        if let caption, caption.count > 200 {
            throw ServiceError.invalid("A device's caption can be at most 200 characters.")
        }
        if let type, !Self.deviceTypes.contains(type) {
            throw ServiceError.invalid("A device's type must be desktop, laptop, mobile, server or other.")
        }
        try database.write { db in
            if try store.deviceCount(db, userID: person.userID) >= 100,
                !(try store.devices(db, userID: person.userID).contains { $0.id == id })
            {
                throw ServiceError.invalid("You have 100 devices already: remove one in your app first.")
            }
            try store.saveDevice(
                db, userID: person.userID, id: id, caption: caption, type: type, now: clock())
        }
    }

    static func checkedDeviceID(_ id: String) throws -> String {
        guard !id.isEmpty, id.count <= 64,
            id.unicodeScalars.allSatisfy({
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-_.".unicodeScalars.contains($0))
            })
        else {
            throw ServiceError.invalid("A device id is 1 to 64 letters, digits, '-', '_' or '.'.")
        }
        return id
    }

    // MARK: Subscriptions

    func subscriptionChanges(device: String, since: Int64, for person: Person) throws
        -> GPodderSubscriptionChanges
    {
        try saveDevice(id: device, caption: nil, type: nil, for: person)
        let timestamp = clock()
        let changes = try podcasts.subscriptionChanges(since: since * 1_000, viewer: person.viewer)
        return GPodderSubscriptionChanges(add: changes.add, remove: changes.remove, timestamp: timestamp)
    }

    func uploadSubscriptions(device: String, _ upload: GPodderSubscriptionUpload, for person: Person)
        throws -> GPodderUpdate
    {
        let add = upload.add ?? []
        let remove = upload.remove ?? []
        guard add.count + remove.count <= Self.maxSubscriptionChanges else {
            throw ServiceError.tooLarge("Send at most 2000 subscription changes at once.")
        }
        guard (add + remove).allSatisfy({ $0.count <= Self.maxAddressLength }) else {
            throw ServiceError.invalid("A podcast's address can be at most 2000 characters.")
        }
        guard Set(add).isDisjoint(with: remove) else {
            throw ServiceError.invalid("An address cannot be both added and removed in one change.")
        }
        try saveDevice(id: device, caption: nil, type: nil, for: person)
        let refused = try waitFor { [podcasts] in
            try await podcasts.changeSubscriptions(add: add, remove: remove, viewer: person.viewer)
        }
        // gPodder's way of saying an address was not taken: rewritten to "".
        return GPodderUpdate(timestamp: clock(), updateUrls: refused.map { [$0, ""] })
    }

    // MARK: Episode actions

    static let actionNames: Set<String> = ["play", "download", "delete", "new"]

    func uploadActions(_ actions: [GPodderEpisodeAction], for person: Person) throws -> GPodderUpdate {
        guard actions.count <= Self.maxActions else {
            throw ServiceError.tooLarge("Send at most 1000 episode actions at once.")
        }
        let now = millisecondClock()
        var checked: [GPodderStore.ActionRecord] = []
        for action in actions {
            let name = action.action.lowercased()
            guard Self.actionNames.contains(name) else {
                throw ServiceError.invalid("An episode action must be play, download, delete or new.")
            }
            guard !action.podcast.isEmpty, !action.episode.isEmpty,
                action.podcast.count <= Self.maxAddressLength,
                action.episode.count <= Self.maxAddressLength,
                (action.guid?.count ?? 0) <= Self.maxAddressLength
            else {
                throw ServiceError.invalid("An episode action needs its podcast's and episode's addresses.")
            }
            if let device = action.device { _ = try Self.checkedDeviceID(device) }
            var takenAt = now
            if let text = action.timestamp {
                guard let date = Self.date(text) else {
                    throw ServiceError.invalid(
                        "An episode action's timestamp must be a UTC time such as 2026-12-05T13:30:00.")
                }
                takenAt = Int64((date.timeIntervalSince1970 * 1_000).rounded())
            }
            let numbers = [action.started, action.position, action.total].compactMap { $0 }
            guard numbers.allSatisfy({ $0.isFinite && (0...864_000).contains($0) }) else {
                throw ServiceError.invalid(
                    "'started', 'position' and 'total' must be seconds from 0 to 864000.")
            }
            if name == "play" && action.position == nil {
                throw ServiceError.invalid("A play action needs its 'position'.")
            }
            checked.append(
                GPodderStore.ActionRecord(
                    device: action.device,
                    podcastURL: PodcastService.syncAddress(action.podcast) ?? action.podcast,
                    episodeURL: action.episode, guid: action.guid, action: name, takenAt: takenAt,
                    started: action.started.map { Int($0) }, position: action.position.map { Int($0) },
                    total: action.total.map { Int($0) }))
        }
        for device in Set(checked.compactMap(\.device)) {
            try saveDevice(id: device, caption: nil, type: nil, for: person)
        }
        let plays = checked.enumerated().filter { $0.element.action == "play" }
        let placed = try podcasts.savePlays(
            plays.map { _, action in
                PodcastService.Play(
                    feedURL: action.podcastURL, enclosureURL: action.episodeURL, guid: action.guid,
                    position: Double(action.position ?? 0), total: action.total, takenAt: action.takenAt,
                    device: action.device)
            }, viewer: person.viewer)
        let placedActions = Set(placed.map { plays[$0].offset })
        try database.write { db in
            for (index, action) in checked.enumerated() where !placedActions.contains(index) {
                try store.insertAction(db, userID: person.userID, action, receivedAt: now)
            }
        }
        return GPodderUpdate(timestamp: clock(), updateUrls: [])
    }

    /// The actions received at or after `since` (seconds): those kept as sent, and every place as a play.
    func actions(since: Int64, podcast: String?, device: String?, aggregated: Bool, for person: Person) throws
        -> GPodderEpisodeActions
    {
        let timestamp = clock()
        let feedURL = podcast.map { PodcastService.syncAddress($0) ?? $0 }
        let kept = try database.read { db in
            try store.actions(
                db, userID: person.userID, since: since * 1_000, podcastURL: feedURL, device: device,
                limit: PodcastService.maxSyncChanges)
        }
        let places = try podcasts.placesReceived(
            since: since * 1_000, feedURL: feedURL, device: device, viewer: person.viewer)
        var actions = kept.map { record in
            (
                record.takenAt,
                GPodderEpisodeAction(
                    podcast: record.podcastURL, episode: record.episodeURL, action: record.action,
                    timestamp: Self.text(record.takenAt), guid: record.guid, device: record.device,
                    started: record.started.map(Double.init), position: record.position.map(Double.init),
                    total: record.total.map(Double.init))
            )
        }
        for place in places {
            let duration = place.duration.map(Double.init)
            var position = place.progress.position.rounded(.down)
            if place.progress.finished, let duration { position = max(position, duration) }
            actions.append(
                (
                    place.progress.updatedAt,
                    GPodderEpisodeAction(
                        podcast: place.feedURL, episode: place.enclosureURL, action: "play",
                        timestamp: Self.text(place.progress.updatedAt), guid: place.guid,
                        device: place.device,
                        started: 0, position: position, total: duration ?? position)
                ))
        }
        actions.sort { $0.0 < $1.0 }
        var list = actions.map(\.1)
        if aggregated {
            // The latest action of each episode.
            var latest: [String: Int] = [:]
            for (index, action) in list.enumerated() {
                latest[action.podcast + "\u{0}" + action.episode] = index
            }
            let keep = Set(latest.values)
            list = list.enumerated().filter { keep.contains($0.offset) }.map(\.element)
        }
        return GPodderEpisodeActions(actions: list, timestamp: timestamp)
    }

    /// gPodder's time: UTC without a zone ("2026-12-05T13:30:00"); a zone or fraction is accepted too.
    static func date(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let date = ISO8601Timestamp.date(from: trimmed) { return date }
        return ISO8601Timestamp.date(from: trimmed + "Z")
    }

    static func text(_ milliseconds: Int64) -> String {
        String(
            ISO8601Timestamp.string(from: Date(timeIntervalSince1970: Double(milliseconds / 1_000)))
                .dropLast())
    }
}

/// Basic credentials that matched a moment ago, under a keyed digest (a random key per process), so that an app
/// sending them with every request is not hashed with argon2 each time. Kept a minute: disabling an account or
/// revoking an app password takes at most that long to reach these requests.
final class RecentCredentials: Sendable {
    private let key = Crypto.randomBytes(32)
    private let entries = Mutex<[[UInt8]: (person: GPodderService.Person, expires: Int64)]>([:])

    func digest(username: String, password: String) -> [UInt8] {
        Crypto.keyedHash("\(username)\u{0}\(password)", key: key)
    }

    func person(_ digest: [UInt8], now: Int64) -> GPodderService.Person? {
        entries.withLock { entries in
            guard let entry = entries[digest], entry.expires > now else { return nil }
            return entry.person
        }
    }

    func remember(_ digest: [UInt8], _ person: GPodderService.Person, now: Int64) {
        entries.withLock { entries in
            if entries.count >= 4_096 { entries = entries.filter { $0.value.expires > now } }
            if entries.count >= 4_096 { entries.removeAll() }
            entries[digest] = (person, now + 60)
        }
    }
}

// MARK: The gPodder API's shapes (its own names, not v1's)

struct GPodderDevice: Codable, Sendable {
    var id: String
    var caption: String
    var type: String
    var subscriptions: Int
}

struct GPodderDeviceUpdate: Codable, Sendable {
    var caption: String?
    var type: String?
}

struct GPodderSubscriptionChanges: Codable, Sendable {
    var add: [String]
    var remove: [String]
    var timestamp: Int64
}

struct GPodderSubscriptionUpload: Codable, Sendable {
    var add: [String]?
    var remove: [String]?
}

struct GPodderUpdate: Codable, Sendable {
    var timestamp: Int64
    var updateUrls: [[String]]

    enum CodingKeys: String, CodingKey {
        case timestamp
        case updateUrls = "update_urls"
    }
}

struct GPodderEpisodeAction: Codable, Sendable {
    var podcast: String
    var episode: String
    var action: String
    var timestamp: String?
    var guid: String?
    var device: String?
    var started: Double?
    var position: Double?
    var total: Double?

    /// Whole seconds out, as apps read them (AntennaPod reads integers).
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(podcast, forKey: .podcast)
        try container.encode(episode, forKey: .episode)
        try container.encode(action, forKey: .action)
        try container.encodeIfPresent(timestamp, forKey: .timestamp)
        try container.encodeIfPresent(guid, forKey: .guid)
        try container.encodeIfPresent(device, forKey: .device)
        try container.encodeIfPresent(started.map { Int($0) }, forKey: .started)
        try container.encodeIfPresent(position.map { Int($0) }, forKey: .position)
        try container.encodeIfPresent(total.map { Int($0) }, forKey: .total)
    }
}

struct GPodderEpisodeActions: Codable, Sendable {
    var actions: [GPodderEpisodeAction]
    var timestamp: Int64
}
