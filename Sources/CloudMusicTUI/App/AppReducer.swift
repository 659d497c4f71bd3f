import CloudMusicKit
import MusicCore

extension AppState {
    /// Seconds a seek key moves.
    static let seekStep = 5.0
    /// Percent a volume key moves.
    static let volumeStep = 5
    /// Items asked for per page of a library tab.
    static let pageSize = 100

    /// Applies what happened to the state and returns the work it asks for. Pure: no I/O, no clock.
    public mutating func reduce(_ action: AppAction) -> [AppEffect] {
        if let effects = reduceSocial(action) { return effects }
        if let effects = reduceSession(action) { return effects }
        if let effects = reduceLoaded(action) { return effects }
        if let effects = reducePlayback(action) { return effects }
        if let effects = reduceComments(action) { return effects }
        if let effects = reduceMine(action) { return effects }
        if let effects = reducePodcasts(action) { return effects }
        if let effects = reduceNews(action) { return effects }
        switch action {
        case .key(let key): return handle(key)
        case .tick:
            if var toast {
                toast.ticksLeft -= 1
                self.toast = toast.ticksLeft > 0 ? toast : nil
            }
            return []
        case .notice(let message, let isError):
            show(message, isError: isError)
            return []
        default:
            // Messages, notifications and sheets: `reduceSocial`.
            return []
        }
    }

    /// Signing in and out; nil for any other action.
    private mutating func reduceSession(_ action: AppAction) -> [AppEffect]? {
        switch action {
        case .signedIn(let userID, let nickname):
            self.userID = userID
            self.nickname = nickname
            login = LoginState()
            if screen == .login { screen = .home }
            show("Signed in as \(nickname ?? userID).")
            return [.loadHome, .loadMyMusic, .loadUnreadCounts, .loadConversations(more: false)]
        case .signInFailed(let message):
            login.busy = false
            login.message = message
            login.messageIsError = true
            return []
        case .codeSent(let message):
            login.message = message
            login.messageIsError = false
            return []
        case .sessionExpired:
            userID = nil
            nickname = nil
            myMusic = MyMusicState()
            messages = MessagesState()
            chat = nil
            notifications = NotificationsState()
            sharePicker = nil
            confirmation = nil
            prompt = nil
            login = LoginState()
            login.message = "Your session has ended. Sign in again."
            login.messageIsError = true
            screen = .login
            backStack = []
            return []
        default:
            return nil
        }
    }

    /// Pages that arrived, or failed to; nil for any other action.
    private mutating func reduceLoaded(_ action: AppAction) -> [AppEffect]? {
        switch action {
        case .homeLoaded(let sheets, let newSongs, let recent):
            home.sheets = sheets
            home.newSongs = newSongs
            home.recent = recent
            home.status = .loaded
            clampHome()
            return []
        case .homeFailed(let message):
            home.status = .failed(message)
            return []
        case .libraryPage(let page):
            receive(page)
            return []
        case .libraryFailed(let tab, let message):
            switch tab {
            case 0: library.artists.status = .failed(message)
            case 1: library.albums.status = .failed(message)
            case 2: library.songs.status = .failed(message)
            default: library.genres.status = .failed(message)
            }
            return []
        case .searchAnswered(let generation, let results, let sheets, let users):
            guard generation == search.generation else { return [] }
            search.results = results
            search.sheets = sheets
            search.users = users
            search.status = .loaded
            if search.count(of: search.section) == 0,
                let first = (0..<SearchState.sectionCount).first(where: { search.count(of: $0) > 0 })
            {
                search.section = first
            }
            search.list.clamp(count: search.count(of: search.section))
            if search.playFirstAnswer {
                search.playFirstAnswer = false
                guard !results.songs.isEmpty else {
                    show("Nothing found for \"\(search.query)\".", isError: true)
                    return []
                }
                screen = .nowPlaying
                return [.playSongs(results.songs, start: 0)]
            }
            return []
        case .searchFailed(let generation, let message):
            guard generation == search.generation else { return [] }
            search.status = .failed(message)
            return []
        case .detailLoaded(let loaded):
            guard detail?.id == loaded.id, detail?.kind == loaded.kind else { return [] }
            var loaded = loaded
            loaded.list = detail?.list ?? ListCursor()
            loaded.list.clamp(count: loaded.songs.count)
            detail = loaded
            return []
        case .detailFailed(let id, let message):
            if detail?.id == id { detail?.status = .failed(message) }
            return []
        case .myMusicLoaded(let created, let collected, let liked):
            myMusic.created = created
            myMusic.collected = collected
            myMusic.liked = liked
            myMusic.status = .loaded
            myMusic.list.clamp(count: myMusic.count(of: myMusic.tab))
            return []
        case .myMusicFailed(let message):
            myMusic.status = .failed(message)
            return []
        default:
            return nil
        }
    }

