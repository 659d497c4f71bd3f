import CloudMusicKit
import Foundation
import MPRIS
import MusicCore
import PlayerControl
import Synchronization

/// Carries out the state's effects with CloudMusicKit (server, player, queue, downloads) and posts what
/// comes of them back as actions.
final class PlayerRuntime: Sendable {
    let client: APIClient
    let repository: MusicRepository
    let player: MPVPlayer
    let list: MusicListManager
    let downloads: DownloadManager
    /// Conversations and messages, kept up to date by the event stream.
    let chat: ChatRepository
    /// Places in podcast episodes, kept offline and sent when the server answers.
    let episodeProgress: EpisodeProgressRepository
    let episodeState = Mutex(EpisodeTracking())
    /// The event stream's task while signed in.
    private let live = Mutex<Task<Void, Never>?>(nil)
    let post: @Sendable (AppAction) -> Void
    private let onSignedIn: @Sendable (_ userID: String, _ token: String, _ nickname: String?) -> Void
    private let onSignedOut: @Sendable () -> Void
    private let onVolume: @Sendable (Int) -> Void
    /// Where the sound goes now, and how to read the config's choice again.
    private let sound: SoundSettings
    private let rereadSound: (@Sendable () throws -> SoundSettings)?
    /// Whether the sound output has failed (and not worked since), as the list last said.
    private let outputFailed = Mutex(false)
    /// The newest search asked for: a search still waiting out the typing pause gives way to a newer one.
    private let latestSearch = Mutex(0)
    private let tasks = Mutex<[Task<Void, Never>]>([])
    /// The volume as last set, for `cloudmusic status` and MPRIS (the player does not report it back).
    private let volume: Mutex<Int>
    /// The desktop's media keys and now-playing widgets, when there is a session bus.
    let mediaSession: MPRISService?
    private let bridge = Mutex<NowPlayingBridge?>(nil)
    /// Changes run one at a time in the order pressed (two quick presses of J, or of +, must land in that
    /// order): one lane for the player and the queue, one for the server, so a slow like never holds up pause.
    private let lanes:
        [AppEffect.Lane: (stream: AsyncStream<AppEffect>, continuation: AsyncStream<AppEffect>.Continuation)]
    /// Signalled when the player lane reaches the quit: the changes pressed before q are done.
    private let quitReached = DispatchSemaphore(value: 0)

    /// How long typing must pause before a search goes out.
    static let searchPause: Duration = .milliseconds(150)

    init(
        client: APIClient, repository: MusicRepository, player: MPVPlayer, list: MusicListManager,
        downloads: DownloadManager, chat: ChatRepository, mediaSession: MPRISService?, volume: Int,
        post: @escaping @Sendable (AppAction) -> Void,
        onSignedIn: @escaping @Sendable (String, String, String?) -> Void,
        onSignedOut: @escaping @Sendable () -> Void, onVolume: @escaping @Sendable (Int) -> Void = { _ in },
        sound: SoundSettings = SoundSettings(output: .auto),
        rereadSound: (@Sendable () throws -> SoundSettings)? = nil
    ) {
        self.sound = sound
        self.rereadSound = rereadSound
        self.client = client
        self.repository = repository
        self.player = player
        self.list = list
        self.downloads = downloads
        self.chat = chat
        episodeProgress = EpisodeProgressRepository(repository: repository, store: downloads.store)
        self.mediaSession = mediaSession
        self.volume = Mutex(volume)
        lanes = [
            .player: AsyncStream<AppEffect>.makeStream(), .server: AsyncStream<AppEffect>.makeStream(),
        ]
        self.post = post
        self.onSignedIn = onSignedIn
        self.onSignedOut = onSignedOut
        self.onVolume = onVolume
    }

