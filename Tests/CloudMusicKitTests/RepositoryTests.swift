import Foundation
import MusicCore
import ServerTestSupport
import Testing

@testable import CloudMusicKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Every MusicRepository method against the real server on the demo library, and the APIClient's errors,
/// retries, timeouts and cancellation. Each test shares one server.
@Suite struct RepositoryTests {
    static func client(_ server: TestServer) -> APIClient {
        var configuration = APIClient.Configuration()
        configuration.baseRetryDelay = 0.05
        return APIClient(baseURL: server.baseURL, configuration: configuration)
    }

    /// A signed-in person on `server`, with a repository of their own.
    static func person(_ server: TestServer, _ name: String) async throws -> (MusicRepository, TestPerson) {
        let person = try await server.person(name, device: "tests")
        let repository = MusicRepository(client: client(server))
        repository.restoreSession(token: person.session, userID: person.id)
        return (repository, person)
    }

    /// A small picture made by ffmpeg.
    static func picture(_ color: String) async throws -> UploadPart {
        let path = temporaryFolder() + "/\(color).png"
        try await runChecked(
            "/usr/bin/ffmpeg",
            [
                "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "color=c=\(color):s=96x64",
                "-frames:v", "1", path,
            ])
        return UploadPart(
            fileName: "\(color).png", contentType: "image/png",
            data: try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    static func expectAPIError(
        _ kind: APIError.Kind, _ body: () async throws -> Void,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        do {
            try await body()
            Issue.record("expected \(kind)", sourceLocation: sourceLocation)
        } catch let error as APIError {
            #expect(error.kind == kind, "\(error)", sourceLocation: sourceLocation)
            #expect(!error.message.isEmpty, sourceLocation: sourceLocation)
        } catch {
            Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
        }
    }

    // MARK: Catalog and the client

    @Test func catalogSearchLyricsAndTheClientsErrors() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let client = Self.client(server)
        let repository = MusicRepository(client: client)

        #expect(try await repository.serverInfo().apiVersion.isEmpty == false)
        let songs = try await repository.songs(size: 100, sort: .name)
        #expect(songs.total == songs.data.count && songs.total > 10)
        #expect(!songs.isFromCache)
        let song = try await repository.song(id: songs.data[0].id).value
        #expect(song.id == songs.data[0].id)
        #expect(client.url(for: song.uri).absoluteString == server.baseURL.absoluteString + song.uri)
        #expect(client.url(for: "/" + song.uri) == client.url(for: song.uri))
        #expect(client.url(for: "http://elsewhere/x.mp3").absoluteString == "http://elsewhere/x.mp3")

        let albums = try await repository.albums(size: 50)
        #expect(albums.total > 0)
        let album = try await repository.album(id: albums.data[0].id).value
        #expect(album.songs?.isEmpty == false)
        #expect(try await repository.songs(albumID: album.id).data.map(\.id) == album.songs?.map(\.id))
        #expect(try await repository.albums(artistID: album.artist?.id).total >= 1)
        let artists = try await repository.artists(sort: .name)
        #expect(artists.total > 0)
        let artist = try await repository.artist(id: artists.data[0].id).value
        #expect(artist.name == artists.data[0].name)
        #expect(try await repository.songs(artistID: artist.id).total >= 1)
        let genres = try await repository.genres()
        if let genre = genres.data.first {
            #expect(try await repository.songs(genreID: genre.id).total == genre.songsCount)
        }

        // Lyrics: a KSC one and an LRC one of the demo library, parsed for line lookups.
        var formats = Set<LyricFormat>()
        for song in songs.data {
            do {
                let lyric = try await repository.lyric(songID: song.id).value
                #expect(lyric.songId == song.id)
                #expect(!lyric.lines.isEmpty)
                #expect(lyric.lyric.lineIndex(at: lyric.lines[0].start) == 0)
                formats.insert(lyric.format)
            } catch let error as APIError where error.kind == .notFound {
                #expect(error.message.contains("lyric"))
            }
        }
        #expect(formats == [.lrc, .ksc])

        let results = try await repository.search("雨")
        #expect(!results.songs.isEmpty)
        #expect(try await repository.search("northern").songs.contains { $0.title == "Northern Lights" })
        let suggestions = try await repository.suggestions("Nor")
        #expect(suggestions.contains { $0.title.hasPrefix("Nor") })

        // Errors carry the kind and the server's sentence.
        await Self.expectAPIError(.notFound) { _ = try await repository.song(id: "999999") }
        await Self.expectAPIError(.unauthorized) { _ = try await repository.queue() }
        await Self.expectAPIError(.badRequest) { _ = try await repository.songs(size: 1000) }
        await Self.expectAPIError(.unauthorized) {
            try await repository.login(.email("nobody@example.com"), password: "wrong-password")
        }

        // 429 with Retry-After: six comments in a minute; POSTs are never retried.
        let (talker, _) = try await Self.person(server, "talker")
        var limited: APIError?
        for n in 1...7 where limited == nil {
            do { _ = try await talker.postComment("comment \(n)", on: .song(song.id)) } catch let error
                as APIError
            {
                limited = error
            }
        }
        let rateLimited = try #require(limited)
        guard case .rateLimited(let retryAfter) = rateLimited.kind else {
            Issue.record("expected rateLimited, got \(rateLimited)")
            return
        }
        #expect((retryAfter ?? 0) > 0)
        #expect(rateLimited.httpStatus == 429)
        #expect(rateLimited.message.contains("minute") || rateLimited.message.contains("second"))

        // A server that is gone: GET is retried up to maxAttempts, POST is sent once.
        let gone = try CuttingProxy(targetPort: 1, cutFirstAfter: 0)
        defer { gone.stop() }
        let goneClient = Self.client(server)
        let viaProxy = APIClient(
            baseURL: URL(string: "http://127.0.0.1:\(gone.port)/")!, configuration: goneClient.configuration)
        await Self.expectAPIError(.network) { _ = try await viaProxy.sendRaw(APIRequest(.GET, "v1/songs")) }
        #expect(gone.connections == viaProxy.configuration.maxAttempts)
        await Self.expectAPIError(.network) {
            _ = try await viaProxy.sendRaw(try APIRequest.json(.POST, "v1/plays", ["songId": song.id]))
        }
        #expect(gone.connections == viaProxy.configuration.maxAttempts + 1)

        // A server that never answers: the per-request timeout, and cancellation.
        let silent = try SilentListener()
        var quick = APIClient.Configuration()
        quick.timeout = 0.5
        quick.maxAttempts = 1
        let hanging = APIClient(
            baseURL: URL(string: "http://127.0.0.1:\(silent.port)/")!, configuration: quick)
        let start = Date()
        await Self.expectAPIError(.network) { _ = try await hanging.sendRaw(APIRequest(.GET, "v1/songs")) }
        #expect(Date().timeIntervalSince(start) < 10)
        let patient = APIClient(baseURL: URL(string: "http://127.0.0.1:\(silent.port)/")!)
        let task = Task { try await patient.sendRaw(APIRequest(.GET, "v1/songs")) }
        try await Task.sleep(for: .milliseconds(200))
        let cancelledAt = Date()
        task.cancel()
        do {
            _ = try await task.value
            Issue.record("expected a cancellation")
        } catch let error as APIError {
            #expect(error.kind == .cancelled)
        }
        #expect(Date().timeIntervalSince(cancelledAt) < 5)
    }

    // MARK: Accounts, sheets, likes, plays and the queue

    @Test func accountsSheetsCollectionsLikesPlaysAndQueue() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let (alice, aliceUser) = try await Self.person(server, "alice")
        let (bob, bobUser) = try await Self.person(server, "bob")
        let songs = try await alice.songs(size: 10).data
        let ids = songs.map(\.id)

        // Profile, avatar, sessions, password.
        #expect(try await alice.user(id: aliceUser.id).email == "alice@example.com")
        #expect(try await bob.user(id: aliceUser.id).email == nil)
        let changed = try await alice.updateProfile(
            userID: aliceUser.id, ProfileChange(description: "Listens a lot", gender: 20, city: "Hangzhou"))
        #expect(changed.gender == 20 && changed.city == "Hangzhou")
        let avatar = try await alice.uploadAvatar(userID: aliceUser.id, try await Self.picture("blue"))
        #expect(avatar.icon != nil)
        let second = MusicRepository(client: Self.client(server))
        try await second.login(.email("alice@example.com"), password: "password-alice", device: "second")
        let devices = try await alice.sessions()
        #expect(devices.count == 2)
        let other = try #require(devices.first { !$0.current })
        try await alice.endSession(id: other.id)
        await Self.expectAPIError(.unauthorized) { _ = try await second.queue() }
        try await second.login(.email("alice@example.com"), password: "password-alice")
        try await second.logout()
        #expect(second.client.sessionToken == nil)
        try await bob.changePassword(userID: bobUser.id, current: "password-bob", new: "password-bob-2")
        try await bob.login(.email("bob@example.com"), password: "password-bob-2")
        let sent = try await bob.sendCode(to: .email("bob@example.com"), purpose: .reset)
        #expect(sent.expiresIn > 0)
        await Self.expectAPIError(.badRequest) {
            try await bob.checkCode("000000", for: .email("bob@example.com"), purpose: .reset)
        }
        await Self.expectAPIError(.badRequest) {
            try await bob.resetPassword(
                .email("bob@example.com"), code: "000000", newPassword: "password-bob-3")
        }
        // Alice, the first user, is the administrator: the outbox has Bob's code, which resets his password.
        let message = try #require(try await alice.outbox().data.first { $0.target == "bob@example.com" })
        let code = String(try #require(message.text.firstMatch(of: /\d{6}/)).output)
        try await bob.checkCode(code, for: .email("bob@example.com"), purpose: .reset)
        try await bob.resetPassword(.email("bob@example.com"), code: code, newPassword: "password-bob-3")
        await Self.expectAPIError(.unauthorized) { _ = try await bob.queue() }
        try await bob.login(.email("bob@example.com"), password: "password-bob-3")
        #expect(try await alice.adminUsers().total == 2)
        await Self.expectAPIError(.forbidden) { _ = try await bob.adminUsers() }
        #expect(try await alice.setUserDisabled(id: bobUser.id, true).disabled == true)
        await Self.expectAPIError(.unauthorized) { _ = try await bob.queue() }
        #expect(try await alice.setUserDisabled(id: bobUser.id, false).disabled == false)
        try await bob.login(.email("bob@example.com"), password: "password-bob-3")
        #expect(try await alice.libraryScan().running == false)
        _ = try await alice.startLibraryScan()
        await Self.expectAPIError(.forbidden) { _ = try await bob.startLibraryScan() }

        // Sheets: create, change, add, move, remove, cover, M3U and import.
        let sheet = try await alice.createSheet(
            SheetDraft(title: "Evening", detail: "Slow songs", tags: ["calm"]))
        #expect(sheet.songsCount == 0 && sheet.kind == "sheet")
        #expect(
            try await alice.updateSheet(id: sheet.id, SheetDraft(title: "Late evening")).title
                == "Late evening")
        #expect(try await alice.addSongs(Array(ids.prefix(5)), toSheet: sheet.id).songsCount == 5)
        _ = try await alice.moveSong(ids[4], inSheet: sheet.id, to: 0)
        #expect(try await alice.sheetSongs(id: sheet.id).data.first?.id == ids[4])
        #expect(try await alice.removeSong(ids[4], fromSheet: sheet.id).songsCount == 4)
        #expect(try await alice.removeSongs([ids[0], ids[1]], fromSheet: sheet.id).songsCount == 2)
        #expect(try await alice.sheet(id: sheet.id, songs: 10).songs?.map(\.id) == [ids[2], ids[3]])
        #expect(try await alice.uploadSheetCover(id: sheet.id, try await Self.picture("red")).icon != nil)
        _ = try await alice.deleteSheetCover(id: sheet.id)
        let m3u = try await alice.sheetM3U(id: sheet.id)
        #expect(m3u.hasPrefix("#EXTM3U"))
        let imported = try await bob.importSheet(m3u: m3u, title: "Copied")
        #expect(imported.matched == 2 && imported.sheet.title == "Copied")
        await Self.expectAPIError(.forbidden) { _ = try await bob.addSongs([ids[0]], toSheet: sheet.id) }
        #expect(try await bob.sheets().data.contains { $0.id == sheet.id })
        #expect(try await bob.searchSheets("evening").data.contains { $0.id == sheet.id })
        #expect(try await alice.createdSheets(userID: aliceUser.id).data.map(\.kind).first == "likes")

        // Collections.
        #expect(try await bob.collect(sheetID: sheet.id).collected == true)
        #expect(try await bob.collectedSheets(userID: bobUser.id).data.map(\.id) == [sheet.id])
        try await bob.uncollect(sheetID: sheet.id)
        #expect(try await bob.collectedSheets(userID: bobUser.id).total == 0)

        // Likes of songs: the "I like" sheet.
        let liked = try await alice.likeSong(id: ids[0])
        #expect(liked.kind == "likes" && liked.songsCount == 1)
        #expect(try await alice.likeSong(id: ids[0]).songsCount == 1)
        #expect(try await alice.unlikeSong(id: ids[0]).songsCount == 0)

        // Plays and history.
        #expect(try await alice.reportPlay(songID: ids[1]).counted)
        #expect(try await alice.reportPlay(songID: ids[1]).counted == false)
        _ = try await alice.reportPlay(songID: ids[2])
        let history = try await alice.history()
        #expect(Set(history.data.map(\.song.id)) == [ids[2], ids[1]])
        #expect(try await alice.history(order: .most).total == 2)
        try await alice.clearHistory()
        #expect(try await alice.history().total == 0)

        // The queue, with a version conflict.
        #expect(try await alice.queue().version == 0)
        let saved = try await alice.saveQueue(
            QueueDraft(
                songIds: try .ids(Array(ids.prefix(3)), field: "songIds"), currentIndex: 1, position: 1500))
        #expect(saved.version == 1 && saved.currentIndex == 1)
        let next = try await alice.saveQueue(
            QueueDraft(
                songIds: try .ids(Array(ids.prefix(4)), field: "songIds"), currentIndex: 2,
                loopMode: .shuffle, baseVersion: saved.version
            ))
        #expect(next.version == 2 && next.loopMode == .shuffle)
        await Self.expectAPIError(.conflict) {
            _ = try await alice.saveQueue(
                QueueDraft(songIds: try .ids([ids[0]], field: "songIds"), baseVersion: saved.version))
        }
        #expect(try await alice.queue() == next)

        // Deleting a sheet, then an account.
        try await alice.deleteSheet(id: sheet.id)
        await Self.expectAPIError(.notFound) { _ = try await alice.sheet(id: sheet.id) }
        try await bob.deleteAccount(userID: bobUser.id, password: "password-bob-3")
        await Self.expectAPIError(.notFound) { _ = try await alice.user(id: bobUser.id) }
    }

