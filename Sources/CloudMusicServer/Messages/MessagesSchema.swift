import Storage

/// One-to-one messages. A conversation is a pair of people (`user_low` < `user_high`); each of them has a
/// member row with what is theirs alone: how far they read, what they deleted, their unread count and the
/// newest message they still see (NULL when they deleted the conversation, which leaves their list).
enum MessagesSchema {
    static let migration = Migration(
        version: 24, name: "messages",
        sql: """
            CREATE TABLE conversations (
                id INTEGER PRIMARY KEY,
                user_low INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                user_high INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                created_at INTEGER NOT NULL,
                CHECK (user_low < user_high),
                UNIQUE (user_low, user_high)
            );
            CREATE INDEX conversations_by_high ON conversations(user_high);
            CREATE TABLE conversation_members (
                conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                peer_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                last_message_id INTEGER,
                read_through INTEGER NOT NULL DEFAULT 0,
                cleared_through INTEGER NOT NULL DEFAULT 0,
                unread_count INTEGER NOT NULL DEFAULT 0,
                updated_at INTEGER NOT NULL,
                PRIMARY KEY (conversation_id, user_id)
            ) WITHOUT ROWID;
            CREATE INDEX conversation_members_by_user
                ON conversation_members(user_id, updated_at DESC, conversation_id DESC)
                WHERE last_message_id IS NOT NULL;
            CREATE INDEX conversation_members_by_peer ON conversation_members(peer_id);
            -- kind: 1 text, 2 image, 3 song, 4 sheet, 5 video. file_id is an uploaded file's sha256.
            CREATE TABLE messages (
                id INTEGER PRIMARY KEY,
                conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
                sender_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                kind INTEGER NOT NULL,
                content TEXT,
                file_id TEXT,
                song_id INTEGER,
                sheet_id INTEGER,
                video_id INTEGER,
                created_at INTEGER NOT NULL
            );
            CREATE INDEX messages_by_conversation ON messages(conversation_id, id);
            CREATE INDEX messages_by_sender ON messages(sender_id, created_at);
            CREATE TABLE message_deletions (
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
                PRIMARY KEY (user_id, message_id)
            ) WITHOUT ROWID;
            CREATE INDEX message_deletions_by_message ON message_deletions(message_id);
            -- allow_from: 0 everyone, 1 only people one follows. No row: everyone.
            CREATE TABLE message_settings (
                user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                allow_from INTEGER NOT NULL DEFAULT 0
            );
            """)
}