    /// The player (its queue, state, position, sound output and lyrics) and the desktop's remote control; nil
    /// for any other action.
    private mutating func reducePlayback(_ action: AppAction) -> [AppEffect]? {
        switch action {
        case .queueChanged(let songs, let current, let mode):
            queue = songs
            queueIndex = current
            queueList.clamp(count: songs.count)
            playing.mode = mode
            let song = current.flatMap { songs[safe: $0] }
            guard song?.id != playing.song?.id else { return [] }
            playing.song = song
            playing.position = 0
            playing.duration = Double(song?.duration ?? 0) / 1000
            playing.lyric = nil
            playing.lyricSongID = nil
            guard let song else { return [] }
            if EpisodeSong.episodeID(of: song) != nil {
                playing.lyricStatus = "A podcast episode: no lyrics"
                return []
            }
            playing.lyricStatus = "Loading lyrics…"
            return [.loadLyric(songID: song.id)]
        case .playback(let state):
            playing.playback = state
            return []
        case .progress(let position, let duration):
            playing.position = position
            if let duration, duration > 0 { playing.duration = duration }
            return []
        case .soundOutput(let output):
            playing.soundOutput = output
            return []
        case .lyricLoaded(let songID, let lyric, let message):
            guard songID == playing.song?.id else { return [] }
            playing.lyric = lyric
            playing.lyricSongID = songID
            playing.lyricStatus = message
            return []
        case .remote(let command):
            return run(command)
        case .remoteVolume(let volume):
            playing.volume = min(100, max(0, volume))
            return [.setVolume(playing.volume)]
        case .remoteLoopMode(let mode):
            playing.mode = mode
            return [.setLoopMode(mode)]
        default:
            return nil
        }
    }

    /// The comments of the song open on the comments screen; nil for any other action.
    private mutating func reduceComments(_ action: AppAction) -> [AppEffect]? {
        switch action {
        case .commentsLoaded(let songID, let page, let nextCursor, let more):
            guard songID == comments.songID else { return [] }
            // Keep the selection on the same comment: a later page can bring the parents of replies already shown.
            let selectedID = comments.comments[safe: comments.list.selected]?.id
            let known = Set(comments.comments.map(\.id))
            let all = more ? comments.comments + page.filter { !known.contains($0.id) } : page
            comments.comments = CommentsView.threaded(all).map(\.comment)
            comments.nextCursor = nextCursor
            comments.loadingMore = false
            comments.status = .loaded
            if more, let selectedID, let index = comments.comments.firstIndex(where: { $0.id == selectedID })
            {
                comments.list.selected = index
            }
            comments.list.clamp(count: comments.comments.count)
            return []
        case .commentsFailed(let message):
            comments.status = .failed(message)
            comments.loadingMore = false
            return []
        case .commentPosted(let comment):
            guard comment.songId == comments.songID else { return [] }
            if let parentID = comment.parentId,
                let index = comments.comments.firstIndex(where: { $0.id == parentID })
            {
                comments.comments[index].repliesCount += 1
            }
            comments.comments = CommentsView.threaded(
                comment.parentId == nil ? [comment] + comments.comments : comments.comments + [comment]
            ).map(\.comment)
            comments.list.selected = comments.comments.firstIndex { $0.id == comment.id } ?? 0
            show(comment.parentId == nil ? "Comment posted." : "Reply posted.")
            return []
        case .commentChanged(let comment):
            if let index = comments.comments.firstIndex(where: { $0.id == comment.id }) {
                comments.comments[index] = comment
            }
            return []
        default:
            return nil
        }
    }

