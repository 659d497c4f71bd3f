import Storage

/// News (issue 32): channels, the feeds (sources) in them, articles merged across sources, and each person's
/// marks.
///
/// An article is one row however many sources carry it: found again by its link or by a guid that names it
/// everywhere (`guid_key`, see `NewsFeeds.globalGuid`); `news_links` says which sources carry it (and under
/// which guid), `news_entries` which channels list it, with the channel page's keyset (`published_at`, id).
/// Marks: `read` is 1 or 0 when set by hand, else an article at or below the person's read-all line of the
/// channel (`news_read_lines`) counts as read, so marking a channel read is one row, and unread counts scan
/// only what lies above the line (bounded, capped at 999). Search: FTS5 over text spaced by
/// `SearchText.indexText` (each CJK character a token, a query's run a phrase), as sheets are searched.
enum NewsSchema {
    static let migration = Migration(
        version: 70, name: "news",
        sql: """
            CREATE TABLE news_channels (
                id INTEGER PRIMARY KEY,
                owner_id INTEGER REFERENCES users(id) ON DELETE CASCADE,
                title TEXT NOT NULL,
                position INTEGER NOT NULL,
                created_at INTEGER NOT NULL
            );
            CREATE INDEX news_channels_by_owner ON news_channels(owner_id, position, id);
            CREATE TABLE news_sources (
                id INTEGER PRIMARY KEY,
                owner_id INTEGER REFERENCES users(id) ON DELETE CASCADE,
                channel_id INTEGER NOT NULL REFERENCES news_channels(id) ON DELETE CASCADE,
                url TEXT NOT NULL,
                title TEXT NOT NULL,
                etag TEXT,
                last_modified TEXT,
                refreshed_at INTEGER,
                next_refresh_at INTEGER NOT NULL,
                failures INTEGER NOT NULL DEFAULT 0,
                last_error TEXT,
                created_at INTEGER NOT NULL,
                UNIQUE (channel_id, url)
            );
            CREATE INDEX news_sources_due ON news_sources(next_refresh_at);
            CREATE INDEX news_sources_by_owner ON news_sources(owner_id, id);
            CREATE TABLE news_articles (
                id INTEGER PRIMARY KEY,
                url TEXT,
                guid_key TEXT,
                title TEXT NOT NULL,
                summary TEXT NOT NULL DEFAULT '',
                content_html TEXT NOT NULL DEFAULT '',
                author TEXT,
                -- Seconds since 1970: the feed's date (never later than when it was seen), else when seen.
                published_at INTEGER NOT NULL,
                -- JSON lists of the original addresses: pictures, and videos {url, type, poster}.
                images TEXT NOT NULL DEFAULT '[]',
                videos TEXT NOT NULL DEFAULT '[]',
                source_id INTEGER,
                created_at INTEGER NOT NULL,
                updated_at INTEGER NOT NULL
            );
            CREATE UNIQUE INDEX news_articles_by_url ON news_articles(url) WHERE url IS NOT NULL;
            CREATE UNIQUE INDEX news_articles_by_guid ON news_articles(guid_key) WHERE guid_key IS NOT NULL;
            CREATE TABLE news_links (
                source_id INTEGER NOT NULL REFERENCES news_sources(id) ON DELETE CASCADE,
                guid TEXT NOT NULL,
                article_id INTEGER NOT NULL REFERENCES news_articles(id) ON DELETE CASCADE,
                PRIMARY KEY (source_id, guid)
            ) WITHOUT ROWID;
            CREATE INDEX news_links_by_article ON news_links(article_id, source_id);
            CREATE TABLE news_entries (
                channel_id INTEGER NOT NULL REFERENCES news_channels(id) ON DELETE CASCADE,
                article_id INTEGER NOT NULL REFERENCES news_articles(id) ON DELETE CASCADE,
                published_at INTEGER NOT NULL,
                PRIMARY KEY (channel_id, article_id)
            ) WITHOUT ROWID;
            -- The channel page, newest first, by key.
            CREATE INDEX news_entries_page ON news_entries(channel_id, published_at DESC, article_id DESC);
            CREATE INDEX news_entries_by_article ON news_entries(article_id);
            CREATE TABLE news_marks (
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                article_id INTEGER NOT NULL REFERENCES news_articles(id) ON DELETE CASCADE,
                read INTEGER,
                saved_at INTEGER,
                hidden INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY (user_id, article_id)
            ) WITHOUT ROWID;
            CREATE INDEX news_marks_saved ON news_marks(user_id, saved_at DESC, article_id DESC)
                WHERE saved_at IS NOT NULL;
            CREATE INDEX news_marks_by_article ON news_marks(article_id);
            CREATE TABLE news_read_lines (
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                channel_id INTEGER NOT NULL REFERENCES news_channels(id) ON DELETE CASCADE,
                published_at INTEGER NOT NULL,
                article_id INTEGER NOT NULL,
                PRIMARY KEY (user_id, channel_id)
            ) WITHOUT ROWID;
            CREATE INDEX news_read_lines_by_channel ON news_read_lines(channel_id);
            CREATE TABLE news_images (
                token TEXT PRIMARY KEY,
                url TEXT NOT NULL
            ) WITHOUT ROWID;
            CREATE VIRTUAL TABLE news_search USING fts5(
                title, body, tokenize = 'unicode61 remove_diacritics 2');
            CREATE TRIGGER news_search_go AFTER DELETE ON news_articles BEGIN
                DELETE FROM news_search WHERE rowid = OLD.id;
            END;
            """)
}
