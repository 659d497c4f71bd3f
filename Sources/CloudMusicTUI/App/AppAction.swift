import CloudMusicKit
import MusicCore

/// Something that happened: a key, or the answer to an effect.
public enum AppAction: Sendable {
    case key(Key)
    /// Once a second.
    case tick
    case signedIn(userID: String, nickname: String?)
    case signInFailed(String)
    case codeSent(String)
    /// A call needed a session the server no longer knows.
    case sessionExpired
    case homeLoaded(sheets: [Sheet], newSongs: [Song], recent: [Song])
    case homeFailed(String)
    case libraryPage(LibraryPage)
    case libraryFailed(tab: Int, String)
    case searchAnswered(generation: Int, SearchResults, sheets: [Sheet] = [], users: [User] = [])
    case searchFailed(generation: Int, String)
    case detailLoaded(DetailState)
    case detailFailed(id: String, String)
    case myMusicLoaded(created: [Sheet], collected: [Sheet], liked: [Song])
    case myMusicFailed(String)
    case queueChanged(songs: [Song], current: Int?, mode: LoopMode)
    case playback(PlaybackState)
    case progress(position: Double, duration: Double?)
    /// The sound output failed, or works again.
    case soundOutput(SoundOutput)
    case lyricLoaded(songID: String, Lyric?, message: String?)
    /// A page of a song's comments; `more` is true for a page after the first (it adds to the list).
    case commentsLoaded(songID: String, [Comment], nextCursor: String? = nil, more: Bool = false)
    case commentsFailed(String)
    case commentPosted(Comment)
    case commentChanged(Comment)
    case downloadsChanged([DownloadEntry])
    case likedChanged(songID: String, liked: Bool)
    case collectedChanged(sheetID: String, collected: Bool)
    /// A song went into one of my sheets (`created` when the sheet was made for it).
    case addedToSheet(Sheet, created: Bool)
    case notice(String, isError: Bool)
    // Messages and notifications.
    /// The conversation list or the unread counts changed (loaded, or an event arrived).
    case conversationsChanged([Conversation], hasMore: Bool, unread: UnreadMessages)
    case conversationsFailed(String)
    /// A conversation's loaded messages changed; nil when it is gone.
    case threadChanged(conversationID: String, ChatRepository.Thread?)
    case threadFailed(conversationID: String, String)
    /// A message of one's own was sent (the chat of a new conversation learns its id from it).
    case messageSent(Message, to: String)
    /// Sending failed: the text comes back into the field.
    case messageFailed(String, text: String?)
    /// Someone else's message arrived.
    case messageReceived(Message)
    case liveStatus(LiveStatus)
    /// A page of the inbox; `more` for a page after the first.
    case notificationsLoaded([NotificationItem], nextCursor: String?, more: Bool)
    case notificationsFailed(String)
    case notificationArrived(NotificationItem, unread: UnreadNotifications)
    case notificationsUnread(UnreadNotifications)
    case notificationChanged(NotificationItem)
    /// "I like" changed (on this device or another).
    case likesChangedElsewhere(songID: String, liked: Bool)
    /// Missed events are gone: load again what is shown.
    case reloadEverything
    // Sheets.
    case sheetRenamed(Sheet)
    case sheetDeleted(id: String)
    case songRemovedFromSheet(Sheet, songID: String)
    /// Commands from outside: media keys (MPRIS) and `cloudmusic pause|next|...`.
    case remote(Command)
    case remoteVolume(Int)
    case remoteLoopMode(LoopMode)
    // Podcasts.
    case podcastsLoaded([Podcast])
    case podcastsFailed(String)
    case episodesLoaded(podcastID: String, [PodcastEpisode])
    case episodesFailed(podcastID: String, String)
    /// Subscribed or unsubscribed.
    case podcastChanged(Podcast)
    case episodeCommentsLoaded(episodeID: String, [Comment], total: Int)
    case episodeCommentsFailed(episodeID: String, String)
    /// Liked or unliked: the episode as the server now has it.
    case episodeChanged(PodcastEpisode)
    // News.
    case newsChannelsLoaded([NewsChannel])
    case newsChannelsFailed(String)
    /// A channel's first page, or (`more`) the next older one.
    case newsArticlesLoaded(channelID: String, NewsArticlePage, more: Bool)
    case newsArticlesFailed(channelID: String, String)
    case newsArticleLoaded(NewsArticleDetail)
    case newsArticleFailed(id: String, String)
}

