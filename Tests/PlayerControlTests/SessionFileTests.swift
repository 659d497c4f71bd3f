import Foundation
import Testing

@testable import PlayerControl

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct SessionFileTests {
    let server = URL(string: "http://127.0.0.1:8080")!
    let session = SavedSession(
        server: "http://127.0.0.1:8080", userId: "42", token: "tok-abc", nickname: "小明")

    @Test func writesAPrivateFileInAPrivateFolderAndReadsItBack() throws {
        let folder = TemporaryFolder()
        let path = folder.file("state/cloudmusic/session.json")
        let file = SessionFile(url: URL(fileURLWithPath: path))
        try file.write(session)
        #expect(mode(of: path) == 0o600)
        #expect(mode(of: folder.file("state/cloudmusic")) == 0o700)
        #expect(mode(of: folder.file("state")) == 0o700)
        #expect(try file.read(server: server) == session)

        // Exactly the four fields: nothing like a password is ever written.
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(
            (object as? [String: String]).map { Set($0.keys) } == ["server", "userId", "token", "nickname"])
    }

    @Test func usesTheXDGStatePath() throws {
        let folder = TemporaryFolder()
        let file = SessionFile(environment: ["XDG_STATE_HOME": folder.path])
        #expect(file.path == folder.file("cloudmusic/session.json"))
        try file.write(session)
        #expect(try file.read(server: server) == session)
    }

    @Test func refusesAFileOthersCanRead() throws {
        let folder = TemporaryFolder()
        let path = folder.file("session.json")
        let file = SessionFile(url: URL(fileURLWithPath: path))
        try file.write(session)
        chmod(path, 0o644)
        let error = #expect(throws: SessionFileError.self) { try file.read(server: server) }
        #expect(error?.code == .unsafePermissions)
        #expect(error?.message.contains("Run `chmod 600 \(path)`") == true)
        chmod(path, 0o600)
        #expect(try file.read(server: server) == session)
    }

    @Test(.enabled(if: getuid() == 0, "chown to another user needs root"))
    func refusesAFileAnotherUserOwns() throws {
        let folder = TemporaryFolder()
        let path = folder.file("session.json")
        let file = SessionFile(url: URL(fileURLWithPath: path))
        try file.write(session)
        #expect(chown(path, 65534, 65534) == 0)
        let error = #expect(throws: SessionFileError.self) { try file.read(server: server) }
        #expect(error?.code == .notOwner)
    }

    @Test func refusesASymlinkAndADamagedFile() throws {
        let folder = TemporaryFolder()
        let real = folder.file("real.json")
        let file = SessionFile(url: URL(fileURLWithPath: real))
        try file.write(session)
        let link = folder.file("session.json")
        #expect(symlink(real, link) == 0)
        let linked = #expect(throws: SessionFileError.self) {
            try SessionFile(url: URL(fileURLWithPath: link)).read(server: server)
        }
        #expect(linked?.code == .notAFile)

        let damaged = folder.file("damaged.json")
        #expect(
            FileManager.default.createFile(
                atPath: damaged, contents: Data("{\"server\":".utf8), attributes: [.posixPermissions: 0o600]))
        let corrupt = #expect(throws: SessionFileError.self) {
            try SessionFile(url: URL(fileURLWithPath: damaged)).read(server: server)
        }
        #expect(corrupt?.code == .corrupt)
    }

    @Test func ignoresASessionForAnotherServer() throws {
        let folder = TemporaryFolder()
        let file = SessionFile(url: URL(fileURLWithPath: folder.file("session.json")))
        try file.write(session)
        #expect(try file.read(server: URL(string: "http://127.0.0.1:9090")!) == nil)
        #expect(try file.read(server: URL(string: "https://127.0.0.1:8080")!) == nil)
        #expect(try file.read(server: URL(string: "http://music.example.com")!) == nil)
        // The same server written differently still matches.
        #expect(try file.read(server: URL(string: "HTTP://127.0.0.1:8080/")!) == session)
        #expect(SessionFile.sameServer("https://Music.Example.com/", "https://music.example.com:443"))
        #expect(!SessionFile.sameServer("http://a.example/x", "http://a.example/y"))
    }

    @Test func replacesAtomicallyWithAFreshPrivateFile() throws {
        let folder = TemporaryFolder()
        let path = folder.file("session.json")
        let file = SessionFile(url: URL(fileURLWithPath: path))
        try file.write(session)
        var before = stat()
        lstat(path, &before)
        // A loose mode on the old file is not inherited: the new file replaces it by rename.
        chmod(path, 0o644)

        var second = session
        second.token = "tok-new"
        second.nickname = "Ming"
        try file.write(second)
        var after = stat()
        lstat(path, &after)
        #expect(after.st_ino != before.st_ino)
        #expect(mode(of: path) == 0o600)
        #expect(try file.read(server: server) == second)
        // No temporary file is left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["session.json"])
    }

    @Test func clearForgetsTheSession() throws {
        let folder = TemporaryFolder()
        let path = folder.file("session.json")
        let file = SessionFile(url: URL(fileURLWithPath: path))
        #expect(try file.read(server: server) == nil)
        try file.clear()  // nothing to clear is fine
        try file.write(session)
        try file.clear()
        #expect(!exists(path))
        #expect(try file.read(server: server) == nil)
    }
}