    /// What the person changed in their own music (downloads, likes, collections, sheets); nil for any other
    /// action.
    private mutating func reduceMine(_ action: AppAction) -> [AppEffect]? {
        switch action {
        case .downloadsChanged(let entries):
            downloads = entries
            downloadsList.clamp(count: entries.count)
            return []
        case .likedChanged(let songID, let liked):
            if liked {
                // The song liked is the playing one (f on any screen) or the selected one.
                let song = playing.song?.id == songID ? playing.song : selectedSong
                if let song, song.id == songID, !isLiked(songID) { myMusic.liked.insert(song, at: 0) }
            } else {
                myMusic.liked.removeAll { $0.id == songID }
                if var open = detail, open.sheet?.kind == "likes" {
                    open.songs.removeAll { $0.id == songID }
                    open.list.clamp(count: open.songs.count)
                    detail = open
                }
            }
            show(liked ? "Added to I like." : "Removed from I like.")
            return []
        case .collectedChanged(let sheetID, let collected):
            if detail?.sheet?.id == sheetID { detail?.sheet?.collected = collected }
            show(collected ? "Sheet collected." : "Sheet no longer collected.")
            return [.loadMyMusic]
        case .addedToSheet(let sheet, let created):
            if let index = myMusic.created.firstIndex(where: { $0.id == sheet.id }) {
                myMusic.created[index] = sheet
            } else {
                myMusic.created.append(sheet)
            }
            show(created ? "Made the sheet \(sheet.title) with the song in it." : "Added to \(sheet.title).")
            return []
        default:
            return nil
        }
    }

    mutating func show(_ message: String, isError: Bool = false) {
        toast = Toast(message: message, isError: isError)
    }

    // MARK: Keys

    private mutating func handle(_ key: Key) -> [AppEffect] {
        // Fields take the keys they type with before any command does.
        if screen == .login { return handleLoginKey(key) }
        if let effects = handleSocialKey(key) { return effects }
        if sheetPicker != nil { return handlePickerKey(key) }
        if screen == .search, search.editing, let effects = handleSearchTyping(key) { return effects }
        if screen == .comments, comments.draft != nil { return handleDraftKey(key) }
        guard let command = keyMap.command(for: key) else { return [] }
        return run(command)
    }

    /// Runs a command on the current screen; what the screen does not use falls to the global meaning.
    public mutating func run(_ command: Command) -> [AppEffect] {
        if let effects = runOnScreen(command) { return effects }
        switch command {
        case .playPause: return playing.song == nil ? [] : [.togglePlayPause]
        case .next: return queue.isEmpty ? [] : [.next]
        case .previous: return queue.isEmpty ? [] : [.previous]
        case .seekBack: return playing.song == nil ? [] : [.seek(by: -Self.seekStep)]
        case .seekForward: return playing.song == nil ? [] : [.seek(by: Self.seekStep)]
        case .volumeUp, .volumeDown:
            let step = command == .volumeUp ? Self.volumeStep : -Self.volumeStep
            playing.volume = min(100, max(0, playing.volume + step))
            return [.setVolume(playing.volume)]
        case .loopMode:
            let modes = LoopMode.allCases
            playing.mode = modes[(modes.firstIndex(of: playing.mode)! + 1) % modes.count]
            show("Loop mode: \(DisplayFormat.loopMode(playing.mode))")
            return [.setLoopMode(playing.mode)]
        case .like:
            guard let song = playing.song else { return [] }
            return likeEffects(for: song)
        case .home: return switchTab(.home)
        case .library: return switchTab(.library)
        case .search:
            let effects = switchTab(.search)
            search.editing = true
            return effects
        case .myMusic: return switchTab(.myMusic)
        case .queue: return switchTab(.queue)
        case .downloads: return switchTab(.downloads)
        case .nowPlaying: return switchTab(.nowPlaying)
        case .messages: return switchTab(.messages)
        case .notifications: return switchTab(.notifications)
        case .podcasts: return openPodcasts()
        case .news: return openNews()
        case .speedUp: return changeSpeed(by: 1)
        case .speedDown: return changeSpeed(by: -1)
        case .share: return share(playing.song)
        case .comments:
            guard let song = playing.song else {
                show("Play a song to see its comments.", isError: true)
                return []
            }
            return openComments(of: song)
        case .help:
            guard screen != .help else { return [] }
            open(.help)
            helpScroll = 0
            return []
        case .back:
            goBack()
            return []
        case .quit:
            quitting = true
            return [.quit]
        default:
            return []
        }
    }

    private mutating func switchTab(_ tab: Screen) -> [AppEffect] {
        screen = tab
        backStack = []
        switch tab {
        case .home where home.status == .idle || isFailed(home.status):
            home.status = .loading
            return [.loadHome]
        case .library:
            return loadLibraryIfNeeded()
        case .myMusic where isSignedIn && (myMusic.status == .idle || isFailed(myMusic.status)):
            myMusic.status = .loading
            return [.loadMyMusic]
        case .messages where isSignedIn && (messages.status == .idle || isFailed(messages.status)):
            messages.status = .loading
            return [.loadConversations(more: false)]
        case .notifications
        where isSignedIn && (notifications.status == .idle || isFailed(notifications.status)):
            notifications.status = .loading
            return [.loadNotifications(cursor: nil), .loadUnreadCounts]
        default:
            return []
        }
    }

