import CloudMusicKit
import Foundation
import MPRIS
import ServerTestSupport
import Testing

private let player = "org.mpris.MediaPlayer2.Player"
private let properties = "org.freedesktop.DBus.Properties"

/// Starts a private bus and a service on it, runs `body`, then shuts both down whatever happened.
private func withService(
    name: String = "cloudmusic", _ body: (PrivateBus, MPRISService) async throws -> Void
) async throws {
    let bus = try await PrivateBus.start()
    guard let service = MPRISService.start(name: name, identity: "CloudMusic Test", address: bus.address)
    else {
        await bus.stop()
        throw FixtureError(message: "MPRISService.start returned nil on a running bus")
    }
    do {
        try await body(bus, service)
    } catch {
        service.shutdown()
        await bus.stop()
        throw error
    }
    service.shutdown()
    await bus.stop()
}

private let song = NowPlayingInfo(
    title: "Song", artist: "A / B", album: "Album", cover: URL(string: "https://example.com/cover.jpg"),
    duration: 200.5, position: 10, isPlaying: true)

/// The time limit only ends a hung test: each test starts a bus and several child processes, and on a loaded
/// machine (a load average of 45) they took over four minutes; two minutes ran out for five of them.
@Suite(.timeLimit(.minutes(10)))
struct MPRISServiceTests {
    @Test func getAllShowsTheTrackAfterAnUpdate() async throws {
        try await withService { bus, service in
            #expect(service.busName == "org.mpris.MediaPlayer2.cloudmusic")
            var props = try await bus.properties(of: service.busName)
            #expect(props["PlaybackStatus"] == "String:Stopped")
            #expect(props["Metadata"] == "Dict(0)")

            service.update(song)
            props = try await bus.properties(of: service.busName)
            #expect(props["PlaybackStatus"] == "String:Playing")
            #expect(props["Metadata.xesam:title"] == "String:Song")
            #expect(props["Metadata.xesam:artist"] == "Array(String:A,String:B)")
            #expect(props["Metadata.xesam:album"] == "String:Album")
            #expect(props["Metadata.mpris:length"] == "Int64:200500000")
            #expect(props["Metadata.mpris:artUrl"] == "String:https://example.com/cover.jpg")
            #expect(
                props["Metadata.mpris:trackid"]?.hasPrefix("ObjectPath:/org/cloudmusic/track/Song_") == true)
            #expect(props["Volume"] == "Double:1.0")
            #expect(props["Rate"] == "Double:1.0")
            #expect(props["CanControl"] == "Boolean:1")
            // Position moves on from the last update while playing.
            let position = props["Position"].flatMap {
                Int64($0.replacingOccurrences(of: "Int64:", with: ""))
            }
            #expect(position.map { $0 >= 10_000_000 && $0 <= 200_500_000 } == true)

            service.updateVolume(0.5)
            service.updateLoop(status: "Playlist", shuffle: true)
            service.update(nil)
            props = try await bus.properties(of: service.busName)
            #expect(props["PlaybackStatus"] == "String:Stopped")
            #expect(props["Metadata"] == "Dict(0)")
            #expect(props["Volume"] == "Double:0.5")
            #expect(props["LoopStatus"] == "String:Playlist")
            #expect(props["Shuffle"] == "Boolean:1")

            let root = try await bus.properties(of: service.busName, interface: "org.mpris.MediaPlayer2")
            #expect(root["Identity"] == "String:CloudMusic Test")
            #expect(root["CanQuit"] == "Boolean:0")
            #expect(root["SupportedUriSchemes"] == "Array()")
        }
    }

    @Test func playerMethodsArriveAsCommands() async throws {
        try await withService { bus, service in
            let commands = Collector(service.commands())
            service.update(NowPlayingInfo(title: "Song", duration: 100, position: 10, isPlaying: false))
            for method in ["PlayPause", "Next", "Previous", "Play", "Pause"] {
                let result = await bus.send(to: service.busName, "\(player).\(method)")
                #expect(result.status == 0, "\(method): \(result.errorOutput)")
            }
            #expect(await bus.send(to: service.busName, "\(player).Seek", ["int64:5000000"]).status == 0)
            // Past the end acts like Next.
            #expect(await bus.send(to: service.busName, "\(player).Seek", ["int64:500000000"]).status == 0)

            let props = try await bus.properties(of: service.busName)
            let trackID = try #require(props["Metadata.mpris:trackid"]).replacingOccurrences(
                of: "ObjectPath:", with: "")
            let moved = await bus.send(
                to: service.busName, "\(player).SetPosition", ["objpath:\(trackID)", "int64:30000000"])
            #expect(moved.status == 0, "\(moved.errorOutput)")
            // Another track's id is ignored, as the spec says.
            _ = await bus.send(
                to: service.busName, "\(player).SetPosition", ["objpath:/org/other", "int64:1000000"])

            let expected: [RemoteCommand] = [
                .togglePlayPause, .next, .previous, .play, .pause, .seek(to: 15), .next, .seek(to: 30),
            ]
            #expect(await eventually { commands.values.count >= expected.count })
            #expect(commands.values == expected)
        }
    }

    @Test func propertyWritesAndStopArriveAsRequests() async throws {
        try await withService { bus, service in
            let requests = Collector(service.requests())
            let calls: [[String]] = [
                ["string:\(player)", "string:Volume", "variant:double:0.25"],
                ["string:\(player)", "string:LoopStatus", "variant:string:Track"],
                ["string:\(player)", "string:Shuffle", "variant:boolean:true"],
                ["string:\(player)", "string:Volume", "variant:double:3"],
            ]
            for arguments in calls {
                let result = await bus.send(to: service.busName, "\(properties).Set", arguments)
                #expect(result.status == 0, "\(arguments): \(result.errorOutput)")
            }
            #expect(await bus.send(to: service.busName, "\(player).Stop").status == 0)
            let expected: [MPRISRequest] = [
                .setVolume(0.25), .setLoopStatus("Track"), .setShuffle(true), .setVolume(1), .stop,
            ]
            #expect(await eventually { requests.values.count >= expected.count })
            #expect(requests.values == expected)
        }
    }

    @Test func changesAreSignalledButPositionAloneIsNot() async throws {
        try await withService { bus, service in
            let monitor = try RunningProcess.start(
                "/usr/bin/dbus-monitor",
                [
                    "--address", bus.address, "type='signal',path='/org/mpris/MediaPlayer2'",
                    "type='signal',interface='org.cloudmusic.Test'",
                ])
            // The monitor is ready once it sees a marker signal of ours.
            let ready = await eventually {
                _ = await run(
                    "/usr/bin/dbus-send",
                    ["--bus=\(bus.address)", "--type=signal", "/", "org.cloudmusic.Test.Ready"])
                return monitor.output.contains("member=Ready")
            }
            #expect(ready)

            service.update(NowPlayingInfo(title: "Song", duration: 100, position: 10, isPlaying: false))
            #expect(await eventually { monitor.output.contains("\"PlaybackStatus\"") })
            #expect(monitor.output.contains("string \"Paused\""))
            #expect(monitor.output.contains("string \"xesam:title\""))

            // The same state with a nearby position: nothing to say.
            service.update(NowPlayingInfo(title: "Song", duration: 100, position: 11, isPlaying: false))
            service.updateVolume(0.5)
            #expect(await eventually { monitor.output.contains("\"Volume\"") })
            let output = monitor.output
            #expect(output.components(separatedBy: "member=PropertiesChanged").count - 1 == 2)
            #expect(!output.contains("member=Seeked"))
            #expect(!output.contains("\"Position\""))

            // A jump is a seek.
            service.update(NowPlayingInfo(title: "Song", duration: 100, position: 60, isPlaying: false))
            #expect(await eventually { monitor.output.contains("member=Seeked") })
            #expect(monitor.output.contains("int64 60000000"))
            await monitor.stop()
        }
    }

    @Test func takesAnInstanceNameWhenTheNameIsTaken() async throws {
        try await withService { bus, first in
            #expect(first.busName == "org.mpris.MediaPlayer2.cloudmusic")
            let second = try #require(MPRISService.start(address: bus.address))
            let pid = ProcessInfo.processInfo.processIdentifier
            #expect(second.busName == "org.mpris.MediaPlayer2.cloudmusic.instance\(pid)")
            second.update(NowPlayingInfo(title: "Second"))
            let props = try await bus.properties(of: second.busName)
            #expect(props["Metadata.xesam:title"] == "String:Second")

            second.shutdown()
            second.shutdown()
            #expect(await eventually { await !bus.names().contains(second.busName) })
            #expect(await bus.names().contains(first.busName))
        }
    }

    @Test func noBusMeansNilQuietly() {
        #expect(MPRISService.start(address: "unix:path=/nonexistent/cloudmusic-bus") == nil)
        #expect(MPRISService.start(address: "not an address") == nil)
    }

    @Test func garbageGetsErrorsAndTheServiceKeepsAnswering() async throws {
        try await withService { bus, service in
            let cases: [(method: String, arguments: [String], path: String, error: String)] = [
                ("\(player).Bogus", [], "/org/mpris/MediaPlayer2", "UnknownMethod"),
                ("com.example.Nothing.Bogus", [], "/org/mpris/MediaPlayer2", "UnknownMethod"),
                ("\(player).Seek", ["string:ten"], "/org/mpris/MediaPlayer2", "InvalidArgs"),
                ("\(player).Seek", ["int64:1", "int64:2"], "/org/mpris/MediaPlayer2", "InvalidArgs"),
                ("\(player).SetPosition", ["int64:1"], "/org/mpris/MediaPlayer2", "InvalidArgs"),
                ("\(player).OpenUri", ["string:file:///x.mp3"], "/org/mpris/MediaPlayer2", "NotSupported"),
                (
                    "\(properties).Set", ["string:\(player)", "string:Volume", "variant:string:loud"],
                    "/org/mpris/MediaPlayer2", "InvalidArgs"
                ),
                (
                    "\(properties).Set", ["string:\(player)", "string:LoopStatus", "variant:string:Forever"],
                    "/org/mpris/MediaPlayer2", "InvalidArgs"
                ),
                (
                    "\(properties).Set",
                    ["string:\(player)", "string:PlaybackStatus", "variant:string:Playing"],
                    "/org/mpris/MediaPlayer2", "PropertyReadOnly"
                ),
                (
                    "\(properties).Get", ["string:com.example.Nothing", "string:Volume"],
                    "/org/mpris/MediaPlayer2", "UnknownInterface"
                ),
                (
                    "\(properties).Get", ["string:\(player)", "string:Loudness"], "/org/mpris/MediaPlayer2",
                    "UnknownProperty"
                ),
                ("\(properties).GetAll", [], "/org/mpris/MediaPlayer2", "InvalidArgs"),
                ("\(player).Next", [], "/org/elsewhere", "org.freedesktop.DBus.Error"),
            ]
            for call in cases {
                let result = await bus.send(to: service.busName, call.method, call.arguments, path: call.path)
                #expect(result.status != 0, "\(call.method) \(call.arguments) was accepted")
                #expect(result.errorOutput.contains(call.error), "\(call.method): \(result.errorOutput)")
            }
            let volume = await bus.send(
                to: service.busName, "\(properties).Get", ["string:\(player)", "string:Volume"])
            #expect(volume.status == 0)
            #expect(volume.output.contains("double 1"))
        }
    }

    @Test func introspectionDescribesTheInterfaces() async throws {
        try await withService { bus, service in
            let script = """
                import sys, dbus, xml.etree.ElementTree as ET
                bus = dbus.bus.BusConnection(sys.argv[1])
                data = bus.get_object(sys.argv[2], '/org/mpris/MediaPlayer2').Introspect(
                    dbus_interface='org.freedesktop.DBus.Introspectable')
                for i in ET.fromstring(data).findall('interface'):
                    print(i.get('name'), len(i.findall('method')), len(i.findall('property')))
                """
            let result = await run("/usr/bin/python3", ["-c", script, bus.address, service.busName])
            #expect(result.status == 0, "\(result.errorOutput)")
            #expect(result.output.contains("org.mpris.MediaPlayer2 2 6"))
            #expect(result.output.contains("org.mpris.MediaPlayer2.Player 9 15"))
            #expect(result.output.contains("org.freedesktop.DBus.Properties 3 0"))
        }
    }

    @Test func shutdownEndsTheStreamsAndLaterCallsDoNothing() async throws {
        let bus = try await PrivateBus.start()
        let service = try #require(MPRISService.start(address: bus.address))
        let commands = Collector(service.commands())
        let requests = Collector(service.requests())
        service.shutdown()
        #expect(await eventually { commands.isFinished && requests.isFinished })
        service.update(song)
        service.updateVolume(0.2)
        service.shutdown()
        #expect(await eventually { await !bus.names().contains("org.mpris.MediaPlayer2.cloudmusic") })
        await bus.stop()
    }
}
