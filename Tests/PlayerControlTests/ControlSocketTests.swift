import Foundation
import MusicCore
import Synchronization
import Testing

@testable import PlayerControl

#if canImport(Glibc)
    import Glibc
#endif

/// The commands a test player received, in order.
private actor Recorder {
    private(set) var commands: [ControlCommand] = []

    func record(_ command: ControlCommand) { commands.append(command) }
}

private let sampleStatus = PlayerStatus(
    state: "playing", title: "晴天", artist: "周杰伦", album: "叶惠美", position: 83, duration: 245,
    loopMode: "list", volume: 80)

/// How long the test player's handler may take, and a client may wait: bounds for a hung test only.
///
/// The handler's task runs on the socket's own queue (once on the cooperative pool, which this process shares
/// with every other test: under load it waited there past 120 s, "The player did not answer within 120 seconds");
/// the bounds stay generous for a machine whose two cores are shared with builds.
private let handlerBound: Duration = .seconds(120)
private let clientBound = 600.0

/// A server at `path` that records each command and answers ok with `sampleStatus`.
private func startPlayer(at path: String, recorder: Recorder) throws -> ControlServer {
    try ControlServer(path: path, handlerTimeout: handlerBound) { command in
        await recorder.record(command)
        return ControlResponse(ok: true, message: "did \(command.name)", status: sampleStatus)
    }
}

private func send(_ command: ControlCommand, _ path: String) async throws -> ControlResponse {
    try await offPool { try ControlClient.send(command, path: path, timeout: clientBound) }
}

/// Sends raw bytes (not necessarily a valid request) and decodes the answer line.
private func sendRaw(_ bytes: [UInt8], _ path: String) async throws -> ControlResponse {
    let line = try await offPool { try ControlClient.exchange(bytes, path: path, timeout: clientBound) }
    return try JSONDecoder().decode(ControlResponse.self, from: Data(line))
}

@Suite struct ControlProtocolTests {
    @Test func commandsAreOneSmallJSONObject() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(
            String(decoding: try encoder.encode(ControlCommand.pause), as: UTF8.self)
                == #"{"command":"pause"}"#)
        #expect(
            String(decoding: try encoder.encode(ControlCommand.play(query: "晴天")), as: UTF8.self)
                == #"{"command":"play","query":"晴天"}"#)
        let all: [ControlCommand] = [
            .play(query: "a b"), .pause, .resume, .toggle, .next, .previous, .status, .stop,
        ]
        #expect(all.map(\.name) == ControlCommand.names)
        for command in all {
            #expect(try JSONDecoder().decode(ControlCommand.self, from: encoder.encode(command)) == command)
        }
    }

    @Test(arguments: [
        (
            #"{"command":"dance"}"#,
            "Bad request: unknown command \"dance\"; the commands are play, pause, resume, toggle, next, previous, status, stop."
        ),
        (
            #"{"command":"play"}"#,
            "Bad request: play needs words to search for, such as {\"command\":\"play\",\"query\":\"晴天\"}."
        ),
        (
            #"{"command":"play","query":"  "}"#,
            "Bad request: play needs words to search for, such as {\"command\":\"play\",\"query\":\"晴天\"}."
        ),
        (
            #"{"cmd":"pause"}"#,
            "Bad request: the request needs a \"command\" string, such as {\"command\":\"pause\"}."
        ),
        (#"pause"#, "Bad request: send one JSON object on one line, such as {\"command\":\"pause\"}."),
        (#"["pause"]"#, "Bad request: send one JSON object on one line, such as {\"command\":\"pause\"}."),
    ])
    func badRequestsSayWhatToSend(_ line: String, _ message: String) {
        let error = #expect(throws: ControlError.self) { try ControlCommand.decode(line: Array(line.utf8)) }
        #expect(error?.code == .badRequest)
        #expect(error?.message == message)
    }

    @Test func responsesLeaveOutAMissingStatus() throws {
        let json = String(
            decoding: try JSONEncoder().encode(ControlResponse(ok: true, message: "Paused")), as: UTF8.self)
        #expect(!json.contains("status"))
        #expect(!json.contains("\n"))
    }

    @Test func aProblemTravelsWithTheStatusAndAnOlderPlayerLeavesItOut() throws {
        var status = sampleStatus
        status.problem = "No sound output: ALSA found no sound card. Set audio_output in the config."
        let json = try JSONEncoder().encode(ControlResponse(ok: true, message: "", status: status))
        #expect(try JSONDecoder().decode(ControlResponse.self, from: json).status == status)
        // The summary stays one line; `cloudmusic status` prints the problem under it.
        #expect(status.summary == sampleStatus.summary)

        var older = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(sampleStatus)) as? [String: Any])
        older["problem"] = nil
        let decoded = try JSONDecoder().decode(
            PlayerStatus.self, from: JSONSerialization.data(withJSONObject: older))
        #expect(decoded.problem == nil)
        #expect(decoded == sampleStatus)
    }