    private func isFailed(_ status: LoadStatus) -> Bool {
        if case .failed = status { return true }
        return false
    }

    mutating func open(_ overlay: Screen) {
        if screen != overlay { backStack.append(screen) }
        screen = overlay
    }

    mutating func goBack() {
        if let previous = backStack.popLast() {
            screen = previous
            if screen != .comments { comments.draft = nil }
        } else if screen != .home {
            screen = .home
        }
    }

    private mutating func openComments(of song: Song) -> [AppEffect] {
        if comments.songID != song.id {
            comments = CommentsState()
            comments.songID = song.id
            comments.songTitle = song.title
        }
        comments.status = .loading
        open(.comments)
        return [.loadComments(songID: song.id)]
    }

    private mutating func likeEffects(for song: Song) -> [AppEffect] {
        guard isSignedIn else {
            show("Sign in to like songs.", isError: true)
            return []
        }
        return [.setLiked(songID: song.id, liked: !isLiked(song.id))]
    }

    /// The song the selection is on, on screens that list songs.
    public var selectedSong: Song? {
        switch screen {
        case .home:
            switch home.section {
            case 1: return home.newSongs[safe: home.item]
            case 2: return home.recent[safe: home.item]
            default: return nil
            }
        case .library:
            return library.tab == 2 ? library.songs.items[safe: library.songs.cursor.selected] : nil
        case .search: return search.section == 0 ? search.results?.songs[safe: search.list.selected] : nil
        case .detail: return detail?.songs[safe: detail?.list.selected ?? 0]
        case .myMusic: return myMusic.tab == 2 ? myMusic.liked[safe: myMusic.list.selected] : nil
        case .queue: return queue[safe: queueList.selected]
        case .downloads: return downloads[safe: downloadsList.selected]?.song
        case .nowPlaying, .comments: return playing.song
        case .chat: return chat?.selected.flatMap { chat?.messages[safe: $0]?.song }
        case .messages, .notifications, .help, .login, .podcasts, .news: return nil
        }
    }

    // MARK: Commands per screen

    /// What a command does on the current screen, or nil to fall through to its global meaning.
    private mutating func runOnScreen(_ command: Command) -> [AppEffect]? {
        // Moving in lists, the same on every list.
        if let delta = movement(command) {
            return move(by: delta)
        }
        switch command {
        case .addToQueue:
            guard let song = selectedSong else { return nil }
            show("Added to the queue: \(song.title)")
            return [.addToQueue(song)]
        case .download:
            guard let song = selectedSong else { return nil }
            show("Downloading \(song.title)…")
            return [.download(song)]
        case .addToSheet:
            guard let song = selectedSong ?? playing.song else { return [] }
            guard isSignedIn else {
                show("Sign in to keep songs in your sheets.", isError: true)
                return []
            }
            sheetPicker = SheetPicker(song: song)
            return []
        case .like where screen != .comments && screen != .podcasts:
            guard screen != .nowPlaying, let song = selectedSong else { return nil }
            return likeEffects(for: song)
        case .rename:
            return renameSheet() ?? []
        case .remove where screen == .detail || screen == .myMusic:
            if let effects = removeFromOwnSheet() { return effects }
        default:
            break
        }
        switch screen {
        case .home: return homeCommand(command)
        case .library: return libraryCommand(command)
        case .search: return searchCommand(command)
        case .detail: return detailCommand(command)
        case .myMusic: return myMusicCommand(command)
        case .queue: return queueCommand(command)
        case .downloads: return downloadsCommand(command)
        case .comments: return commentsCommand(command)
        case .messages: return messagesCommand(command)
        case .notifications: return notificationsCommand(command)
        case .chat: return chatCommand(command)
        case .podcasts: return podcastsCommand(command)
        case .news: return newsCommand(command)
        case .help, .nowPlaying, .login: return nil
        }
    }

    /// The next (Tab) or previous (Shift-Tab) of `count` sections, round the end.
    private static func cycle(_ index: Int, count: Int, by command: Command) -> Int {
        (index + (command == .nextTab ? 1 : count - 1)) % count
    }

    func movement(_ command: Command) -> Int? {
        let page = max(1, bodyHeight - 2)
        switch command {
        case .up: return -1
        case .down: return 1
        case .pageUp: return -page
        case .pageDown: return page
        case .top: return Int.min / 2
        case .bottom: return Int.max / 2
        default: return nil
        }
    }