    /// Forwards the queue's, the player's and the downloads' events as actions, from now until `stop`.
    func start() async {
        let events = await list.events()
        let downloadEvents = await downloads.events()
        let chatChanges = await chat.changes()
        await postQueue()
        postDownloads()
        if let mediaSession { await connect(mediaSession) }
        for lane in lanes.values {
            let effects = lane.stream
            keep(
                Task { [weak self] in
                    for await effect in effects { await self?.run(effect) }
                })
        }
        keep(
            Task { [weak self] in
                for await event in events {
                    guard let self else { return }
                    switch event {
                    case .listChanged, .currentChanged, .modeChanged:
                        await self.postQueue()
                        if case .modeChanged(let mode) = event { self.mediaSession?.updateLoop(mode) }
                        if case .currentChanged(let song) = event {
                            await self.episodeCurrentChanged(song)
                            if let song { self.reportPlay(song) }
                        }
                    case .state(let state):
                        self.post(.playback(state))
                        if state == .paused { self.episodePaused() }
                    case .progress(let position, let duration):
                        self.post(.progress(position: position, duration: duration))
                        self.episodeProgressed(position: position, duration: duration)
                    case .skipped(let song, let message):
                        self.post(.notice("Skipped \(song.title): \(message)", isError: true))
                    case .soundOutput(let output):
                        self.post(.soundOutput(output))
                        self.outputFailed.withLock { $0 = output.problem != nil }
                        if case .failed(let failure) = output { Self.log(failure) }
                    }
                }
            })
        if rereadSound != nil { keep(Task { [weak self] in await self?.watchSoundSettings() }) }
        keep(
            Task { [weak self] in
                var last = ContinuousClock.now - .seconds(1)
                for await event in downloadEvents {
                    guard let self else { return }
                    // Progress comes many times a second; the screen needs a few.
                    if case .progress = event, ContinuousClock.now - last < .milliseconds(250) { continue }
                    last = ContinuousClock.now
                    self.postDownloads()
                }
            })
        keep(
            Task { [weak self] in
                for await change in chatChanges {
                    guard let self else { return }
                    await self.postChat(change)
                }
            })
        keep(
            Task { [weak self] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: .seconds(1))
                    self?.post(.tick)
                }
            })
    }

    /// While the sound output has failed, reads the config's sound settings each second; when they change (say
    /// to `audio_output = null`, or another `audio_device`), uses them and tries the song again.
    private func watchSoundSettings() async {
        guard let rereadSound else { return }
        var used = sound
        var lastError: String?
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(1))
            guard outputFailed.withLock({ $0 }) else { continue }
            do {
                let settings = try rereadSound()
                lastError = nil
                guard settings != used else { continue }
                used = settings
                player.setAudioOutput(settings.output, device: settings.device)
                post(.notice("The sound settings changed in the config: trying again.", isError: false))
                try await list.play()
            } catch {
                // A config being edited may be half written: say what is wrong once, not every second.
                let message = Self.message(for: error)
                if message != lastError { post(.notice(message, isError: true)) }
                lastError = message
            }
        }
    }

    /// What libmpv said, for player.log (standard error while the player draws): the screen has one sentence.
    private static func log(_ failure: SoundOutputFailure) {
        let lines = ([failure.message, "libmpv: \(failure.reason)"] + failure.log).joined(separator: "\n  ")
        FileHandle.standardError.write(Data("cloudmusic: \(lines)\n".utf8))
    }

    private func postChat(_ change: ChatRepository.Change) async {
        switch change {
        case .conversations:
            let snapshot = await chat.snapshot()
            post(
                .conversationsChanged(
                    snapshot.conversations, hasMore: snapshot.hasMore, unread: snapshot.unread))
        case .thread(let id):
            post(.threadChanged(conversationID: id, await chat.thread(id)))
        case .received(let message):
            post(.messageReceived(message))
        }
    }

    // MARK: Live events

    /// Opens the event stream for the signed-in person (replacing one already open): messages, reads and
    /// notifications show as they happen, and a queue saved on another device is taken up here.
    func startLive(chatToken: String?) {
        let stream = EventStream(client: client, chatToken: chatToken)
        post(.liveStatus(.connecting))
        let task = Task { [weak self] in
            do {
                for try await event in stream.events() {
                    guard let self else { return }
                    await self.handleLive(event)
                }
            } catch let error as APIError where error.kind == .unauthorized {
                guard let self, self.repository.userID != nil else { return }
                self.repository.restoreSession(token: nil, userID: nil)
                self.onSignedOut()
                self.post(.sessionExpired)
            } catch {
                self?.post(.liveStatus(.stopped("Live updates stopped: \(Self.message(for: error))")))
            }
        }
        live.withLock { old in
            old?.cancel()
            old = task
        }
    }

    func stopLive() {
        live.withLock { task in
            task?.cancel()
            task = nil
        }
        post(.liveStatus(.off))
    }

    private func handleLive(_ event: ServerEvent) async {
        switch event {
        case .ready:
            post(.liveStatus(.live))
        case .disconnected(let reason, _):
            post(.liveStatus(.retrying(reason)))
        case .replaced:
            post(
                .liveStatus(
                    .stopped("Live updates moved to another window signed in as you on this device.")))
        case .notification(let event):
            post(.notificationArrived(event.notification, unread: event.unread))
        case .queue(let event):
            try? await list.applyRemoteQueue(event.queue)
        case .likes(let event):
            post(.likesChangedElsewhere(songID: event.songId, liked: event.liked))
        case .reload:
            post(.reloadEverything)
            try? await list.syncWithServer()
        case .message, .read, .conversation:
            break
        }
        // Messages, reads and deleted conversations; a reload (or the first `ready`) loads the lists again.
        await chat.apply(event)
    }

    func stop() {
        live.withLock { $0?.cancel() }
        for lane in lanes.values { lane.continuation.finish() }
        for task in tasks.withLock({ $0 }) { task.cancel() }
        bridge.withLock { $0 = nil }
        mediaSession?.shutdown()
    }

    /// Media keys and desktop widgets: what plays goes out, their commands come back as the app's.
    private func connect(_ session: MPRISService) async {
        let client = client
        let bridge = await NowPlayingBridge(list: list, session: session) { song in
            (song.album?.icon ?? song.icon).map(client.url(for:))
        }
        self.bridge.withLock { $0 = bridge }
        session.updateVolume(Double(volume.withLock { $0 }) / 100)
        session.updateLoop(await list.snapshot().mode)
        let requests = session.requests()
        keep(
            Task { [weak self] in
                for await request in requests {
                    guard let self else { return }
                    switch request {
                    case .setVolume(let level): self.post(.remoteVolume(Int((level * 100).rounded())))
                    case .setLoopStatus(let status):
                        self.post(.remoteLoopMode(status == "Track" ? .single : .list))
                    case .setShuffle(let on): self.post(.remoteLoopMode(on ? .shuffle : .list))
                    case .stop: await self.list.pause()
                    case .quit: self.post(.remote(.quit))
                    case .raise: break
                    }
                }
            })
    }

    // MARK: The control socket

    /// Answers `cloudmusic pause|next|status|play <words>` from another terminal.
    func control(_ command: ControlCommand) async -> ControlResponse {
        do {
            switch command {
            case .play(let query):
                let songs = try await repository.search(query, size: 50).value.songs
                guard let first = songs.first else {
                    return ControlResponse(ok: false, message: "Nothing found for \"\(query)\".")
                }
                try await list.setList(songs, startAt: 0)
                return ControlResponse(ok: true, message: "Playing \(first.title)", status: await status())
            case .pause: await list.pause()
            case .resume: try await list.play()
            case .toggle: try await list.togglePlayPause()
            case .next: try await list.next()
            case .previous: try await list.previous()
            case .stop:
                await list.pause()
                await list.seek(to: 0)
            case .status: break
            }
            return ControlResponse(
                ok: true, message: command.name == "status" ? "" : "Done.", status: await status())
        } catch {
            return ControlResponse(
                ok: false, message: Self.message(for: error))
        }
    }

    private func status() async -> PlayerStatus {
        let snapshot = await list.snapshot()
        let song = snapshot.current
        return PlayerStatus(
            state: snapshot.state.rawValue, title: song?.title, artist: song?.artistNames,
            album: song?.album?.title,
            position: snapshot.position,
            duration: snapshot.duration ?? song.map { Double($0.duration) / 1000 },
            loopMode: snapshot.mode.rawValue, volume: volume.withLock { $0 },
            problem: snapshot.soundOutput.problem)
    }

    private func keep(_ task: Task<Void, Never>) { tasks.withLock { $0.append(task) } }

    private func postQueue() async {
        let snapshot = await list.snapshot()
        post(.queueChanged(songs: snapshot.songs, current: snapshot.currentIndex, mode: snapshot.mode))
        post(.playback(snapshot.state))
        post(.progress(position: snapshot.position, duration: snapshot.duration))
        post(.soundOutput(snapshot.soundOutput))
    }

    private func postDownloads() {
        guard let items = try? downloads.list() else { return }
        let entries = items.map { item in
            DownloadEntry(
                song: Self.placeholderSong(id: item.songID, title: item.title ?? item.songID),
                state: item.state == .completed ? "done" : item.state.rawValue, received: item.bytesDone,
                total: item.bytesTotal, message: item.error)
        }
        post(.downloadsChanged(entries))
    }

    /// A downloaded song as the downloads list knows it; playing it reads the local file.
    static func placeholderSong(id: String, title: String) -> Song {
        Song(
            id: id, title: title, icon: nil, uri: "v1/songs/\(id)/stream", style: 0, lyric: nil, singer: nil,
            artists: [], album: nil, genres: [], trackNumber: nil, discNumber: nil, year: nil, duration: 0,
            format: "", bitRate: 0, sampleRate: 0, channels: 0, clicksCount: 0, commentsCount: 0,
            playsCount: 0,
            createdAt: "", updatedAt: "")
    }

    private func reportPlay(_ song: Song) {
        guard repository.userID != nil, EpisodeSong.episodeID(of: song) == nil else { return }
        Task { _ = try? await repository.reportPlay(songID: song.id) }
    }

    // MARK: Effects

    /// Starts an effect: loads run side by side, changes one after another in their lane.
    func perform(_ effect: AppEffect) {
        if let lane = effect.lane {
            lanes[lane]?.continuation.yield(effect)
        } else {
            Task { await self.run(effect) }
        }
    }

    /// Runs an effect; a failure becomes a message on screen (or a sign-in screen when the session ended).
    private func run(_ effect: AppEffect) async {
        do {
            try await execute(effect)
        } catch let error as APIError where error.kind == .unauthorized && repository.userID != nil {
            if case .signIn = effect {
                post(.signInFailed(error.message))
            } else {
                repository.restoreSession(token: nil, userID: nil)
                stopLive()
                onSignedOut()
                post(.sessionExpired)
            }
        } catch {
            let message = Self.message(for: error)
            switch effect {
            case .signIn, .signUp, .sendCode: post(.signInFailed(message))
            case .loadHome: post(.homeFailed(message))
            case .loadLibrary(let tab, _): post(.libraryFailed(tab: tab, message))
            case .search(_, let generation): post(.searchFailed(generation: generation, message))
            case .openDetail(_, let id, _): post(.detailFailed(id: id, message))
            case .loadMyMusic: post(.myMusicFailed(message))
            case .loadComments: post(.commentsFailed(message))
            case .loadConversations: post(.conversationsFailed(message))
            case .openConversation(let id), .loadOlderMessages(let id):
                post(.threadFailed(conversationID: id, message))
            case .sendMessage(let text, _): post(.messageFailed(message, text: text))
            case .shareSong: post(.messageFailed(message, text: nil))
            case .loadNotifications: post(.notificationsFailed(message))
            case .loadPodcasts: post(.podcastsFailed(message))
            case .openPodcast(let id): post(.episodesFailed(podcastID: id, message))
            case .loadEpisodeComments(let id): post(.episodeCommentsFailed(episodeID: id, message))
            case .loadNewsChannels: post(.newsChannelsFailed(message))
            case .openNewsChannel(let id, _): post(.newsArticlesFailed(channelID: id, message))
            case .openNewsArticle(let id): post(.newsArticleFailed(id: id, message))
            case .loadLyric(let songID):
                post(.lyricLoaded(songID: songID, nil, message: "Lyrics unavailable: \(message)"))
            default: post(.notice(message, isError: true))
            }
        }
    }

    private func execute(_ effect: AppEffect) async throws {
        switch effect {
        case .signIn(let account, let password):
            try await signIn(account: account, password: password)
        case .signUp(let nickname, let account, let password, let code):
            _ = try await repository.signUp(
                Self.identifier(account), password: password, nickname: nickname, code: code)
            try await signIn(account: account, password: password)
        case .sendCode(let account):
            _ = try await repository.sendCode(to: Self.identifier(account), purpose: .register)
            post(.codeSent("A code is on its way to \(account). Type it in the Code field."))
        case .loadHome:
            try await loadHome()
        case .loadLibrary(let tab, let page):
            try await loadLibrary(tab: tab, page: page)
        case .search(let query, let generation):
            // Effects start as separate tasks in no set order, so an older one must not lower the mark.
            latestSearch.withLock { $0 = max($0, generation) }
            try await Task.sleep(for: Self.searchPause)
            guard latestSearch.withLock({ $0 }) == generation else { return }
            async let sheets = repository.searchSheets(query, page: 1, size: 30)
            async let users = repository.searchUsers(query, size: 30)
            let results = try await repository.search(query, size: 50).value
            // Sheets and people are extra: when their search fails, the songs, albums and artists still show.
            let found = (try? await sheets.value.data) ?? []
            let people = (try? await users) ?? []
            post(.searchAnswered(generation: generation, results, sheets: found, users: people))
        case .openDetail(let kind, let id, let title):
            post(.detailLoaded(try await loadDetail(kind, id: id, title: title)))
        case .loadMyMusic:
            try await loadMyMusic()
        case .playSongs(let songs, let start):
            try await list.setList(songs, startAt: start)
        case .addToQueue(let song):
            try await list.append([song])
        case .playQueueIndex(let index):
            try await list.play(at: index)
        case .togglePlayPause:
            try await list.togglePlayPause()
        case .next:
            try await list.next()
        case .previous:
            try await list.previous()
        case .seek(let delta):
            let snapshot = await list.snapshot()
            let end = snapshot.duration ?? .infinity
            await list.seek(to: min(max(0, snapshot.position + delta), max(0, end - 1)))
        case .setVolume(let level):
            volume.withLock { $0 = level }
            mediaSession?.updateVolume(Double(level) / 100)
            await player.setVolume(Double(level))
            onVolume(level)
        case .setLoopMode(let mode):
            try await list.setMode(mode)
        case .moveInQueue(let from, let to):
            try await list.move(from: from, to: to)
        case .removeFromQueue(let index):
            try await list.remove(at: index)
        case .clearQueue:
            try await list.clear()
        case .download(let song):
            try await downloads.enqueue(song: song)
        case .pauseDownload(let songID):
            try await downloads.pause(songID: songID)
        case .resumeDownload(let songID):
            try await downloads.resume(songID: songID)
        case .deleteDownload(let songID):
            try await downloads.delete(songID: songID)
            post(.notice("Download deleted.", isError: false))
        case .setLiked(let songID, let liked):
            _ =
                liked
                ? try await repository.likeSong(id: songID) : try await repository.unlikeSong(id: songID)
            post(.likedChanged(songID: songID, liked: liked))
        case .setCollected(let sheetID, let collected):
            if collected {
                _ = try await repository.collect(sheetID: sheetID)
            } else {
                try await repository.uncollect(sheetID: sheetID)
            }
            post(.collectedChanged(sheetID: sheetID, collected: collected))
        case .addToSheet(let songID, let sheetID):
            post(.addedToSheet(try await repository.addSongs([songID], toSheet: sheetID), created: false))
        case .createSheet(let title, let songID):
            let sheet = try await repository.createSheet(SheetDraft(title: title))
            post(.addedToSheet(try await repository.addSongs([songID], toSheet: sheet.id), created: true))
        case .loadLyric(let songID):
            try await loadLyric(songID: songID)
        case .loadComments(let songID, let cursor):
            let page = try await repository.comments(.song(songID), cursor: cursor, size: 50)
            post(.commentsLoaded(songID: songID, page.data, nextCursor: page.nextCursor, more: cursor != nil))
        case .postComment(let text, let songID, let replyTo):
            let comment = try await repository.postComment(
                text, on: replyTo.map { .replies(to: $0) } ?? .song(songID))
            post(.commentPosted(comment))
        case .likeComment(let id):
            post(.commentChanged(try await repository.likeComment(id: id)))
        case .unlikeComment(let likeID, let commentID):
            try await repository.unlike(likeID: likeID)
            post(.commentChanged(try await repository.comment(id: commentID)))
        case .loadConversations(let more):
            if more {
                try await chat.loadMoreConversations()
            } else {
                try await chat.loadConversations()
            }
        case .openConversation(let id):
            try await chat.loadMessages(id)
        case .loadOlderMessages(let id):
            try await chat.loadOlder(id)
        case .sendMessage(let text, let userID):
            post(.messageSent(try await chat.sendText(text, to: userID), to: userID))
        case .shareSong(let songID, let userID):
            post(.messageSent(try await chat.shareSong(songID, with: userID), to: userID))
            post(.notice("Shared.", isError: false))
        case .markConversationRead(let id, let messageID):
            try await chat.markRead(id, upTo: messageID)
        case .deleteMessage(let id, let conversationID):
            try await chat.deleteMessage(id, in: conversationID)
            post(.notice("Message deleted.", isError: false))
        case .deleteConversation(let id):
            try await chat.deleteConversation(id)
            post(.notice("Conversation deleted.", isError: false))
        case .loadUnreadCounts:
            guard repository.userID != nil else { return }
            async let notifications = repository.unreadNotifications()
            try await chat.refreshUnread()
            post(.notificationsUnread(try await notifications))
        case .loadNotifications(let cursor):
            let page = try await repository.notifications(cursor: cursor, size: 50)
            post(.notificationsLoaded(page.data, nextCursor: page.nextCursor, more: cursor != nil))
        case .markNotificationRead(let id):
            post(.notificationChanged(try await repository.markNotification(id: id, read: true)))
            post(.notificationsUnread(try await repository.unreadNotifications()))
        case .markAllNotificationsRead:
            try await repository.markNotificationsRead()
            post(.notificationsUnread(try await repository.unreadNotifications()))
        case .renameSheet(let id, let title):
            post(.sheetRenamed(try await repository.updateSheet(id: id, SheetDraft(title: title))))
        case .deleteSheet(let id):
            try await repository.deleteSheet(id: id)
            post(.sheetDeleted(id: id))
        case .removeFromSheet(let songID, let sheetID):
            post(
                .songRemovedFromSheet(
                    try await repository.removeSong(songID, fromSheet: sheetID), songID: songID))
        case .loadPodcasts: try await loadPodcasts()
        case .openPodcast(let id): try await openPodcast(id: id)
        case .setSubscribed(let podcastID, let subscribed):
            try await setSubscribed(podcastID: podcastID, subscribed)
        case .playEpisodes(let episodes, let start): try await playEpisodes(episodes, start: start)
        case .loadEpisodeComments(let id): try await loadEpisodeComments(episodeID: id)
        case .setEpisodeLiked(let id, let likeID): try await setEpisodeLiked(episodeID: id, likeID: likeID)
        case .setSpeed(let speed): await setSpeed(speed)
        case .loadNewsChannels: post(.newsChannelsLoaded(try await repository.newsChannels().value))
        case .openNewsChannel(let id, let cursor):
            let page = try await repository.newsArticles(channelID: id, cursor: cursor).value
            post(.newsArticlesLoaded(channelID: id, page, more: cursor != nil))
        case .openNewsArticle(let id):
            post(.newsArticleLoaded(try await repository.newsArticle(id: id).value))
        case .markNewsRead(let articleID, let read):
            try await repository.markNewsRead(read, articleID: articleID)
        case .markNewsChannelRead(let channelID):
            try await repository.markNewsChannelRead(channelID: channelID)
        case .quit:
            quitReached.signal()
        }
    }

    /// Waits, up to `limit`, for the changes pressed before quitting (the volume set last is the one the
    /// next start has: a q right after it used to end the program before the change was saved).
    func finishChangesBeforeQuit(within limit: Duration) {
        _ = quitReached.wait(timeout: .now() + .milliseconds(Int(limit.components.seconds) * 1000))
    }

    /// What to tell a person about a failure: the server's own sentence when there is one.
    static func message(for error: any Error) -> String {
        (error as? APIError)?.message ?? String(describing: error)
    }

    static func identifier(_ account: String) -> AccountIdentifier {
        account.contains("@") ? .email(account) : .phone(account)
    }

    private func signIn(account: String, password: String) async throws {
        let result = try await repository.login(
            Self.identifier(account), password: password, device: "cloudmusic terminal")
        let user = try? await repository.user(id: result.userId)
        onSignedIn(result.userId, result.session, user?.nickname)
        startLive(chatToken: result.chatToken)
        post(.signedIn(userID: result.userId, nickname: user?.nickname))
        // The server's queue, so playback goes on from another device.
        try? await list.syncWithServer()
    }

    private func loadHome() async throws {
        async let sheets = repository.sheets(page: 1, size: 20, order: .hot)
        async let newSongs = repository.songs(page: 1, size: 30, sort: .recent)
        let recent: [Song]
        if repository.userID != nil {
            recent =
                (try? await repository.history(order: .recent, page: 1, size: 30).value.data.map(\.song))
                ?? []
        } else {
            recent = []
        }
        post(
            .homeLoaded(
                sheets: try await sheets.value.data, newSongs: try await newSongs.value.data, recent: recent))
    }

    private func loadLibrary(tab: Int, page: Int) async throws {
        let size = AppState.pageSize
        switch tab {
        case 0:
            let result = try await repository.artists(page: page, size: size, sort: .name).value
            post(.libraryPage(.artists(result.data, page: page, next: result.next)))
        case 1:
            let result = try await repository.albums(page: page, size: size, sort: .name).value
            post(.libraryPage(.albums(result.data, page: page, next: result.next)))
        case 2:
            let result = try await repository.songs(page: page, size: size, sort: .name).value
            post(.libraryPage(.songs(result.data, page: page, next: result.next)))
        default:
            let result = try await repository.genres(page: page, size: size).value
            post(.libraryPage(.genres(result.data, page: page, next: result.next)))
        }
    }

    private func loadDetail(_ kind: DetailState.Kind, id: String, title: String) async throws -> DetailState {
        var detail = DetailState(kind: kind, id: id, title: title)
        detail.status = .loaded
        switch kind {
        case .sheet:
            let sheet = try await repository.sheet(id: id, songs: 500).value
            detail.title = sheet.title
            detail.subtitle =
                "\(sheet.user.nickname) · \(sheet.songsCount) songs · \(sheet.collectsCount) collects"
            detail.songs = sheet.songs ?? []
            detail.sheet = sheet
        case .album:
            let album = try await repository.album(id: id).value
            detail.title = album.title
            detail.subtitle = [album.artist?.name, album.year.map(String.init), "\(album.songsCount) songs"]
                .compactMap { $0 }.joined(separator: " · ")
            detail.songs = album.songs ?? []
        case .artist:
            let artist = try await repository.artist(id: id).value
            detail.title = artist.name
            detail.subtitle = "\(artist.albumsCount) albums · \(artist.songsCount) songs"
            detail.songs = artist.songs ?? []
            if detail.songs.isEmpty {
                detail.songs = try await repository.songs(page: 1, size: 100, sort: .name, artistID: id).value
                    .data
            }
        case .genre:
            let songs = try await repository.songs(page: 1, size: 100, sort: .name, genreID: id).value
            detail.subtitle = "\(songs.total) songs"
            detail.songs = songs.data
        }
        return detail
    }

    private func loadMyMusic() async throws {
        guard let userID = repository.userID else { return }
        async let created = repository.createdSheets(userID: userID, page: 1, size: 100)
        async let collected = repository.collectedSheets(userID: userID, page: 1, size: 100)
        let mine = try await created.value.data
        let likes = mine.first { $0.kind == "likes" }
        var liked: [Song] = []
        if let likes { liked = try await repository.sheetSongs(id: likes.id, page: 1, size: 100).value.data }
        post(
            .myMusicLoaded(
                created: mine, collected: try await collected.value.data, liked: liked))
    }

    private func loadLyric(songID: String) async throws {
        do {
            let lyric = try await repository.lyric(songID: songID).value.lyric
            post(
                .lyricLoaded(
                    songID: songID, lyric.lines.isEmpty ? nil : lyric,
                    message: lyric.lines.isEmpty ? "No lyrics" : nil))
        } catch let error as APIError where error.kind == .notFound {
            post(.lyricLoaded(songID: songID, nil, message: "No lyrics"))
        }
    }
}