    @Test func statusSummary() {
        #expect(sampleStatus.summary == "▶ 晴天 - 周杰伦  1:23 / 4:05  [Loop] Vol 80%")
        var status = sampleStatus
        status.state = "paused"
        status.artist = nil
        status.duration = nil
        status.loopMode = "shuffle"
        status.volume = 5
        #expect(status.summary == "‖ 晴天  1:23 / --:--  [Shuffle] Vol 5%")
        let idle = PlayerStatus(
            state: "idle", title: nil, artist: nil, album: nil, position: 0, duration: nil,
            loopMode: "single",
            volume: 100)
        #expect(idle.summary == "■ Nothing playing  [One] Vol 100%")
    }
}

@Suite struct ControlSocketTests {
    @Test func commandsReachThePlayerAndItsAnswerComesBack() async throws {
        let folder = TemporaryFolder()
        // A folder that does not exist yet: the server creates it private.
        let path = folder.file("run/control.sock")
        let recorder = Recorder()
        let server = try startPlayer(at: path, recorder: recorder)
        defer { server.stop() }
        #expect(mode(of: folder.file("run")) == 0o700)
        #expect(mode(of: path) == 0o600)

        let paused = try await send(.pause, path)
        #expect(paused == ControlResponse(ok: true, message: "did pause", status: sampleStatus))
        let played = try await send(.play(query: "晴天 周杰伦"), path)
        #expect(played.ok)
        let status = try await send(.status, path)
        #expect(status.status?.summary == "▶ 晴天 - 周杰伦  1:23 / 4:05  [Loop] Vol 80%")
        #expect(await recorder.commands == [.pause, .play(query: "晴天 周杰伦"), .status])
    }

    /// The answer does not wait for the cooperative pool: every pool thread is held until the answer has come
    /// (60 s at most), so a handler that needed one would leave a holder to give up waiting.
    @Test func theAnswerComesWhileThePoolIsBusy() async throws {
        let folder = TemporaryFolder()
        let path = folder.file("control.sock")
        let server = try startPlayer(at: path, recorder: Recorder())
        defer { server.stop() }
        let holders = ProcessInfo.processInfo.activeProcessorCount
        let shared = PoolCheck()
        let answered = DispatchSemaphore(value: 0)
        // The client runs on a plain thread: once the pool is held, nothing of this test could run on it.
        Thread {
            let started = ContinuousClock.now
            // Held as far as the pool lets them start (other tests may hold it too: that only adds to the check).
            while shared.holding.withLock({ $0 }) < holders && ContinuousClock.now - started < .seconds(30) {
                Thread.sleep(forTimeInterval: 0.01)
            }
            let result = Result { try ControlClient.send(.status, path: path, timeout: clientBound) }
            shared.answer.withLock { $0 = result }
            for _ in 0..<holders { answered.signal() }
        }.start()
        let blockers = (0..<holders).map { _ in
            Task.detached {
                shared.holding.withLock { $0 += 1 }
                return answered.wait(timeout: .now() + 60) == .success
            }
        }
        var released: [Bool] = []
        for blocker in blockers { released.append(await blocker.value) }
        #expect(released.allSatisfy { $0 }, "a pool thread was needed for the answer: \(released)")
        let response = try #require(shared.answer.withLock { $0 }).get()
        #expect(response.ok, "\(response)")
    }

