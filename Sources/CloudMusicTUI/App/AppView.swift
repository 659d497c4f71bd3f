import CloudMusicKit
import Foundation
import MusicCore

/// The whole screen from the state: the tab bar, the screen's body, a status row and the control bar.
///
/// Pure but for scroll offsets: each list's offset is kept in the state so the list does not jump.
public enum AppView {
    /// Rows that are not the body: tab bar, status, control bar.
    static let chromeRows = 3

    public static func render(_ state: inout AppState, width: Int, height: Int, now: Date = Date()) -> [Line]
    {
        let width = max(0, width)
        let height = max(0, height)
        guard height >= chromeRows else {
            return Array([tabBar(state, width: width), controlBar(state, width: width)].suffix(height))
        }
        let bodyHeight = height - chromeRows
        var lines: [Line] = [tabBar(state, width: width)]
        lines += fitted(
            body(&state, width: width, height: bodyHeight, now: now), width: width, height: bodyHeight)
        lines.append(statusRow(state, width: width))
        lines.append(controlBar(state, width: width))
        return lines
    }

    static func fitted(_ lines: [Line], width: Int, height: Int) -> [Line] {
        var lines = Array(lines.prefix(height)).map { $0.fitted(to: width) }
        while lines.count < height { lines.append(Line.blank(width)) }
        return lines
    }

    static func tabBar(_ state: AppState, width: Int) -> Line {
        let tab = state.backStack.first ?? state.screen
        let current = Screen.tabs.firstIndex(of: tab) ?? 0
        let badges = Screen.tabs.map { tab -> String? in
            let count =
                switch tab {
                case .messages: state.messages.unread.count
                case .notifications: state.notifications.unread.count
                default: 0
                }
            return count > 0 ? NotificationsView.badge(count) : nil
        }
        return TabBar.render(tabs: Screen.tabs.map(\.title), current: current, width: width, badges: badges)
    }

    static func controlBar(_ state: AppState, width: Int) -> Line {
        let song = state.playing.song
        return ControlBar.render(
            ControlBar.State(
                title: song?.title ?? "", artist: song?.artistNames ?? "", playback: state.playing.playback,
                position: state.playing.position, duration: state.playing.duration,
                loopMode: state.playing.mode,
                volume: state.playing.volume, problem: state.playing.soundOutput.problem),
            width: width)
    }

    /// A message that just happened, else the screen's loading state, else its most useful keys.
    static func statusRow(_ state: AppState, width: Int) -> Line {
        if let prompt = state.prompt {
            return ViewKit.input(
                prompt: " " + prompt.label, promptStyle: .accent, text: prompt.text, cursor: prompt.cursor,
                width: width)
        }
        if let confirmation = state.confirmation {
            return [StyledSpan(" " + TerminalWidth.sanitized(confirmation.question), .error)].fitted(
                to: width)
        }
        if let toast = state.toast {
            let message = TerminalWidth.sanitized(toast.message)
            return [StyledSpan(" " + message, toast.isError ? .error : .highlight)].fitted(to: width)
        }
        if let message = screenStatus(state)?.message {
            return [StyledSpan(" " + TerminalWidth.sanitized(message), .dim)].fitted(to: width)
        }
        return [StyledSpan(" " + hint(state), .dim)].fitted(to: width)
    }

    static func screenStatus(_ state: AppState) -> LoadStatus? {
        switch state.screen {
        case .home: state.home.status
        case .library:
            switch state.library.tab {
            case 0: state.library.artists.status
            case 1: state.library.albums.status
            case 2: state.library.songs.status
            default: state.library.genres.status
            }
        case .myMusic: state.myMusic.status
        case .detail: state.detail?.status
        case .comments: state.comments.status
        case .messages: state.messages.status
        case .notifications: state.notifications.status
        case .chat: state.chat?.status
        case .podcasts:
            state.podcasts.comments?.status
                ?? (state.podcasts.open == nil ? state.podcasts.status : state.podcasts.episodesStatus)
        case .news:
            state.news.reading != nil
                ? state.news.readingStatus
                : state.news.open == nil ? state.news.status : state.news.articlesStatus
        case .search, .queue, .downloads, .nowPlaying, .help, .login: nil
        }
    }

