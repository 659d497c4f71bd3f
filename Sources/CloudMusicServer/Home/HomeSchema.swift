import Storage

/// The home screen: the administrator's choice of modules and each person's own order of them.
enum HomeSchema {
    static let migration = Migration(
        version: 15, name: "home modules and layouts",
        sql: """
            -- The administrator's settings, one row per module type once they are saved; a type without a
            -- row shows with its defaults (so a module type added later shows too).
            CREATE TABLE home_modules (
                module_type TEXT PRIMARY KEY,
                position INTEGER NOT NULL,
                enabled INTEGER NOT NULL,
                title TEXT,
                size INTEGER NOT NULL
            ) WITHOUT ROWID;
            -- A person's order of the modules and which they hide; modules not listed follow in the usual order.
            CREATE TABLE home_layouts (
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                module_type TEXT NOT NULL,
                position INTEGER NOT NULL,
                hidden INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY (user_id, module_type)
            ) WITHOUT ROWID;
            """)
}