    /// What the client thread and the pool's holders share.
    private final class PoolCheck: Sendable {
        let holding = Mutex(0)
        let answer = Mutex<Result<ControlResponse, any Error>?>(nil)
    }

    @Test func severalClientsAtOnce() async throws {
        let folder = TemporaryFolder()
        let path = folder.file("control.sock")
        let recorder = Recorder()
        let server = try startPlayer(at: path, recorder: recorder)
        defer { server.stop() }
        let answers = try await withThrowingTaskGroup(of: ControlResponse.self) { group in
            for _ in 0..<16 { group.addTask { try await send(.next, path) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        // Only 4 are served at a time; the rest wait their turn instead of being turned away.
        #expect(answers.count == 16)
        #expect(answers.allSatisfy { $0.ok })
        #expect(await recorder.commands.count == 16)
    }

    @Test func malformedRequestsGetAClearRefusal() async throws {
        let folder = TemporaryFolder()
        let path = folder.file("control.sock")
        let recorder = Recorder()
        let server = try startPlayer(at: path, recorder: recorder)
        defer { server.stop() }

        let notJSON = try await sendRaw(Array("pause please\n".utf8), path)
        #expect(!notJSON.ok)
        #expect(
            notJSON.message
                == "Bad request: send one JSON object on one line, such as {\"command\":\"pause\"}.")
        let unknown = try await sendRaw(Array(#"{"command":"dance"}"#.utf8) + [10], path)
        #expect(!unknown.ok)
        #expect(unknown.message.contains("unknown command \"dance\""))
        #expect(await recorder.commands.isEmpty)
    }

    @Test func oversizedRequestIsRefusedAndTheServerCarriesOn() async throws {
        let folder = TemporaryFolder()
        let path = folder.file("control.sock")
        let recorder = Recorder()
        let server = try startPlayer(at: path, recorder: recorder)
        defer { server.stop() }

        let huge =
            Array(#"{"command":"play","query":""#.utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 5000)
            + Array(#""}"#.utf8) + [10]
        let answer = try await sendRaw(huge, path)
        #expect(!answer.ok)
        #expect(answer.message.hasPrefix("The request is larger than 4 KiB"))
        // Exactly 4 KiB is still fine.
        let prefix = Array(#"{"command":"play","query":""#.utf8)
        let exact =
            prefix + [UInt8](repeating: UInt8(ascii: "b"), count: 4096 - prefix.count - 2)
            + Array(#""}"#.utf8)
        #expect(exact.count == 4096)
        #expect(try await sendRaw(exact + [10], path).ok)
        #expect(try await send(.next, path).ok)
        #expect(await recorder.commands.count == 2)
    }

    @Test func aClientThatNeverFinishesIsCutOff() async throws {
        let folder = TemporaryFolder()
        let path = folder.file("control.sock")
        let server = try startPlayer(at: path, recorder: Recorder())
        defer { server.stop() }
        // No newline and the connection stays open: the server stops waiting after 2 seconds.
        let answer = try await sendRaw(Array(#"{"command":"pa"#.utf8), path)
        #expect(
            answer
                == ControlResponse(
                    ok: false,
                    message:
                        "No complete request arrived within 2 seconds; send one JSON line ending in a newline."
                ))
    }

    @Test func silentClientsHoldingEverySlotOnlyDelayOthers() async throws {
        let folder = TemporaryFolder()
        let path = folder.file("control.sock")
        let server = try startPlayer(at: path, recorder: Recorder())
        defer { server.stop() }
        // Connections that never send a byte take all 4 slots until their 2-second limit.
        var silent: [Int32] = []
        defer { for fd in silent { close(fd) } }
        for _ in 0..<ControlServer.concurrentClients {
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            let connected = try UnixSocket.withAddress(path) { connect(fd, $0, $1) }
            #expect(connected == 0)
            silent.append(fd)
        }
        #expect(try await send(.status, path).ok)
    }

    @Test func aStaleSocketFileIsReplaced() async throws {
        let folder = TemporaryFolder()
        let path = folder.file("control.sock")
        // A socket file whose listener is gone, as a crashed player leaves it.
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        _ = try UnixSocket.withAddress(path) { bind(fd, $0, $1) }
        listen(fd, 1)
        close(fd)
        #expect(exists(path))
        let refused = #expect(throws: ControlError.self) { try ControlClient.send(.status, path: path) }
        #expect(refused?.code == .notRunning)

        let server = try startPlayer(at: path, recorder: Recorder())
        defer { server.stop() }
        #expect(try await send(.status, path).ok)
    }

    @Test func aSecondPlayerIsToldOneIsRunning() async throws {
        let folder = TemporaryFolder()
        let path = folder.file("control.sock")
        let recorder = Recorder()
        let first = try startPlayer(at: path, recorder: recorder)
        let error = #expect(throws: ControlError.self) { try startPlayer(at: path, recorder: Recorder()) }
        #expect(error?.code == .alreadyRunning)
        #expect(error?.message.contains("already running") == true)
        // The first player is untouched and still answers.
        #expect(try await send(.toggle, path).ok)
        #expect(await recorder.commands == [.toggle])
        first.stop()
        let second = try startPlayer(at: path, recorder: Recorder())
        second.stop()
    }

    @Test func stopRemovesTheSocketAndClientsSayNoPlayerRuns() async throws {
        let folder = TemporaryFolder()
        let path = folder.file("control.sock")
        let server = try startPlayer(at: path, recorder: Recorder())
        #expect(exists(path))
        server.stop()
        server.stop()  // twice is harmless
        #expect(!exists(path))
        let error = #expect(throws: ControlError.self) { try ControlClient.send(.pause, path: path) }
        #expect(error?.code == .notRunning)
        #expect(
            error?.message
                == "No cloudmusic player is running (no control socket at \(path)). Start one with `cloudmusic`."
        )
    }

    @Test func releasingTheServerStopsIt() throws {
        let folder = TemporaryFolder()
        let path = folder.file("control.sock")
        do {
            _ = try startPlayer(at: path, recorder: Recorder())
        }
        #expect(!exists(path))
    }

    @Test func refusesToDeleteSomethingThatIsNotASocket() throws {
        let folder = TemporaryFolder()
        let path = folder.file("control.sock")
        #expect(FileManager.default.createFile(atPath: path, contents: Data("keep me".utf8)))
        let error = #expect(throws: ControlError.self) { try startPlayer(at: path, recorder: Recorder()) }
        #expect(error?.code == .notASocket)
        #expect(FileManager.default.contents(atPath: path) == Data("keep me".utf8))
        let client = #expect(throws: ControlError.self) { try ControlClient.send(.pause, path: path) }
        #expect(client?.code == .notASocket)
    }

    @Test func refusesAFolderOthersCanWrite() throws {
        let folder = TemporaryFolder()
        chmod(folder.path, 0o777)
        let error = #expect(throws: ControlError.self) {
            try startPlayer(at: folder.file("control.sock"), recorder: Recorder())
        }
        #expect(error?.code == .unsafePath)
        #expect(error?.message.contains("chmod 700 \(folder.path)") == true)
    }

    @Test(.enabled(if: getuid() == 0, "chown to another user needs root"))
    func refusesAFolderAnotherUserOwns() throws {
        let folder = TemporaryFolder()
        #expect(chown(folder.path, 65534, 65534) == 0)
        let error = #expect(throws: ControlError.self) {
            try startPlayer(at: folder.file("control.sock"), recorder: Recorder())
        }
        #expect(error?.code == .unsafePath)
    }

    @Test func refusesAPathTooLongForASocket() throws {
        let folder = TemporaryFolder()
        let path = folder.file(String(repeating: "x", count: 120))
        let error = #expect(throws: ControlError.self) { try startPlayer(at: path, recorder: Recorder()) }
        #expect(error?.code == .pathTooLong)
    }
}