extension MPRISService {
    /// MPRIS says loop and shuffle apart: one song is Track, the list (shuffled or not) is Playlist.
    func updateLoop(_ mode: LoopMode) {
        updateLoop(status: mode == .single ? "Track" : "Playlist", shuffle: mode == .shuffle)
    }
}

extension AppEffect {
    enum Lane { case player, server }

    /// Where a change waits its turn; nil for loads, which only fetch and may run side by side in any order.
    var lane: Lane? {
        switch self {
        case .signIn, .signUp, .sendCode, .loadHome, .loadLibrary, .search, .openDetail, .loadMyMusic,
            .loadLyric,
            .loadComments, .loadConversations, .openConversation, .loadOlderMessages, .loadUnreadCounts,
            .loadNotifications, .loadPodcasts, .openPodcast, .loadEpisodeComments, .loadNewsChannels,
            .openNewsChannel,
            .openNewsArticle:
            nil
        case .setLiked, .setCollected, .addToSheet, .createSheet, .postComment, .likeComment, .unlikeComment,
            .download,
            .deleteDownload, .pauseDownload, .resumeDownload, .sendMessage, .shareSong, .markConversationRead,
            .deleteMessage, .deleteConversation, .markNotificationRead, .markAllNotificationsRead,
            .renameSheet,
            .deleteSheet, .removeFromSheet, .setSubscribed, .setEpisodeLiked, .markNewsRead,
            .markNewsChannelRead:
            .server
        case .playSongs, .addToQueue, .playQueueIndex, .togglePlayPause, .next, .previous, .seek, .setVolume,
            .setLoopMode, .moveInQueue, .removeFromQueue, .clearQueue, .playEpisodes, .setSpeed, .quit:
            .player
        }
    }
}