    static func hint(_ state: AppState) -> String {
        let keys = state.keyMap
        if state.sheetPicker != nil || state.sharePicker != nil { return "Enter choose · Esc cancel" }
        func pair(_ command: Command, _ words: String) -> String {
            "\(keys.label(command).split(separator: " ").first ?? "") \(words)"
        }
        var parts: [String]
        switch state.screen {
        case .home, .library, .search, .detail, .myMusic:
            parts = [
                pair(.play, "play/open"), pair(.addToQueue, "queue"), pair(.download, "download"),
                pair(.nextTab, "section"),
            ]
            if let sheet = state.ownSheetInFocus, sheet.kind != "likes" {
                parts.insert(
                    contentsOf: [
                        pair(.rename, "rename"), pair(.remove, state.screen == .detail ? "remove" : "delete"),
                    ], at: 2)
            } else if state.screen == .detail, state.detail?.sheet != nil {
                parts.append(pair(.collect, "collect"))
            }
            if state.screen == .search, state.search.section == 4 { parts = [pair(.play, "write to them")] }
        case .queue:
            let down = keys.label(.moveDown).split(separator: " ").first ?? ""
            parts = [
                pair(.play, "play"), pair(.moveUp, "").trimmingCharacters(in: .whitespaces) + "/\(down) move",
                pair(.remove, "remove"), pair(.clear, "clear"),
            ]
        case .downloads: parts = [pair(.play, "play, or pause/resume"), pair(.remove, "delete")]
        case .comments:
            parts =
                state.comments.draft == nil
                ? [pair(.write, "write"), pair(.reply, "reply"), pair(.like, "like"), pair(.back, "back")]
                : ["Enter send", "Esc cancel"]
        case .nowPlaying:
            parts = [
                pair(.comments, "comments"), pair(.like, "like"), pair(.share, "share"),
                pair(.loopMode, "loop"),
            ]
        case .messages:
            parts = [pair(.play, "open"), pair(.remove, "delete"), pair(.share, "share the song")]
        case .notifications:
            parts = [
                pair(.play, "mark read"), pair(.markRead, "all read"), pair(.write, "message them"),
                pair(.nextTab, "kind"),
            ]
        case .chat:
            if state.chat?.composing ?? true {
                // Typing takes q and ?, so they are not offered.
                return ["Enter send", "Esc or ↑ browse the messages", "PgUp older"].joined(separator: " · ")
            } else {
                parts = [
                    pair(.write, "write"), pair(.play, "play song"), pair(.share, "share the playing song"),
                    pair(.remove, "delete"), pair(.back, "back"),
                ]
            }
        case .podcasts:
            if state.podcasts.comments != nil {
                parts = [pair(.like, "like the episode"), pair(.refresh, "reload"), pair(.back, "episodes")]
            } else if state.podcasts.open == nil {
                parts = [pair(.play, "episodes"), pair(.collect, "subscribe")]
            } else {
                parts = [
                    pair(.play, "play"), pair(.like, "like"), pair(.comments, "comments"),
                    pair(.collect, "subscribe"), pair(.speedDown, "slower"), pair(.speedUp, "faster"),
                    pair(.back, "podcasts"),
                ]
            }
        case .news:
            parts =
                state.news.reading != nil
                ? [pair(.down, "scroll"), pair(.markRead, "read/unread"), pair(.back, "articles")]
                : state.news.open == nil
                    ? [pair(.play, "articles"), pair(.refresh, "reload")]
                    : [pair(.play, "read"), pair(.markRead, "all read"), pair(.back, "channels")]
        case .help, .login: parts = []
        }
        return (parts + [pair(.help, "help"), pair(.quit, "quit")]).joined(separator: " · ")
    }

    // MARK: Bodies

