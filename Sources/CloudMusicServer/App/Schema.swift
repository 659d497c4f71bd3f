import Storage

/// The server's schema, one forward-only migration per change. Never edit a shipped migration: add one.
enum Schema {
    static let migrator = Migrator([
        LibrarySchema.migration,
        AccountsSchema.migration,
        LibrarySchema.searchIndexPerKind,
        SheetsSchema.migration,
        CommentsSchema.migration,
        FollowsSchema.migration,
        FeedsSchema.migration,
        SheetsSchema.searchIndex,
        NotificationsSchema.migration,
        FilesSchema.migration,
        CommentsSchema.hotScoreOnce,
        FeedsSchema.totals,
        AdsSchema.migration,
        HomeSchema.migration,
        AppVersionsSchema.migration,
        TermsSchema.migration,
        VideosSchema.migration,
        RecommendationsSchema.migration,
        SubsonicSchema.migration,
        CommentsSchema.onVideos,
        LibrarySchema.longerPrefixes,
        EventsSchema.migration,
        MessagesSchema.migration,
        SearchHistorySchema.migration,
        SubsonicSchema.internetRadio,
        SubsonicSchema.privacy,
        LibrarySchema.tagDetails,
        SheetsSchema.repeats,
        SecuritySchema.failureCounts,
        EventsSchema.sessionEnds,
        ShopSchema.migration,
        ShopSchema.shipping,
        PodcastsSchema.migration,
        CommentsSchema.onEpisodes,
        PodcastsSchema.albumOrder,
        PodcastsSchema.episodeSearch,
        PodcastsSchema.episodeNotesSearch,
        NewsSchema.migration,
        AudiobooksSchema.migration,
        AudiobooksSchema.deletions,
        GPodderSchema.migration,
        GPodderSchema.pruning,
        PodcastsSchema.likes,
        FeedsSchema.episodeShares,
        Migration(
            version: 1, name: "server metadata",
            sql: """
                CREATE TABLE server_meta (
                    key TEXT PRIMARY KEY,
                    value TEXT NOT NULL
                ) WITHOUT ROWID;
                INSERT INTO server_meta(key, value) VALUES ('created_at', strftime('%Y-%m-%dT%H:%M:%SZ', 'now'));
                """),
    ])
}
