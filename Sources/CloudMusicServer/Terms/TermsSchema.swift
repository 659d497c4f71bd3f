import Storage

/// The privacy policy and the user agreement in numbered versions, and who accepted which version when.
enum TermsSchema {
    static let migration = Migration(
        version: 17, name: "terms and acceptances",
        sql: """
            CREATE TABLE terms (
                id INTEGER PRIMARY KEY,
                kind TEXT NOT NULL CHECK (kind IN ('privacy', 'user')),
                version INTEGER NOT NULL,
                title TEXT NOT NULL,
                text TEXT NOT NULL,
                created_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
                created_at INTEGER NOT NULL,
                updated_at INTEGER NOT NULL,
                UNIQUE (kind, version)
            );
            -- The first acceptance of a version is kept; accepting it again changes nothing.
            CREATE TABLE terms_acceptances (
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                terms_id INTEGER NOT NULL REFERENCES terms(id) ON DELETE CASCADE,
                accepted_at INTEGER NOT NULL,
                PRIMARY KEY (user_id, terms_id)
            ) WITHOUT ROWID;
            CREATE INDEX terms_acceptances_by_terms ON terms_acceptances(terms_id);
            """)
}