    private mutating func move(by delta: Int) -> [AppEffect] {
        switch screen {
        case .home:
            let next = home.item + delta
            if abs(delta) != 1 || (0..<home.count(of: home.section)).contains(next) {
                home.item = next
            } else {
                // One step past a section's end goes on into the next section that has items.
                var section = home.section + delta
                while (0...2).contains(section), home.count(of: section) == 0 { section += delta }
                if (0...2).contains(section) {
                    home.section = section
                    home.item = delta > 0 ? 0 : home.count(of: section) - 1
                }
            }
            clampHome()
        case .library:
            let effects = moveInLibrary(delta)
            return effects
        case .search:
            if delta == -1, search.list.selected == 0 {
                search.editing = true
                return []
            }
            search.list.move(delta, count: search.count(of: search.section))
        case .detail:
            let count = detail?.songs.count ?? 0
            detail?.list.move(delta, count: count)
        case .myMusic:
            myMusic.list.move(delta, count: myMusic.count(of: myMusic.tab))
        case .queue:
            queueList.move(delta, count: queue.count)
        case .downloads:
            downloadsList.move(delta, count: downloads.count)
        case .comments:
            comments.list.move(delta, count: comments.comments.count)
            // Older comments come a page at a time as the selection nears the end.
            if let cursor = comments.nextCursor, let songID = comments.songID, !comments.loadingMore,
                comments.list.selected >= comments.comments.count - 5
            {
                comments.loadingMore = true
                return [.loadComments(songID: songID, cursor: cursor)]
            }
        case .help:
            helpScroll = max(0, min(Command.allCases.count + 8, helpScroll + max(-1000, min(1000, delta))))
        case .messages, .notifications, .chat:
            return moveSocial(delta)
        case .podcasts:
            moveInPodcasts(delta)
        case .news:
            return moveInNews(delta)
        case .nowPlaying, .login:
            break
        }
        return []
    }

    private mutating func clampHome() {
        home.section = min(2, max(0, home.section))
        if home.count(of: home.section) == 0, let first = (0...2).first(where: { home.count(of: $0) > 0 }) {
            home.section = first
        }
        let count = home.count(of: home.section)
        home.item = count == 0 ? 0 : min(count - 1, max(0, home.item))
    }

    private mutating func homeCommand(_ command: Command) -> [AppEffect]? {
        switch command {
        case .nextTab, .previousTab:
            home.section = Self.cycle(home.section, count: 3, by: command)
            home.item = 0
            return []
        case .play, .playAll:
            let start = command == .playAll ? 0 : home.item
            switch home.section {
            case 0:
                guard let sheet = home.sheets[safe: home.item] else { return [] }
                return openDetail(.sheet, id: sheet.id, title: sheet.title)
            case 1: return home.newSongs.isEmpty ? [] : [.playSongs(home.newSongs, start: start)]
            default: return home.recent.isEmpty ? [] : [.playSongs(home.recent, start: start)]
            }
        case .refresh:
            home.status = .loading
            return [.loadHome]
        default: return nil
        }
    }

    mutating func openDetail(_ kind: DetailState.Kind, id: String, title: String) -> [AppEffect] {
        detail = DetailState(kind: kind, id: id, title: title)
        open(.detail)
        return [.openDetail(kind, id: id, title: title)]
    }

    // MARK: Library

    private mutating func moveInLibrary(_ delta: Int) -> [AppEffect] {
        switch library.tab {
        case 0: library.artists.cursor.move(delta, count: library.artists.items.count)
        case 1: library.albums.cursor.move(delta, count: library.albums.items.count)
        case 2: library.songs.cursor.move(delta, count: library.songs.items.count)
        default: library.genres.cursor.move(delta, count: library.genres.items.count)
        }
        return loadLibraryIfNeeded()
    }

    private mutating func loadLibraryIfNeeded() -> [AppEffect] {
        let tab = library.tab
        func request<T>(_ list: inout PagedList<T>) -> [AppEffect] {
            guard list.wantsMore, let page = list.nextPage else { return [] }
            list.status = .loading
            return [.loadLibrary(tab: tab, page: page)]
        }
        switch tab {
        case 0: return request(&library.artists)
        case 1: return request(&library.albums)
        case 2: return request(&library.songs)
        default: return request(&library.genres)
        }
    }

