import CloudMusicKit
import MusicCore

/// Messages, chats, the inbox, and changing one's sheets: the reducer's part for them.
extension AppState {
    // MARK: Actions

    /// Applies an action about messages, notifications or sheets; nil for the others.
    mutating func reduceSocial(_ action: AppAction) -> [AppEffect]? {
        switch action {
        case .conversationsChanged(let list, let hasMore, let unread):
            messages.conversations = list
            messages.hasMore = hasMore
            messages.unread = unread
            messages.loadingMore = false
            messages.status = .loaded
            messages.list.clamp(count: list.count)
            // A chat opened with someone before the conversation existed learns its id.
            if var chat, chat.conversationID == nil,
                let conversation = list.first(where: { $0.user.id == chat.user.id })
            {
                chat.conversationID = conversation.id
                chat.status = .loading
                self.chat = chat
                return [.openConversation(id: conversation.id)]
            }
            return markReadIfViewing()
        case .conversationsFailed(let message):
            messages.status = .failed(message)
            messages.loadingMore = false
            return []
        case .threadChanged(let id, let thread):
            guard var chat, chat.conversationID == id else { return [] }
            guard let thread else {
                chat.messages = []
                chat.status = .loaded
                self.chat = chat
                if screen == .chat { show("This conversation was deleted.", isError: true) }
                return []
            }
            let selectedID = chat.selected.flatMap { chat.messages[safe: $0]?.id }
            chat.messages = thread.messages
            chat.hasOlder = thread.hasOlder
            chat.peerReadThrough = thread.peerReadThrough
            chat.loadingOlder = false
            chat.status = .loaded
            if let selectedID {
                chat.selected =
                    thread.messages.firstIndex { $0.id == selectedID } ?? thread.messages.count - 1
            }
            if let selected = chat.selected, thread.messages.isEmpty || selected >= thread.messages.count {
                chat.selected = thread.messages.isEmpty ? nil : thread.messages.count - 1
            }
            self.chat = chat
            return markReadIfViewing()
        case .threadFailed(let id, let message):
            guard chat?.conversationID == id else { return [] }
            chat?.status = .failed(message)
            chat?.loadingOlder = false
            return []
        case .messageSent(let message, let recipient):
            guard var chat, chat.user.id == recipient else { return [] }
            guard chat.conversationID == nil else { return [] }
            chat.conversationID = message.conversationId
            chat.messages = [message]
            chat.status = .loaded
            self.chat = chat
            return [.openConversation(id: message.conversationId)]
        case .messageFailed(let message, let text):
            show(message, isError: true)
            if let text, chat != nil, chat?.draft.isEmpty == true {
                chat?.draft = text
                chat?.cursor = text.count
            }
            return []
        case .messageReceived(let message):
            // The list and the open chat show it already.
            if screen != .messages, screen != .chat || chat?.conversationID != message.conversationId {
                show("\(message.sender.nickname): \(Self.preview(message))")
            }
            return []
        case .liveStatus(let status):
            messages.live = status
            if case .stopped(let message) = status { show(message, isError: true) }
            return []
        case .notificationsLoaded(let items, let nextCursor, let more):
            let selectedID = notifications.visible[safe: notifications.list.selected]?.id
            if more {
                let known = Set(notifications.items.map(\.id))
                notifications.items += items.filter { !known.contains($0.id) }
            } else {
                notifications.items = items
            }
            notifications.nextCursor = nextCursor
            notifications.loadingMore = false
            notifications.status = .loaded
            if let selectedID, let index = notifications.visible.firstIndex(where: { $0.id == selectedID }) {
                notifications.list.selected = index
            }
            notifications.list.clamp(count: notifications.visible.count)
            return moreNotificationsIfWanted()
        case .notificationsFailed(let message):
            notifications.status = .failed(message)
            notifications.loadingMore = false
            return []
        case .notificationArrived(let item, let unread):
            notifications.unread = unread
            guard !notifications.items.contains(where: { $0.id == item.id }) else { return [] }
            let selectedID = notifications.visible[safe: notifications.list.selected]?.id
            notifications.items.insert(item, at: 0)
            if let selectedID, let index = notifications.visible.firstIndex(where: { $0.id == selectedID }) {
                notifications.list.selected = index
            }
            if screen != .notifications { show(NotificationsView.sentence(for: item)) }
            return []
        case .notificationsUnread(let unread):
            notifications.unread = unread
            return []
        case .notificationChanged(let item):
            if let index = notifications.items.firstIndex(where: { $0.id == item.id }) {
                notifications.items[index] = item
            }
            return []
        case .likesChangedElsewhere(let songID, let liked):
            guard isSignedIn, liked != isLiked(songID) else { return [] }
            return [.loadMyMusic]
        case .reloadEverything:
            guard isSignedIn else { return [] }
            var effects: [AppEffect] = [.loadUnreadCounts, .loadMyMusic]
            if notifications.status != .idle { effects.append(.loadNotifications(cursor: nil)) }
            return effects
        case .sheetRenamed(let sheet):
            if let index = myMusic.created.firstIndex(where: { $0.id == sheet.id }) {
                myMusic.created[index] = sheet
            }
            if detail?.sheet?.id == sheet.id {
                detail?.title = sheet.title
                detail?.sheet?.title = sheet.title
            }
            show("Renamed to \(sheet.title).")
            return []
        case .sheetDeleted(let id):
            let title = myMusic.created.first { $0.id == id }?.title ?? detail?.title ?? "the sheet"
            myMusic.created.removeAll { $0.id == id }
            myMusic.list.clamp(count: myMusic.count(of: myMusic.tab))
            if detail?.sheet?.id == id {
                if screen == .detail { goBack() }
                detail = nil
            }
            show("Deleted \(title).")
            return []
        case .songRemovedFromSheet(let sheet, let songID):
            if let index = myMusic.created.firstIndex(where: { $0.id == sheet.id }) {
                myMusic.created[index] = sheet
            }
            var title = "the song"
            if detail?.sheet?.id == sheet.id, var open = detail {
                title = open.songs.first { $0.id == songID }?.title ?? title
                open.songs.removeAll { $0.id == songID }
                open.list.clamp(count: open.songs.count)
                open.sheet?.songsCount = sheet.songsCount
                detail = open
            }
            show("Removed \(title) from \(sheet.title).")
            return []
        default:
            return nil
        }
    }