    static func body(_ state: inout AppState, width: Int, height: Int, now: Date) -> [Line] {
        if state.sheetPicker != nil { return sheetPicker(&state, width: width, height: height) }
        if state.sharePicker != nil { return sharePicker(&state, width: width, height: height) }
        switch state.screen {
        case .login: return login(state, width: width, height: height)
        case .home: return home(state, width: width, height: height)
        case .library: return library(&state, width: width, height: height)
        case .search:
            let search = state.search
            let output = SearchView.render(
                query: search.query, cursor: search.editing ? search.cursor : -1, results: search.results,
                section: search.section, selected: search.editing ? nil : search.list.selected,
                scrollOffset: search.list.scroll, status: searchStatus(search), width: width, height: height,
                sheets: search.sheets, users: search.users)
            state.search.list.scroll = output.scrollOffset
            return output.lines
        case .myMusic: return myMusic(&state, width: width, height: height)
        case .detail: return detail(&state, width: width, height: height)
        case .queue:
            return songTable(
                &state, \.queueList, songs: state.queue, marked: state.queueIndex.map { [$0] } ?? [],
                width: width, height: height, empty: "The queue is empty: press Enter on a song to play it")
        case .downloads:
            let rows = state.downloads.map {
                DownloadRow(
                    title: $0.song.title, artist: $0.song.artistNames ?? "", state: $0.state,
                    received: $0.received,
                    total: $0.total, message: $0.message)
            }
            let output = DownloadsView.render(
                rows: rows, selected: state.downloadsList.selected, scrollOffset: state.downloadsList.scroll,
                width: width, height: height)
            state.downloadsList.scroll = output.scrollOffset
            return output.lines
        case .nowPlaying:
            let playing = state.playing
            return NowPlayingView.render(
                NowPlayingView.State(
                    title: playing.song?.title ?? "Nothing playing", artist: playing.song?.artistNames ?? "",
                    album: playing.song?.album?.title ?? "", playback: playing.playback,
                    position: playing.position,
                    duration: playing.duration, loopMode: playing.mode, volume: playing.volume,
                    lyric: playing.lyric,
                    lyricStatus: playing.song == nil
                        ? "Find something to play: press / to search" : playing.lyricStatus),
                width: width, height: height)
        case .comments:
            let comments = state.comments
            let composer = comments.draft.map {
                CommentsView.Composer(text: $0.text, replyingTo: $0.replyTo?.user.nickname, cursor: $0.cursor)
            }
            let output = CommentsView.render(
                comments: comments.comments,
                selected: comments.comments.isEmpty ? nil : comments.list.selected,
                scrollOffset: comments.list.scroll, width: width, height: height,
                title: "Comments · \(comments.songTitle)", composer: composer, now: now)
            state.comments.list.scroll = output.scrollOffset
            return output.lines
        case .messages: return messages(&state, width: width, height: height, now: now)
        case .notifications: return notifications(&state, width: width, height: height, now: now)
        case .chat: return chat(&state, width: width, height: height, now: now)
        case .podcasts: return podcasts(&state, width: width, height: height, now: now)
        case .news: return news(&state, width: width, height: height)
        case .help:
            let entries = Command.allCases.map {
                HelpView.Entry(keys: state.keyMap.label($0), action: $0.summary, section: $0.section)
            }
            return HelpView.render(
                entries: entries, scrollOffset: state.helpScroll, width: width, height: height)
        }
    }

    static func podcasts(_ state: inout AppState, width: Int, height: Int, now: Date) -> [Line] {
        let podcasts = state.podcasts
        if let comments = podcasts.comments {
            let output = CommentsView.render(
                comments: comments.comments,
                selected: comments.comments.isEmpty ? nil : comments.list.selected,
                scrollOffset: comments.list.scroll, width: width, height: height,
                title: PodcastsView.commentsTitle(comments), composer: nil, now: now)
            state.podcasts.comments?.list.scroll = output.scrollOffset
            return output.lines
        }
        guard let open = podcasts.open else {
            let output = PodcastsView.podcasts(
                podcasts.podcasts, selected: podcasts.list.selected, scrollOffset: podcasts.list.scroll,
                width: width, height: height)
            state.podcasts.list.scroll = output.scrollOffset
            return output.lines
        }
        let output = PodcastsView.episodes(
            of: open, podcasts.episodes, playingID: state.playing.song?.id, speed: podcasts.speed,
            selected: podcasts.episodeList.selected, scrollOffset: podcasts.episodeList.scroll, width: width,
            height: height)
        state.podcasts.episodeList.scroll = output.scrollOffset
        return output.lines
    }

    static func news(_ state: inout AppState, width: Int, height: Int) -> [Line] {
        let news = state.news
        if let article = news.reading {
            let output = NewsView.article(
                article, text: news.readingText, scrollOffset: news.readingScroll, width: width,
                height: height)
            state.news.readingScroll = output.scrollOffset
            return output.lines
        }
        guard let open = news.open else {
            let output = NewsView.channels(
                news.channels, selected: news.channelList.selected, scrollOffset: news.channelList.scroll,
                width: width, height: height)
            state.news.channelList.scroll = output.scrollOffset
            return output.lines
        }
        let channel = news.channels.first { $0.id == open.id } ?? open
        let output = NewsView.articles(
            of: channel, news.articles, selected: news.articleList.selected,
            scrollOffset: news.articleList.scroll,
            width: width, height: height)
        state.news.articleList.scroll = output.scrollOffset
        return output.lines
    }