    private mutating func receive(_ page: LibraryPage) {
        switch page {
        case .artists(let items, let number, let next):
            library.artists.receive(items, next: next, replacing: number == 1)
        case .albums(let items, let number, let next):
            library.albums.receive(items, next: next, replacing: number == 1)
        case .songs(let items, let number, let next):
            library.songs.receive(items, next: next, replacing: number == 1)
        case .genres(let items, let number, let next):
            library.genres.receive(items, next: next, replacing: number == 1)
        }
    }

    private mutating func libraryCommand(_ command: Command) -> [AppEffect]? {
        switch command {
        case .nextTab, .previousTab:
            library.tab = Self.cycle(library.tab, count: LibraryState.tabTitles.count, by: command)
            return loadLibraryIfNeeded()
        case .play, .playAll:
            switch library.tab {
            case 0:
                guard let artist = library.artists.items[safe: library.artists.cursor.selected] else {
                    return []
                }
                return openDetail(.artist, id: artist.id, title: artist.name)
            case 1:
                guard let album = library.albums.items[safe: library.albums.cursor.selected] else {
                    return []
                }
                return openDetail(.album, id: album.id, title: album.title)
            case 2:
                let songs = library.songs.items
                guard !songs.isEmpty else { return [] }
                return [.playSongs(songs, start: command == .playAll ? 0 : library.songs.cursor.selected)]
            default:
                guard let genre = library.genres.items[safe: library.genres.cursor.selected] else {
                    return []
                }
                return openDetail(.genre, id: genre.id, title: genre.name)
            }
        case .refresh:
            switch library.tab {
            case 0: library.artists = PagedList()
            case 1: library.albums = PagedList()
            case 2: library.songs = PagedList()
            default: library.genres = PagedList()
            }
            return loadLibraryIfNeeded()
        default: return nil
        }
    }

    // MARK: Search

    /// Keys while typing the query; nil for keys that are not the field's (they then act as commands).
    private mutating func handleSearchTyping(_ key: Key) -> [AppEffect]? {
        switch key {
        case .enter, .down:
            search.editing = false
            return []
        case .escape:
            search.editing = false
            if search.query.isEmpty { goBack() }
            return []
        case .tab, .backTab:
            return nil
        case .up, .pageUp, .pageDown, .function, .control("r"):
            return nil
        default:
            let before = search.query
            guard TextEditing.apply(key, to: &search.query, cursor: &search.cursor) else { return [] }
            guard search.query != before else { return [] }
            return querySearch()
        }
    }

    private mutating func querySearch() -> [AppEffect] {
        search.generation += 1
        search.list = ListCursor()
        let query = search.query.trimmingCharacters(in: .whitespaces)
        guard !query.isEmpty else {
            search.results = nil
            search.sheets = []
            search.users = []
            search.status = .idle
            return []
        }
        search.status = .loading
        return [.search(query: query, generation: search.generation)]
    }

    private mutating func searchCommand(_ command: Command) -> [AppEffect]? {
        switch command {
        case .nextTab, .previousTab:
            search.section = Self.cycle(search.section, count: SearchState.sectionCount, by: command)
            search.list = ListCursor()
            return []
        case .search:
            search.editing = true
            return []
        case .refresh:
            return querySearch()
        case .play, .playAll:
            guard let results = search.results else { return [] }
            switch search.section {
            case 0:
                guard !results.songs.isEmpty else { return [] }
                return [.playSongs(results.songs, start: command == .playAll ? 0 : search.list.selected)]
            case 1:
                guard let album = results.albums[safe: search.list.selected] else { return [] }
                return openDetail(.album, id: album.id, title: album.title)
            case 2:
                guard let artist = results.artists[safe: search.list.selected] else { return [] }
                return openDetail(.artist, id: artist.id, title: artist.name)
            case 3:
                guard let sheet = search.sheets[safe: search.list.selected] else { return [] }
                return openDetail(.sheet, id: sheet.id, title: sheet.title)
            default:
                guard let user = search.users[safe: search.list.selected] else { return [] }
                return openChat(with: UserSummary(id: user.id, nickname: user.nickname, icon: user.icon))
            }
        case .write where search.section == 4:
            guard let user = search.users[safe: search.list.selected] else { return [] }
            return openChat(with: UserSummary(id: user.id, nickname: user.nickname, icon: user.icon))
        default: return nil
        }
    }

    // MARK: Detail, my music, queue, downloads