    /// Marks the open chat read when it is on screen and has messages not yet read here.
    private mutating func markReadIfViewing() -> [AppEffect] {
        guard screen == .chat, let chat, let id = chat.conversationID,
            let conversation = messages.conversations.first(where: { $0.id == id }),
            conversation.unreadCount > 0,
            let newest = chat.messages.last, newest.id != chat.readMarkSent
        else { return [] }
        self.chat?.readMarkSent = newest.id
        return [.markConversationRead(id: id, through: newest.id)]
    }

    private mutating func moreNotificationsIfWanted() -> [AppEffect] {
        guard notifications.wantsMore, let cursor = notifications.nextCursor else { return [] }
        notifications.loadingMore = true
        return [.loadNotifications(cursor: cursor)]
    }

    /// A message in a few words: its text, or what it shares.
    static func preview(_ message: Message) -> String {
        switch message.kind {
        case .text: return message.content ?? ""
        case .image: return "[picture]"
        case .song: return message.song.map { "♪ \($0.title)" } ?? "♪ a song no longer in the library"
        case .sheet: return message.sheet.map { "☰ \($0.title)" } ?? "☰ a sheet no longer shared"
        case .video: return message.video.map { "▶ \($0.title)" } ?? "▶ a video no longer in the library"
        }
    }

    // MARK: Keys

