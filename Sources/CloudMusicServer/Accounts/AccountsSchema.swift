import Storage

/// The accounts' tables: users, sessions, verification codes, the code send log and the outbox.
///
/// Secrets are never stored: passwords as argon2id hashes, session and chat tokens as BLAKE2b digests,
/// codes as BLAKE2b digests keyed with a per-code salt.
enum AccountsSchema {
    static let migration = Migration(
        version: 3, name: "accounts",
        sql: """
            CREATE TABLE users (
                id INTEGER PRIMARY KEY,
                phone TEXT UNIQUE,
                email TEXT UNIQUE,
                nickname TEXT NOT NULL,
                nickname_key TEXT NOT NULL UNIQUE,
                password_hash TEXT NOT NULL,
                avatar_version INTEGER,
                description TEXT,
                gender INTEGER NOT NULL DEFAULT 0 CHECK (gender IN (0, 10, 20)),
                birthday TEXT,
                province TEXT,
                city TEXT,
                area TEXT,
                role TEXT NOT NULL DEFAULT 'user' CHECK (role IN ('user', 'admin')),
                disabled INTEGER NOT NULL DEFAULT 0,
                created_at INTEGER NOT NULL,
                updated_at INTEGER NOT NULL,
                CHECK (phone IS NOT NULL OR email IS NOT NULL)
            );
            CREATE INDEX users_by_role ON users(role) WHERE role = 'admin';
            CREATE TABLE sessions (
                id INTEGER PRIMARY KEY,
                token_hash TEXT NOT NULL UNIQUE,
                chat_token_hash TEXT NOT NULL,
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                device TEXT,
                user_agent TEXT,
                address TEXT,
                created_at INTEGER NOT NULL,
                last_seen_at INTEGER NOT NULL,
                expires_at INTEGER NOT NULL
            );
            CREATE INDEX sessions_by_user ON sessions(user_id, last_seen_at DESC);
            CREATE INDEX sessions_by_expiry ON sessions(expires_at);
            -- target: the normalised phone number or email address; purpose: login or reset.
            CREATE TABLE verification_codes (
                id INTEGER PRIMARY KEY,
                target TEXT NOT NULL,
                purpose TEXT NOT NULL,
                code_hash TEXT NOT NULL,
                salt TEXT NOT NULL,
                tries INTEGER NOT NULL DEFAULT 0,
                created_at INTEGER NOT NULL,
                expires_at INTEGER NOT NULL
            );
            CREATE INDEX verification_codes_by_target ON verification_codes(target, purpose, id DESC);
            CREATE TABLE code_sends (
                target TEXT NOT NULL,
                address TEXT NOT NULL,
                sent_at INTEGER NOT NULL
            );
            CREATE INDEX code_sends_by_target ON code_sends(target, sent_at);
            CREATE INDEX code_sends_by_time ON code_sends(sent_at);
            CREATE TABLE outbox (
                id INTEGER PRIMARY KEY,
                channel TEXT NOT NULL,
                target TEXT NOT NULL,
                purpose TEXT NOT NULL,
                body TEXT NOT NULL,
                created_at INTEGER NOT NULL
            );
            CREATE INDEX outbox_by_time ON outbox(created_at);
            """)
}