    private mutating func detailCommand(_ command: Command) -> [AppEffect]? {
        guard let detail else { return nil }
        switch command {
        case .play, .playAll:
            guard !detail.songs.isEmpty else { return [] }
            return [.playSongs(detail.songs, start: command == .playAll ? 0 : detail.list.selected)]
        case .collect:
            guard let sheet = detail.sheet else {
                show("Only sheets can be collected.", isError: true)
                return []
            }
            guard isSignedIn else {
                show("Sign in to collect sheets.", isError: true)
                return []
            }
            guard sheet.user.id != userID else {
                show("This is your own sheet.", isError: true)
                return []
            }
            return [.setCollected(sheetID: sheet.id, collected: !(sheet.collected ?? false))]
        case .refresh:
            return openDetail(detail.kind, id: detail.id, title: detail.title)
        default: return nil
        }
    }

    private mutating func myMusicCommand(_ command: Command) -> [AppEffect]? {
        if !isSignedIn, command == .play {
            login = LoginState()
            screen = .login
            return []
        }
        switch command {
        case .nextTab, .previousTab:
            myMusic.tab = Self.cycle(myMusic.tab, count: MyMusicState.tabTitles.count, by: command)
            myMusic.list = ListCursor()
            return []
        case .play, .playAll:
            switch myMusic.tab {
            case 2:
                guard !myMusic.liked.isEmpty else { return [] }
                return [.playSongs(myMusic.liked, start: command == .playAll ? 0 : myMusic.list.selected)]
            default:
                let sheets = myMusic.tab == 0 ? myMusic.created : myMusic.collected
                guard let sheet = sheets[safe: myMusic.list.selected] else { return [] }
                return openDetail(.sheet, id: sheet.id, title: sheet.title)
            }
        case .refresh:
            guard isSignedIn else { return [] }
            myMusic.status = .loading
            return [.loadMyMusic]
        default: return nil
        }
    }

    private mutating func queueCommand(_ command: Command) -> [AppEffect]? {
        let index = queueList.selected
        switch command {
        case .play:
            return queue.indices.contains(index) ? [.playQueueIndex(index)] : []
        case .moveUp, .moveDown:
            let target = index + (command == .moveUp ? -1 : 1)
            guard queue.indices.contains(index), queue.indices.contains(target) else { return [] }
            queue.swapAt(index, target)
            queueList.selected = target
            if queueIndex == index { queueIndex = target } else if queueIndex == target { queueIndex = index }
            return [.moveInQueue(from: index, to: target)]
        case .remove:
            guard queue.indices.contains(index) else { return [] }
            queue.remove(at: index)
            queueList.clamp(count: queue.count)
            if let playing = queueIndex, index < playing { queueIndex = playing - 1 }
            return [.removeFromQueue(index)]
        case .clear:
            guard !queue.isEmpty else { return [] }
            queue = []
            queueList = ListCursor()
            show("Queue cleared.")
            return [.clearQueue]
        default: return nil
        }
    }

    private mutating func downloadsCommand(_ command: Command) -> [AppEffect]? {
        switch command {
        case .play, .playAll:
            let done = downloads.filter { $0.state == "done" }.map(\.song)
            guard let entry = downloads[safe: downloadsList.selected] else { return [] }
            let selected = entry.song
            // Enter on one not finished pauses it, or goes on with it.
            if command == .play, entry.state != "done" {
                let running = entry.state == "downloading" || entry.state == "queued"
                show(running ? "Paused \(selected.title)." : "Downloading \(selected.title) again…")
                return [running ? .pauseDownload(songID: selected.id) : .resumeDownload(songID: selected.id)]
            }
            let start = command == .playAll ? 0 : done.firstIndex { $0.id == selected.id } ?? 0
            return done.isEmpty ? [] : [.playSongs(done, start: start)]
        case .remove:
            guard let entry = downloads[safe: downloadsList.selected] else { return [] }
            return [.deleteDownload(songID: entry.song.id)]
        default: return nil
        }
    }

    // MARK: Comments

    private mutating func commentsCommand(_ command: Command) -> [AppEffect]? {
        switch command {
        case .write, .reply:
            guard isSignedIn else {
                show("Sign in to write comments.", isError: true)
                return []
            }
            let replyTo = command == .reply ? comments.comments[safe: comments.list.selected] : nil
            if command == .reply, replyTo == nil { return [] }
            comments.draft = CommentsState.Draft(replyTo: replyTo)
            return []
        case .like:
            guard let comment = comments.comments[safe: comments.list.selected] else { return [] }
            guard isSignedIn else {
                show("Sign in to like comments.", isError: true)
                return []
            }
            if let likeID = comment.likeId { return [.unlikeComment(likeID: likeID, commentID: comment.id)] }
            return [.likeComment(id: comment.id)]
        case .refresh:
            guard let songID = comments.songID else { return [] }
            comments.status = .loading
            return [.loadComments(songID: songID)]
        default: return nil
        }
    }