    /// Keys for the status row's question, prompt or a picker, and for typing a message; nil when none of
    /// them takes keys now.
    mutating func handleSocialKey(_ key: Key) -> [AppEffect]? {
        if let confirmation {
            self.confirmation = nil
            if key == .character("y") || key == .character("Y") { return [confirmation.effect] }
            show("Nothing was deleted.")
            return []
        }
        if prompt != nil { return handlePromptKey(key) }
        if sharePicker != nil { return handleSharePickerKey(key) }
        if screen == .chat, chat?.composing == true { return handleChatTyping(key) }
        return nil
    }

    private mutating func handlePromptKey(_ key: Key) -> [AppEffect] {
        guard var prompt else { return [] }
        switch key {
        case .escape:
            self.prompt = nil
            return []
        case .enter:
            let text = prompt.text.trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else {
                show("Type a title, or press Esc.", isError: true)
                return []
            }
            self.prompt = nil
            switch prompt.purpose {
            case .renameSheet(let id): return [.renameSheet(id: id, title: text)]
            }
        default:
            _ = TextEditing.apply(key, to: &prompt.text, cursor: &prompt.cursor)
            self.prompt = prompt
            return []
        }
    }

    private mutating func handleSharePickerKey(_ key: Key) -> [AppEffect] {
        guard var picker = sharePicker else { return [] }
        let conversations = messages.conversations
        switch keyMap.command(for: key) {
        case .back, .quit:
            sharePicker = nil
        case .play:
            sharePicker = nil
            guard let conversation = conversations[safe: picker.list.selected] else { return [] }
            show("Sharing \(picker.song.title) with \(conversation.user.nickname)…")
            return [.shareSong(songID: picker.song.id, with: conversation.user.id)]
        case let command?:
            if let delta = movement(command) {
                picker.list.move(delta, count: conversations.count)
                sharePicker = picker
            }
        case nil:
            break
        }
        return []
    }

    /// Keys while typing a message; nil for keys that act as commands (scrolling, function keys).
    private mutating func handleChatTyping(_ key: Key) -> [AppEffect]? {
        guard var chat else { return nil }
        switch key {
        case .enter:
            let text = chat.draft.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !text.isEmpty else { return [] }
            guard text.count <= MessageDraft.maxLength else {
                show("A message can be at most \(MessageDraft.maxLength) characters.", isError: true)
                return []
            }
            chat.draft = ""
            chat.cursor = 0
            chat.selected = nil
            self.chat = chat
            return [.sendMessage(text: text, to: chat.user.id)]
        case .escape:
            chat.composing = false
            chat.selected = chat.messages.isEmpty ? nil : chat.messages.count - 1
            self.chat = chat
            return []
        case .up, .pageUp, .pageDown, .tab, .backTab, .function, .control("r"):
            return nil
        case .down:
            return []
        default:
            _ = TextEditing.apply(key, to: &chat.draft, cursor: &chat.cursor)
            self.chat = chat
            return []
        }
    }

    // MARK: Commands

    /// The Messages screen: the conversations.
    mutating func messagesCommand(_ command: Command) -> [AppEffect]? {
        if !isSignedIn, command == .play {
            login = LoginState()
            screen = .login
            return []
        }
        let selected = messages.conversations[safe: messages.list.selected]
        switch command {
        case .play, .write:
            guard let selected else { return [] }
            return openChat(selected)
        case .remove:
            guard let selected else { return [] }
            confirmation = Confirmation(
                question:
                    "Delete the conversation with \(selected.user.nickname)? Its messages go for you only. y/n",
                effect: .deleteConversation(id: selected.id))
            return []
        case .refresh:
            guard isSignedIn else { return [] }
            messages.status = .loading
            return [.loadConversations(more: false)]
        default: return nil
        }
    }