    /// "Add <song> to a sheet": a new sheet first, then mine; or the new sheet's title being typed.
    static func sheetPicker(_ state: inout AppState, width: Int, height: Int) -> [Line] {
        guard let picker = state.sheetPicker else { return [] }
        var lines = [
            ViewKit.left(
                "Add \"\(TerminalWidth.sanitized(picker.song.title))\" to a sheet", width: width,
                style: .accent)
        ]
        if let title = picker.newTitle {
            lines.append(Line.blank(width))
            lines.append(
                ViewKit.input(
                    prompt: "New sheet: ", promptStyle: .accent, text: title, cursor: picker.cursor,
                    width: width))
            lines.append(ViewKit.left("Enter make it · Esc back", width: width, style: .dim))
            return lines
        }
        let rows = [["+ New sheet…", ""]] + state.ownSheets.map { [$0.title, "\($0.songsCount) songs"] }
        return lines
            + table(
                &state, \.sheetPicker!.list, header: ["Sheet", "Songs"], rows: rows,
                layout: ColumnLayout([
                    .init(.flexible(minimum: 8, weight: 1)), .init(.fixed(10), alignment: .right),
                ]),
                width: width, height: max(0, height - 1), empty: "")
    }

    /// "Share <song> with…": the conversations to choose from.
    static func sharePicker(_ state: inout AppState, width: Int, height: Int) -> [Line] {
        guard let picker = state.sharePicker else { return [] }
        let lines = [
            ViewKit.left(
                "Share \"\(TerminalWidth.sanitized(picker.song.title))\" with…", width: width, style: .accent)
        ]
        let rows = state.messages.conversations.map {
            [$0.user.nickname, $0.lastMessage.map(AppState.preview) ?? ""]
        }
        return lines
            + table(
                &state, \.sharePicker!.list, header: ["Who", "Last message"], rows: rows,
                layout: ColumnLayout([
                    .init(.flexible(minimum: 8, weight: 1)), .init(.flexible(minimum: 8, weight: 3)),
                ]),
                width: width, height: max(0, height - 1), empty: "No conversations yet")
    }

    static func liveText(_ status: LiveStatus) -> String? {
        switch status {
        case .off: nil
        case .connecting: "connecting…"
        case .live: "● live"
        case .retrying: "reconnecting…"
        case .stopped: "not live"
        }
    }

    static func messages(_ state: inout AppState, width: Int, height: Int, now: Date) -> [Line] {
        guard state.isSignedIn else {
            return [
                Line.blank(width),
                ViewKit.centred("Sign in to send and read messages: press Enter", width: width, style: .dim),
            ]
        }
        let messages = state.messages
        var title = "Messages"
        if messages.unread.count > 0 {
            title += " · \(messages.unread.count) unread in \(messages.unread.conversations)"
        }
        let output = ConversationsView.render(
            conversations: messages.conversations, me: state.userID,
            selected: messages.conversations.isEmpty ? nil : messages.list.selected,
            scrollOffset: messages.list.scroll, title: title, status: liveText(messages.live),
            empty: emptyText(messages.status, "No conversations yet: find people with / and Tab to People"),
            width: width, height: height, now: now)
        state.messages.list.scroll = output.scrollOffset
        return output.lines
    }

    static func notifications(_ state: inout AppState, width: Int, height: Int, now: Date) -> [Line] {
        guard state.isSignedIn else {
            return [
                Line.blank(width),
                ViewKit.centred(
                    "Sign in to see replies, mentions and likes: press Enter", width: width, style: .dim),
            ]
        }
        let inbox = state.notifications
        let visible = inbox.visible
        let tabs = NotificationsState.tabs
        var empty = emptyText(inbox.status, "Nothing here yet")
        if inbox.status == .loaded, inbox.nextCursor != nil { empty = "Loading…" }
        let output = NotificationsView.render(
            items: visible, tabTitles: tabs.map(\.title),
            unread: tabs.indices.map { inbox.unreadCount(tab: $0) },
            tab: inbox.tab, selected: visible.isEmpty ? nil : inbox.list.selected,
            scrollOffset: inbox.list.scroll,
            empty: empty, width: width, height: height, now: now)
        state.notifications.list.scroll = output.scrollOffset
        return output.lines
    }