    // MARK: Comments, moments, follows and notifications

    @Test func commentsMomentsFollowsAndNotifications() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let (ann, annUser) = try await Self.person(server, "ann")
        let (ben, benUser) = try await Self.person(server, "ben")
        let (cat, catUser) = try await Self.person(server, "cat")
        let song = try await ann.songs(size: 1).data[0]

        // Follows.
        #expect(try await ben.follow(userID: annUser.id).id == annUser.id)
        _ = try await ann.follow(userID: benUser.id)
        #expect(try await ann.following(userID: annUser.id).data.map(\.id) == [benUser.id])
        #expect(try await ann.followers(userID: annUser.id).data.map(\.id) == [benUser.id])
        #expect(try await ann.friends(userID: annUser.id).data.map(\.id) == [benUser.id])
        #expect(try await ann.searchUsers("be").contains { $0.id == benUser.id })
        _ = try await cat.follow(userID: annUser.id)
        try await cat.unfollow(userID: annUser.id)
        #expect(try await ann.followers(userID: annUser.id).total == 1)

        // Comments: write, reply, like, list, report, delete; a #topic# and an @mention.
        let comment = try await ann.postComment("Lovely song #夜晚# @ben", on: .song(song.id))
        #expect(comment.mentions.map(\.userId) == [benUser.id])
        #expect(comment.topics.map(\.title) == ["夜晚"])
        let reply = try await ben.postComment("Agreed", on: .replies(to: comment.id))
        #expect(reply.parentId == comment.id && reply.parent?.id == comment.id)
        let likedComment = try await ben.likeComment(id: comment.id)
        #expect(likedComment.likesCount == 1 && likedComment.likeId != nil)
        #expect(try await ann.comments(.song(song.id)).data.map(\.id).contains(comment.id))
        #expect(try await ann.comments(.replies(to: comment.id)).data.map(\.id) == [reply.id])
        #expect(try await ann.comments(.song(song.id), order: .hot, size: 1).size == 1)
        #expect(try await cat.comment(id: comment.id).likesCount == 1)
        try await cat.reportComment(id: reply.id, reason: "testing reports")
        let report = try #require(try await ann.commentReports().data.first)
        #expect(report.comment.id == reply.id && report.reasons == ["testing reports"])
        try await ann.setCommentHidden(id: reply.id, true)
        #expect(try await ann.comments(.replies(to: comment.id)).total == 0)
        try await ann.setCommentHidden(id: reply.id, false)
        try await ben.unlike(likeID: try #require(likedComment.likeId))
        #expect(try await cat.comment(id: comment.id).likesCount == 0)
        let doomed = try await cat.postComment("to be deleted", on: .song(song.id))
        try await cat.deleteComment(id: doomed.id)
        await Self.expectAPIError(.notFound) { _ = try await cat.comment(id: doomed.id) }

        // Topics.
        let topics = try await ann.topics()
        let topic = try #require(topics.data.first { $0.title == "夜晚" })
        let detail = try await ann.topic(id: topic.id)
        #expect(detail.comments.map(\.id) == [comment.id])

        // A moment with an uploaded picture and a place; its comments and likes.
        let stored = try await ann.upload([try await Self.picture("green")])
        #expect(stored.count == 1 && stored[0].width == 96 && stored[0].mime == "image/png")
        let (pictureBytes, _) = try await URLSession.shared.data(from: ann.client.url(for: stored[0].uri))
        #expect(pictureBytes.count == stored[0].size)
        let moment = try await ann.publishFeed(
            MomentDraft(
                content: "By the lake #夜晚#", images: [.init(uri: stored[0].uri)], city: "Hangzhou",
                place: "West Lake",
                latitude: 30.25, longitude: 120.15))
        #expect(moment.images.first?.uri == stored[0].uri && moment.place == "West Lake")
        #expect(try await ben.feed(id: moment.id).id == moment.id)
        #expect(try await cat.feeds().data.map(\.id).contains(moment.id))
        #expect(try await cat.feeds(userID: annUser.id).data.map(\.id) == [moment.id])
        #expect(try await cat.feeds(topicID: topic.id).data.map(\.id) == [moment.id])
        #expect(try await ben.timeline().data.map(\.id) == [moment.id])
        #expect(try await cat.timeline().data.isEmpty)
        let nearby = try await cat.nearbyFeeds(latitude: 30.26, longitude: 120.16, radius: 5000)
        #expect(nearby.data.map(\.id) == [moment.id])
        #expect((nearby.data.first?.distance ?? 0) > 0)
        #expect(try await cat.nearbyFeeds(latitude: 0, longitude: 0).data.isEmpty)
        let likedMoment = try await ben.likeFeed(id: moment.id)
        #expect(likedMoment.likesCount == 1 && likedMoment.likeId != nil)
        let onMoment = try await cat.postComment("Beautiful", on: .feed(moment.id))
        #expect(try await ann.comments(.feed(moment.id)).data.map(\.id) == [onMoment.id])

        // Notifications: Ann was followed, replied to, liked, commented on, and mentioned Ben.
        let unread = try await ann.unreadNotifications()
        #expect(unread.count >= 3)
        let inbox = try await ann.notifications(size: 50)
        let kinds = Set(inbox.data.map(\.kind))
        #expect(kinds.isSuperset(of: ["follow", "reply", "like"]))
        #expect(try await ben.notifications().data.contains { $0.kind == "mention" })
        let first = try #require(inbox.data.first)
        #expect(try await ann.markNotification(id: first.id, read: true).read)
        #expect(try await ann.unreadNotifications().count == unread.count - 1)
        #expect(try await ann.notifications(unreadOnly: true).data.allSatisfy { !$0.read })
        try await ann.markNotificationsRead()
        #expect(try await ann.unreadNotifications().count == 0)

        // Blocks; deleting a moment.
        try await ann.block(userID: catUser.id)
        #expect(try await ann.blocks().data.map(\.id) == [catUser.id])
        await Self.expectAPIError(.forbidden) { _ = try await cat.follow(userID: annUser.id) }
        try await ann.unblock(userID: catUser.id)
        #expect(try await ann.blocks().total == 0)
        try await ann.deleteFeed(id: moment.id)
        await Self.expectAPIError(.notFound) { _ = try await ben.feed(id: moment.id) }
    }