    /// A chat, when keys move among its messages (not typing).
    mutating func chatCommand(_ command: Command) -> [AppEffect]? {
        guard var chat else { return nil }
        let selected = chat.selected.flatMap { chat.messages[safe: $0] }
        switch command {
        case .write:
            chat.composing = true
            chat.selected = nil
            self.chat = chat
            return []
        case .play:
            if let song = selected?.song { return [.playSongs([song], start: 0)] }
            if let sheet = selected?.sheet { return openDetail(.sheet, id: sheet.id, title: sheet.title) }
            chat.composing = true
            chat.selected = nil
            self.chat = chat
            return []
        case .remove:
            guard let selected, let id = chat.conversationID else { return [] }
            confirmation = Confirmation(
                question: "Delete this message? It goes for you only; \(chat.user.nickname) keeps it. y/n",
                effect: .deleteMessage(id: selected.id, conversationID: id))
            return []
        case .refresh:
            guard let id = chat.conversationID else { return [] }
            self.chat?.status = .loading
            return [.openConversation(id: id)]
        default: return nil
        }
    }

    mutating func notificationsCommand(_ command: Command) -> [AppEffect]? {
        if !isSignedIn, command == .play {
            login = LoginState()
            screen = .login
            return []
        }
        let selected = notifications.visible[safe: notifications.list.selected]
        switch command {
        case .nextTab, .previousTab:
            let count = NotificationsState.tabs.count
            notifications.tab = (notifications.tab + (command == .nextTab ? 1 : count - 1)) % count
            notifications.list = ListCursor()
            return moreNotificationsIfWanted()
        case .play:
            guard let selected, !selected.read else { return [] }
            markLocallyRead(selected)
            return [.markNotificationRead(id: selected.id)]
        case .write:
            guard let selected else { return [] }
            return openChat(with: selected.actor)
        case .markRead:
            guard notifications.unread.count > 0 || notifications.items.contains(where: { !$0.read }) else {
                show("Everything is read.")
                return []
            }
            for index in notifications.items.indices { notifications.items[index].read = true }
            notifications.unread = UnreadNotifications(
                count: 0, kinds: notifications.unread.kinds.mapValues { _ in 0 })
            return [.markAllNotificationsRead]
        case .refresh:
            guard isSignedIn else { return [] }
            notifications.status = .loading
            return [.loadNotifications(cursor: nil), .loadUnreadCounts]
        default: return nil
        }
    }

    private mutating func markLocallyRead(_ item: NotificationItem) {
        guard let index = notifications.items.firstIndex(where: { $0.id == item.id }) else { return }
        notifications.items[index].read = true
        notifications.unread.count = max(0, notifications.unread.count - 1)
        if let count = notifications.unread.kinds[item.kind] {
            notifications.unread.kinds[item.kind] = max(0, count - 1)
        }
    }

    /// Moves in the conversations, the chat or the inbox; loads more near an end.
    mutating func moveSocial(_ delta: Int) -> [AppEffect] {
        switch screen {
        case .messages:
            messages.list.move(delta, count: messages.conversations.count)
            if messages.hasMore, !messages.loadingMore,
                messages.list.selected >= messages.conversations.count - 5
            {
                messages.loadingMore = true
                return [.loadConversations(more: true)]
            }
        case .notifications:
            notifications.list.move(delta, count: notifications.visible.count)
            return moreNotificationsIfWanted()
        case .chat:
            guard var chat, !chat.messages.isEmpty else { return [] }
            let last = chat.messages.count - 1
            let step = max(-100_000, min(100_000, delta))
            if let selected = chat.selected, !chat.composing {
                if step > 0, selected == last {
                    // Past the newest message: back to typing.
                    chat.selected = nil
                    chat.composing = true
                } else {
                    chat.selected = min(last, max(0, selected + step))
                }
            } else {
                guard step < 0 else { return [] }
                chat.composing = false
                chat.selected = max(0, last + 1 + step)
            }
            var effects: [AppEffect] = []
            if chat.selected == 0, chat.hasOlder, !chat.loadingOlder, let id = chat.conversationID {
                chat.loadingOlder = true
                effects = [.loadOlderMessages(conversationID: id)]
            }
            self.chat = chat
            return effects
        default:
            break
        }
        return []
    }