    static func chat(_ state: inout AppState, width: Int, height: Int, now: Date) -> [Line] {
        guard let chat = state.chat else { return [] }
        let output = ChatView.render(
            title: "Chat with \(chat.user.nickname)", status: liveText(state.messages.live),
            messages: chat.messages,
            me: state.userID, selected: chat.composing ? nil : chat.selected, scrollOffset: chat.scroll,
            peerReadThrough: chat.peerReadThrough, hasOlder: chat.hasOlder,
            composer: ChatView.Composer(text: chat.draft, cursor: chat.cursor, active: chat.composing),
            empty: emptyText(chat.status, "No messages yet: write the first one below"),
            width: width, height: height, now: now)
        state.chat?.scroll = output.scrollOffset
        return output.lines
    }

    static func searchStatus(_ search: SearchState) -> String? {
        switch search.status {
        case .idle: return search.query.isEmpty ? "Type to search songs, albums and artists" : nil
        case .loading: return "Searching…"
        case .failed(let message): return message
        case .loaded:
            guard let results = search.results else { return nil }
            if results.songs.isEmpty, results.albums.isEmpty, results.artists.isEmpty, search.sheets.isEmpty,
                search.users.isEmpty
            {
                return "No results for \"\(search.query)\""
            }
            if search.editing { return "Enter or ↓ to choose · Tab: songs, albums, artists, sheets, people" }
            return search.section == 4 ? "Enter or w: write to them" : nil
        }
    }

    static func login(_ state: AppState, width: Int, height: Int) -> [Line] {
        let login = state.login
        let fields = zip(login.labels, login.values).enumerated().map { index, pair in
            FormView.Field(label: pair.0, value: pair.1, secret: index == login.secretField)
        }
        let title =
            login.mode == .signIn ? "Sign in to \(state.server)" : "Create an account on \(state.server)"
        let hint =
            login.mode == .signIn
            ? "Tab next field · Enter sign in · Ctrl-R create an account · Esc browse without signing in"
            : "Tab next field · Enter create · Ctrl-S send a code · Ctrl-R back to sign in · Esc browse"
        return FormView.render(
            title: title, fields: fields, focused: login.focused, message: login.message,
            messageIsError: login.messageIsError, hint: hint, width: width, height: height)
    }

    static func home(_ state: AppState, width: Int, height: Int) -> [Line] {
        let home = state.home
        var sections = [
            HomeView.Section(
                title: HomeState.sectionTitles[0],
                items: home.sheets.map { "\($0.title) · \($0.songsCount) songs" }),
            HomeView.Section(title: HomeState.sectionTitles[1], items: home.newSongs.map(songLabel)),
        ]
        sections.append(
            HomeView.Section(
                title: HomeState.sectionTitles[2],
                items: state.isSignedIn ? home.recent.map(songLabel) : ["Sign in to see what you played"]))
        return HomeView.render(
            sections: sections, selectedSection: home.section, selectedItem: home.item, width: width,
            height: height)
    }

    static func songLabel(_ song: Song) -> String {
        song.artistNames.map { "\(song.title) - \($0)" } ?? song.title
    }

    static func library(_ state: inout AppState, width: Int, height: Int) -> [Line] {
        let library = state.library
        var lines = [TabBar.render(tabs: LibraryState.tabTitles, current: library.tab, width: width)]
        let rest = max(0, height - 1)
        switch library.tab {
        case 0:
            lines += table(
                &state, \.library.artists.cursor, header: ["Artist", "Albums", "Songs"],
                rows: library.artists.items.map { [$0.name, "\($0.albumsCount)", "\($0.songsCount)"] },
                layout: ColumnLayout([
                    .init(.flexible(minimum: 8, weight: 1)), .init(.fixed(7), alignment: .right),
                    .init(.fixed(6), alignment: .right),
                ]),
                width: width, height: rest, empty: emptyText(library.artists.status, "No artists"))
        case 1:
            lines += table(
                &state, \.library.albums.cursor, header: ["Album", "Artist", "Year", "Songs"],
                rows: library.albums.items.map {
                    [$0.title, $0.artist?.name ?? "", $0.year.map(String.init) ?? "", "\($0.songsCount)"]
                },
                layout: ColumnLayout([
                    .init(.flexible(minimum: 8, weight: 3)), .init(.flexible(minimum: 6, weight: 2)),
                    .init(.fixed(4), alignment: .right), .init(.fixed(5), alignment: .right),
                ]),
                width: width, height: rest, empty: emptyText(library.albums.status, "No albums"))
        case 2:
            lines += songTable(
                &state, \.library.songs.cursor, songs: library.songs.items, width: width, height: rest,
                empty: emptyText(library.songs.status, "No songs"))
        default:
            lines += table(
                &state, \.library.genres.cursor, header: ["Genre", "Songs"],
                rows: library.genres.items.map { [$0.name, "\($0.songsCount)"] },
                layout: ColumnLayout([
                    .init(.flexible(minimum: 8, weight: 1)), .init(.fixed(6), alignment: .right),
                ]),
                width: width, height: rest, empty: emptyText(library.genres.status, "No genres"))
        }
        return lines
    }

