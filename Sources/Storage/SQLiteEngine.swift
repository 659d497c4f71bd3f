import CSQLite

// SQLite meets the engine-neutral surface with the API it already had: nothing here is on a hot path.

extension Row: SQLRow {}

extension Connection: SQLConnection {
    public var dialect: Dialect { .sqlite }
}

extension Database: SQLDatabase {
    public var dialect: Dialect { .sqlite }
}

extension DatabaseError: SQLError {
    public var kind: SQLErrorKind {
        // SQLITE_CONSTRAINT_UNIQUE, _PRIMARYKEY and _FOREIGNKEY: macros Swift does not import.
        switch code {
        case SQLITE_CONSTRAINT | (8 << 8), SQLITE_CONSTRAINT | (6 << 8): .uniqueViolation
        case SQLITE_CONSTRAINT | (3 << 8): .foreignKeyViolation
        case _ where isConstraintViolation: .constraintViolation
        default: .other
        }
    }
}