    // MARK: Retry policy

    @Test func retriesWaitForRetryAfterAndBackOffOnlyOnTransientFailures() {
        var configuration = APIClient.Configuration()
        configuration.baseRetryDelay = 0.1
        configuration.maxRetryDelay = 10
        let client = APIClient(baseURL: URL(string: "http://127.0.0.1:1/")!, configuration: configuration)
        func delay(_ kind: APIError.Kind, _ status: Int? = nil, attempt: Int = 1) -> Double? {
            client.retryDelay(for: APIError(kind: kind, httpStatus: status, message: "x"), attempt: attempt)
        }
        #expect(delay(.rateLimited(retryAfter: 3), 429)! >= 3)
        #expect(delay(.rateLimited(retryAfter: 60), 429) == nil)
        #expect(delay(.server, 503) != nil && delay(.server, 502) != nil && delay(.server, 504) != nil)
        #expect(delay(.server, 500) == nil)
        #expect(delay(.notFound, 404) == nil && delay(.badRequest, 400) == nil && delay(.cancelled) == nil)
        let first = delay(.network, attempt: 1)!
        let third = delay(.network, attempt: 3)!
        #expect(first >= 0.1 && first <= 0.2)
        #expect(third >= 0.4 && third <= 0.8)
        #expect(delay(.network, attempt: 20)! <= 10)
        #expect(APIRequest(.GET, "v1/songs").isIdempotent && !APIRequest(.POST, "v1/plays").isIdempotent)
        #expect(
            !APIRequest(.PUT, "v1/users/1/password").isIdempotent
                && !APIRequest(.DELETE, "v1/likes/1").isIdempotent)
        #expect(
            APIRequest(
                .GET, "v1/songs", query: [.init(name: "size", value: "2"), .init(name: "page", value: "1")]
            ).cacheKey
                == "GET v1/songs?page=1&size=2")
    }
}