    static func emptyText(_ status: LoadStatus, _ empty: String) -> String {
        switch status {
        case .idle, .loading: "Loading…"
        case .failed(let message): message
        case .loaded: empty
        }
    }

    static func myMusic(_ state: inout AppState, width: Int, height: Int) -> [Line] {
        let mine = state.myMusic
        var lines = [TabBar.render(tabs: MyMusicState.tabTitles, current: mine.tab, width: width)]
        let rest = max(0, height - 1)
        guard state.isSignedIn else {
            return lines + [
                Line.blank(width),
                ViewKit.centred(
                    "Sign in to see your sheets and the songs you like: press Enter", width: width,
                    style: .dim),
            ]
        }
        if mine.tab == 2 {
            return lines
                + songTable(
                    &state, \.myMusic.list, songs: mine.liked, width: width, height: rest,
                    empty: emptyText(mine.status, "No songs yet: press f on a song you like"))
        }
        let sheets = mine.tab == 0 ? mine.created : mine.collected
        lines += table(
            &state, \.myMusic.list, header: ["Sheet", "Songs", "By"],
            rows: sheets.map {
                [$0.kind == "likes" ? "♥ \($0.title)" : $0.title, "\($0.songsCount)", $0.user.nickname]
            },
            layout: ColumnLayout([
                .init(.flexible(minimum: 8, weight: 3)), .init(.fixed(5), alignment: .right),
                .init(.flexible(minimum: 6, weight: 1)),
            ]),
            width: width, height: rest,
            empty: emptyText(
                mine.status, mine.tab == 0 ? "No sheets yet" : "No collected sheets yet: press s on a sheet"))
        return lines
    }

    static func detail(_ state: inout AppState, width: Int, height: Int) -> [Line] {
        guard let detail = state.detail else { return [] }
        var title = TerminalWidth.sanitized(detail.title)
        if detail.sheet?.collected == true { title += "  ✓ collected" }
        let lines = [
            ViewKit.left(title, width: width, style: .accent),
            ViewKit.left(TerminalWidth.sanitized(detail.subtitle), width: width, style: .dim),
        ]
        return lines
            + songTable(
                &state, \.detail!.list, songs: detail.songs, width: width, height: max(0, height - 2),
                empty: emptyText(detail.status, "No songs"))
    }

    // MARK: Tables of songs

    static let songLayout = ColumnLayout([
        .init(.flexible(minimum: 8, weight: 4)), .init(.flexible(minimum: 6, weight: 3)),
        .init(.flexible(minimum: 6, weight: 3)), .init(.fixed(5), alignment: .right),
    ])

    static func songCells(_ song: Song) -> [String] {
        [
            song.title, song.artistNames ?? "", song.album?.title ?? "",
            DisplayFormat.duration(milliseconds: song.duration),
        ]
    }

    /// A table of songs; the playing one is marked unless `marked` says which rows are.
    static func songTable(
        _ state: inout AppState, _ cursor: WritableKeyPath<AppState, ListCursor>, songs: [Song],
        marked: Set<Int>? = nil, width: Int, height: Int, empty: String
    ) -> [Line] {
        let playing = state.playing.song?.id
        return table(
            &state, cursor, header: ["Title", "Artist", "Album", "Time"], rows: songs.map(songCells),
            layout: songLayout, width: width, height: height,
            marked: marked ?? Set(songs.indices.filter { songs[$0].id == playing }), empty: empty)
    }

    /// A table whose selection is at `cursor` in the state; the scroll it settles on is kept there, so the
    /// list does not jump on the next frame.
    static func table(
        _ state: inout AppState, _ cursor: WritableKeyPath<AppState, ListCursor>, header: [String],
        rows: [[String]], layout: ColumnLayout, width: Int, height: Int, marked: Set<Int> = [], empty: String
    ) -> [Line] {
        let list = state[keyPath: cursor]
        let output = TableView.render(
            header: header, rows: rows, layout: layout, selected: rows.isEmpty ? nil : list.selected,
            scrollOffset: list.scroll, width: width, height: height, marked: marked, emptyMessage: empty)
        state[keyPath: cursor].scroll = output.scrollOffset
        return output.lines
    }
}