    // MARK: Opening chats

    mutating func openChat(with user: UserSummary) -> [AppEffect] {
        guard isSignedIn else {
            show("Sign in to send messages.", isError: true)
            return []
        }
        guard user.id != userID else {
            show("That is you.", isError: true)
            return []
        }
        if let conversation = messages.conversations.first(where: { $0.user.id == user.id }) {
            return openChat(conversation)
        }
        if chat?.user.id != user.id || chat?.conversationID != nil {
            chat = ChatState(user: user, conversationID: nil)
            chat?.status = .loaded
        }
        chat?.composing = true
        chat?.selected = nil
        open(.chat)
        return []
    }

    mutating func openChat(_ conversation: Conversation) -> [AppEffect] {
        if chat?.conversationID != conversation.id {
            chat = ChatState(user: conversation.user, conversationID: conversation.id)
        }
        chat?.composing = true
        chat?.selected = nil
        chat?.readMarkSent = nil
        open(.chat)
        return [.openConversation(id: conversation.id)]
    }

    /// Shares a song: straight into the chat on screen, else in a conversation chosen from a list.
    mutating func share(_ song: Song?) -> [AppEffect] {
        guard isSignedIn else {
            show("Sign in to share songs.", isError: true)
            return []
        }
        guard let song else {
            show("Play a song to share it.", isError: true)
            return []
        }
        if screen == .chat, let chat {
            show("Sharing \(song.title) with \(chat.user.nickname)…")
            return [.shareSong(songID: song.id, with: chat.user.id)]
        }
        guard !messages.conversations.isEmpty else {
            show("No conversations yet: find someone with / and Tab to People, then w.", isError: true)
            return messages.status == .idle ? [.loadConversations(more: false)] : []
        }
        sharePicker = SharePicker(song: song)
        return []
    }

    // MARK: Sheets

    /// My sheet on screen (the detail of one of mine, or the one selected under My sheets).
    var ownSheetInFocus: Sheet? {
        switch screen {
        case .detail:
            guard let sheet = detail?.sheet, sheet.user.id == userID else { return nil }
            return sheet
        case .myMusic where myMusic.tab == 0:
            return myMusic.created[safe: myMusic.list.selected]
        default:
            return nil
        }
    }

    mutating func renameSheet() -> [AppEffect]? {
        guard let sheet = ownSheetInFocus else { return nil }
        guard sheet.kind != "likes" else {
            show("\"\(sheet.title)\" keeps its name.", isError: true)
            return []
        }
        prompt = TextPrompt(
            purpose: .renameSheet(id: sheet.id), label: "Rename \"\(sheet.title)\" to: ", text: sheet.title,
            cursor: sheet.title.count)
        return []
    }

    /// `x` on my sheet under My sheets (delete it, asked first) or on a song of my sheet (take it out).
    mutating func removeFromOwnSheet() -> [AppEffect]? {
        if screen == .myMusic, myMusic.tab == 2 {
            guard let song = myMusic.liked[safe: myMusic.list.selected] else { return [] }
            return [.setLiked(songID: song.id, liked: false)]
        }
        guard let sheet = ownSheetInFocus else { return nil }
        if screen == .myMusic {
            guard sheet.kind != "likes" else {
                show("\"\(sheet.title)\" cannot be deleted.", isError: true)
                return []
            }
            confirmation = Confirmation(
                question:
                    "Delete your sheet \"\(sheet.title)\" and its list of \(sheet.songsCount) songs? y/n",
                effect: .deleteSheet(id: sheet.id))
            return []
        }
        guard let song = detail?.songs[safe: detail?.list.selected ?? 0] else { return [] }
        if sheet.kind == "likes" { return [.setLiked(songID: song.id, liked: false)] }
        return [.removeFromSheet(songID: song.id, sheetID: sheet.id)]
    }
}