    private mutating func handleDraftKey(_ key: Key) -> [AppEffect] {
        guard var draft = comments.draft else { return [] }
        switch key {
        case .escape:
            comments.draft = nil
            return []
        case .enter:
            let text = draft.text.trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty, let songID = comments.songID else {
                show("Write something first, or press Esc.", isError: true)
                return []
            }
            comments.draft = nil
            return [.postComment(text: text, songID: songID, replyTo: draft.replyTo?.id)]
        default:
            _ = TextEditing.apply(key, to: &draft.text, cursor: &draft.cursor)
            comments.draft = draft
            return []
        }
    }

    // MARK: Adding a song to a sheet

    private mutating func handlePickerKey(_ key: Key) -> [AppEffect] {
        guard var picker = sheetPicker else { return [] }
        defer { if sheetPicker != nil { sheetPicker = picker } }
        if picker.newTitle != nil {
            switch key {
            case .escape:
                picker.newTitle = nil
            case .enter:
                let title = (picker.newTitle ?? "").trimmingCharacters(in: .whitespaces)
                guard !title.isEmpty else {
                    show("Type a title for the new sheet, or press Esc.", isError: true)
                    return []
                }
                sheetPicker = nil
                return [.createSheet(title: title, songID: picker.song.id)]
            default:
                var title = picker.newTitle ?? ""
                _ = TextEditing.apply(key, to: &title, cursor: &picker.cursor)
                picker.newTitle = title
            }
            return []
        }
        let count = ownSheets.count + 1
        switch keyMap.command(for: key) {
        case .back:
            sheetPicker = nil
        case .play:
            guard picker.list.selected > 0 else {
                picker.newTitle = ""
                picker.cursor = 0
                return []
            }
            let sheet = ownSheets[picker.list.selected - 1]
            sheetPicker = nil
            return [.addToSheet(songID: picker.song.id, sheetID: sheet.id)]
        case let command?:
            if let delta = movement(command) { picker.list.move(delta, count: count) }
            if command == .quit { sheetPicker = nil }
        case nil:
            break
        }
        return []
    }

    // MARK: Sign in

    private mutating func handleLoginKey(_ key: Key) -> [AppEffect] {
        guard !login.busy else { return key == .escape ? skipLogin() : [] }
        switch key {
        case .tab, .down:
            login.focused = (login.focused + 1) % login.values.count
        case .backTab, .up:
            login.focused = (login.focused + login.values.count - 1) % login.values.count
        case .control("r"):
            login.switchMode()
        case .control("s"):
            let account = login.values[login.mode == .signIn ? 0 : 1].trimmingCharacters(in: .whitespaces)
            guard login.mode == .signUp, !account.isEmpty else {
                login.message = "Type your email or phone first, then press Ctrl-S for a code."
                login.messageIsError = true
                return []
            }
            return [.sendCode(account: account)]
        case .escape:
            return skipLogin()
        case .enter:
            if login.focused < login.values.count - 1, login.values[login.focused + 1].isEmpty {
                login.focused += 1
                return []
            }
            return submitLogin()
        default:
            var cursor = login.values[login.focused].count
            _ = TextEditing.apply(key, to: &login.values[login.focused], cursor: &cursor)
        }
        return []
    }

    private mutating func skipLogin() -> [AppEffect] {
        login.busy = false
        screen = .home
        show("Browsing without signing in. Press 4 for My Music to sign in.")
        guard home.status == .idle else { return [] }
        home.status = .loading
        return [.loadHome]
    }

    private mutating func submitLogin() -> [AppEffect] {
        let values = login.values.map { $0.trimmingCharacters(in: .whitespaces) }
        let signingIn = login.mode == .signIn
        // The password is taken as typed; the other fields without surrounding spaces.
        let required = signingIn ? [values[0], login.values[1]] : [values[0], values[1], login.values[2]]
        guard required.allSatisfy({ !$0.isEmpty }) else {
            login.message =
                signingIn
                ? "Type your email or phone and your password."
                : "Type a nickname, your email or phone, and a password."
            login.messageIsError = true
            return []
        }
        login.busy = true
        login.message = signingIn ? "Signing in…" : "Creating your account…"
        login.messageIsError = false
        if signingIn { return [.signIn(account: values[0], password: login.values[1])] }
        return [
            .signUp(
                nickname: values[0], account: values[1], password: login.values[2],
                code: values[3].isEmpty ? nil : values[3])
        ]
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