/// One page of one of the library's tabs.
public enum LibraryPage: Sendable {
    case artists([Artist], page: Int, next: Int?)
    case albums([Album], page: Int, next: Int?)
    case songs([Song], page: Int, next: Int?)
    case genres([Genre], page: Int, next: Int?)
}

/// Work the runtime does for the state: calls to the server, the player, the downloads.
public enum AppEffect: Sendable, Equatable {
    case signIn(account: String, password: String)
    case signUp(nickname: String, account: String, password: String, code: String?)
    case sendCode(account: String)
    case loadHome
    case loadLibrary(tab: Int, page: Int)
    case search(query: String, generation: Int)
    case openDetail(DetailState.Kind, id: String, title: String)
    case loadMyMusic
    case playSongs([Song], start: Int)
    case addToQueue(Song)
    case playQueueIndex(Int)
    case togglePlayPause
    case next
    case previous
    case seek(by: Double)
    case setVolume(Int)
    case setLoopMode(LoopMode)
    case moveInQueue(from: Int, to: Int)
    case removeFromQueue(Int)
    case clearQueue
    case download(Song)
    case deleteDownload(songID: String)
    case pauseDownload(songID: String)
    case resumeDownload(songID: String)
    case setLiked(songID: String, liked: Bool)
    case setCollected(sheetID: String, collected: Bool)
    case addToSheet(songID: String, sheetID: String)
    case createSheet(title: String, songID: String)
    case loadLyric(songID: String)
    /// The first page of a song's comments, or the page after `cursor`.
    case loadComments(songID: String, cursor: String? = nil)
    case postComment(text: String, songID: String, replyTo: String?)
    case likeComment(id: String)
    case unlikeComment(likeID: String, commentID: String)
    // Messages and notifications.
    case loadConversations(more: Bool)
    /// Loads a conversation's newest messages (the chat opened).
    case openConversation(id: String)
    case loadOlderMessages(conversationID: String)
    case sendMessage(text: String, to: String)
    case shareSong(songID: String, with: String)
    case markConversationRead(id: String, through: String)
    case deleteMessage(id: String, conversationID: String)
    case deleteConversation(id: String)
    /// The unread counts of messages and notifications, for the tab bar.
    case loadUnreadCounts
    /// The first page of the inbox, or the page after `cursor`.
    case loadNotifications(cursor: String?)
    case markNotificationRead(id: String)
    case markAllNotificationsRead
    // Sheets.
    case renameSheet(id: String, title: String)
    case deleteSheet(id: String)
    case removeFromSheet(songID: String, sheetID: String)
    // Podcasts.
    case loadPodcasts
    case openPodcast(id: String)
    case setSubscribed(podcastID: String, Bool)
    /// The newest comments of an episode.
    case loadEpisodeComments(episodeID: String)
    /// Likes the episode, or (with the like's id) takes the like back.
    case setEpisodeLiked(episodeID: String, likeID: String?)
    /// Plays the episodes from `start`, resumed where the person left it.
    case playEpisodes([PodcastEpisode], start: Int)
    case setSpeed(Double)
    // News.
    case loadNewsChannels
    /// A channel's first page, or the page after `cursor`.
    case openNewsChannel(id: String, cursor: String?)
    case openNewsArticle(id: String)
    case markNewsRead(articleID: String, Bool)
    case markNewsChannelRead(channelID: String)
    case quit
}
