import Foundation
import MusicCore
import Testing

@testable import CloudMusicServer

/// The pieces under the routes: MD5 for tokens, typed ids, the two writers of one tree, word cues.
@Suite struct SubsonicUnitTests {
    @Test func md5MatchesRFC1321AndTheSpecExample() {
        let vectors = [
            ("", "d41d8cd98f00b204e9800998ecf8427e"), ("a", "0cc175b9c0f1b6a831c399e269772661"),
            ("abc", "900150983cd24fb0d6963f7d28e17f72"),
            ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
            (String(repeating: "1234567890", count: 8), "57edf4a22be3c955ac49da2e2107b67a"),
            // The Subsonic documentation's example: password "sesame", salt "c19b2d".
            ("sesamec19b2d", "26719a1196d2a940705a59634eb18eab"),
        ]
        for (text, digest) in vectors {
            #expect(String(decoding: MD5.hex(Array(text.utf8)), as: UTF8.self) == digest, "\(text)")
        }
    }

    @Test func idsParseStrictly() {
        #expect(SubsonicID("tr-31") == SubsonicID(.song, 31))
        #expect(SubsonicID("pl-5")?.kind == .playlist)
        for bad in [
            "", "tr-", "tr-0", "tr-031", "tr--1", "TR-1", "tr-1 ", "xx-1", "al-12345678901234567890", "31",
        ] {
            #expect(SubsonicID(bad) == nil, "\(bad)")
        }
        #expect(SubsonicID(.album, 7).description == "al-7")
    }

    @Test func xmlAndJSONComeFromOneTree() {
        var song = SubsonicElement()
        song.add("id", "tr-1")
        song.add("title", "Tom & \"Jerry\" <live>\u{1}\u{FFFE}")
        song.add("track", 3)
        song.add("isDir", false)
        song.addSoft("musicBrainzId", nil)
        song.add("genres", many: [SubsonicElement([("name", .string("Rock"))])])
        song.add("artists", many: [])
        var genre = SubsonicElement([("songCount", .int(2))], text: "a\nb")
        genre.add("versions", .values([.int(1), .int(2)]))
        var document = SubsonicDocument()
        document.payload = [("song", .one(song)), ("genre", .many([genre]))]
        let envelope = SubsonicEnvelope(serverVersion: "9")
        let xml = String(decoding: SubsonicXML.write(document, envelope: envelope), as: UTF8.self)
        #expect(xml.hasPrefix(#"<?xml version="1.0" encoding="UTF-8"?>"#))
        #expect(
            xml.contains(
                #"<song id="tr-1" title="Tom &amp; &quot;Jerry&quot; &lt;live&gt;" track="3" isDir="false"><genres name="Rock"/></song>"#
            ),
            "\(xml)")
        #expect(
            xml.contains(
                #"<genre songCount="2">a"# + "\n" + #"b<versions>1</versions><versions>2</versions></genre>"#)
        )
        #expect(!xml.contains("musicBrainzId") && !xml.contains("artists"))
        let json = String(decoding: SubsonicJSON.write(document, envelope: envelope), as: UTF8.self)
        #expect(
            json.contains(
                #""song":{"id":"tr-1","title":"Tom & \"Jerry\" <live>\u0001\#u{FFFE}","track":3,"isDir":false,"musicBrainzId":"","genres":[{"name":"Rock"}],"artists":[]}"#
            ),
            "\(json)")
        #expect(json.contains(#""genre":[{"songCount":2,"value":"a\nb","versions":[1,2]}]"#))
        #expect(
            json.hasPrefix(
                #"{"subsonic-response":{"status":"ok","version":"1.16.1","type":"cloudmusic","serverVersion":"9","openSubsonic":true,"#
            ))
        let error = String(
            decoding: SubsonicJSON.write(
                .error(SubsonicError(.notFound, "No.")), envelope: envelope, callback: "cb"),
            as: UTF8.self)
        #expect(
            error.hasPrefix(#"cb({"subsonic-response":{"status":"failed""#)
                && error.hasSuffix(#""error":{"code":70,"message":"No."}}})"#))
    }

    @Test func cuesCoverEachWordByItsUTF8Bytes() throws {
        let line = LyricLine(
            start: 1_000, end: 3_000, text: "一时 fly",
            words: [
                LyricWord(start: 1_000, duration: 300, text: "一"),
                LyricWord(start: 1_300, duration: 900, text: "时 "),
                LyricWord(start: 2_000, duration: 1_500, text: "fly"),
            ])
        let cueLine = try #require(SubsonicLyrics.cueLine(line, index: 4))
        let json = String(
            decoding: SubsonicJSON.write(
                SubsonicDocument("cueLine", cueLine), envelope: SubsonicEnvelope(serverVersion: "")),
            as: UTF8.self)
        #expect(json.contains(#""index":4,"start":1000,"end":3000,"value":"一时 fly""#))
        #expect(json.contains(#"{"start":1000,"end":1300,"byteStart":0,"byteEnd":2,"value":"一"}"#))
        // The first word's end is cut to the next start (no overlap); the space is not part of the cue.
        #expect(json.contains(#"{"start":1300,"end":2000,"byteStart":3,"byteEnd":5,"value":"时"}"#))
        #expect(json.contains(#"{"start":2000,"end":3500,"byteStart":7,"byteEnd":9,"value":"fly"}"#))
        #expect(SubsonicLyrics.cueLine(LyricLine(start: 0, end: 1, text: "x"), index: 0) == nil)
    }

    @Test func everyMethodIsDeclaredOnceWithKnownExtensions() {
        let names = SubsonicAPI.methods.map(\.name)
        #expect(Set(names).count == names.count)
        let advertised = Set(SubsonicAPI.extensions.map(\.name))
        for method in SubsonicAPI.methods {
            if let name = method.extensionName { #expect(advertised.contains(name), "\(method.name)") }
            #expect(method.parameters.filter(\.isRequired).allSatisfy { !$0.name.isEmpty })
        }
        #expect(SubsonicAPI.method(named: "getAlbum")?.parameter("id")?.kind == .id([.album]))
        #expect(SubsonicAPI.method(named: "getopensubsonicextensions") == nil, "names are case-sensitive")
        #expect(SubsonicAPI.method(named: "getOpenSubsonicExtensions")?.access == .anyone)
        #expect(
            SubsonicAPI.methods.filter { $0.access == .admin }.map(\.name) == [
                "createInternetRadioStation", "updateInternetRadioStation", "deleteInternetRadioStation",
                "startScan", "refreshPodcasts", "createPodcastChannel", "deletePodcastChannel",
                "downloadPodcastEpisode", "deletePodcastEpisode",
            ])
        #expect(SubsonicAPI.method(named: "stream")?.parameter("id")?.kind == .id([.song, .podcastEpisode]))
        #expect(SubsonicAPI.method(named: "getScanStatus")?.access == .user, "every app shows the scan")
    }
}
