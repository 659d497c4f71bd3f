import Testing

@testable import PostgresStorage

@Suite struct PlaceholderTests {
    @Test func questionMarksAreNumberedInOrder() throws {
        let (sql, count) = try Placeholders.numbered("SELECT a FROM t WHERE b = ? AND c IN (?, ?) LIMIT ?")
        #expect(sql == "SELECT a FROM t WHERE b = $1 AND c IN ($2, $3) LIMIT $4")
        #expect(count == 4)
    }

    @Test(arguments: [
        "SELECT '?' , 'it''s ?' FROM t",
        "SELECT \"odd?name\", \"a\"\"?\" FROM t",
        "SELECT 1 -- what? \nFROM t",
        "SELECT 1 /* a /* nested ? */ still ? */ FROM t",
        "SELECT $$ ? $$, $body$ it's ? $body$ FROM t",
        "SELECT E'\\' ?' FROM t",
        "SELECT x::text, a$b FROM t",
    ])
    func questionMarksInsideLiteralsNamesAndCommentsAreLeftAlone(sql: String) throws {
        let (rewritten, count) = try Placeholders.numbered(sql)
        #expect(rewritten == sql)
        #expect(count == 0)
    }

    @Test func placeholdersAfterLiteralsAndCommentsAreStillFound() throws {
        let (sql, count) = try Placeholders.numbered("SELECT 'a?' || ? -- ?\n, $$?$$, ? /* ? */")
        #expect(sql == "SELECT 'a?' || $1 -- ?\n, $$?$$, $2 /* ? */")
        #expect(count == 2)
    }

    @Test func numberedSQLIsKeptAndCounted() throws {
        let (sql, count) = try Placeholders.numbered("SELECT $2::int + $1::int, $2")
        #expect(sql == "SELECT $2::int + $1::int, $2")
        #expect(count == 2)
    }

    @Test func mixingBothFormsIsRefused() {
        #expect(throws: PostgresError.self) { try Placeholders.numbered("SELECT $1 + ?") }
    }

    @Test func unicodeAroundPlaceholdersSurvives() throws {
        let (sql, count) = try Placeholders.numbered("SELECT '一时失志?' AS 歌, ? AS 词")
        #expect(sql == "SELECT '一时失志?' AS 歌, $1 AS 词")
        #expect(count == 1)
    }
}
