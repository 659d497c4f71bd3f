import Foundation
import Synchronization

/// Makes real, playable music folders with ffmpeg and TagLib: the demo library that `serve` starts
/// with when no music folder is given, and large libraries for benchmarks.
public enum LibraryGenerator {
    /// Writes the demo library into `folder` (created if missing): a few albums in several formats
    /// with Chinese and English tags, folder and embedded cover art, LRC, enhanced LRC, KSC and
    /// embedded lyrics, a compilation and an untagged file. `progress` gets (done, total).
    public static func makeDemoLibrary(at folder: String, progress: ((Int, Int) -> Void)? = nil)
        throws(AudioMetadataError)
    {
        let ffmpeg = try FFmpeg()
        let total = demoAlbums.reduce(0) { $0 + $1.tracks.count } + 1
        var done = 0
        progress?(done, total)
        for (albumIndex, album) in demoAlbums.enumerated() {
            let dir = "\(folder)/\(safeName(album.artist))/\(safeName(album.title))"
            try makeDirectory(dir)
            var embeddedCover: String?
            switch album.cover {
            case .folder(let name):
                try ffmpeg.run([
                    "-f", "lavfi", "-i", "color=c=\(album.color):s=600x600", "-frames:v", "1",
                    "\(dir)/\(name)",
                ])
            case .embedded:
                let path = "\(dir)/.embedded-cover.jpg"
                try ffmpeg.run([
                    "-f", "lavfi", "-i", "color=c=\(album.color):s=500x500", "-frames:v", "1", path,
                ])
                embeddedCover = path
            }
            // ffmpeg dominates the time: encode the album's tracks on every core.
            let failure = Mutex<AudioMetadataError?>(nil)
            let cover = embeddedCover
            DispatchQueue.concurrentPerform(iterations: album.tracks.count) { trackIndex in
                guard failure.withLock({ $0 == nil }) else { return }
                do throws(AudioMetadataError) {
                    try makeDemoTrack(
                        album: album, albumIndex: albumIndex, trackIndex: trackIndex, folder: dir,
                        cover: cover,
                        ffmpeg: ffmpeg)
                } catch {
                    failure.withLock { if $0 == nil { $0 = error } }
                }
            }
            if let error = failure.withLock({ $0 }) { throw error }
            done += album.tracks.count
            progress?(done, total)
            if let embeddedCover { unlink(embeddedCover) }
        }
        // A file without tags: the scanner falls back to folder and file names.
        let loose = "\(folder)/未整理"
        try makeDirectory(loose)
        try ffmpeg.makeTone(
            at: "\(loose)/佚名 - 夜航船.mp3", format: .mp3, frequency: 174.6, seconds: 20, cover: nil)
        done += 1
        progress?(done, total)
    }

    private static func makeDemoTrack(
        album: DemoAlbum, albumIndex: Int, trackIndex: Int, folder dir: String, cover: String?, ffmpeg: FFmpeg
    ) throws(AudioMetadataError) {
        let track = album.tracks[trackIndex]
        let number = trackIndex + 1
        let base = "\(dir)/\(String(format: "%02d", number)) \(safeName(track.title))"
        let path = "\(base).\(album.format.fileExtension)"
        let frequency = 196.0 * pow(2.0, Double((albumIndex * 5 + trackIndex * 2) % 12) / 12.0)
        try ffmpeg.makeTone(
            at: path, format: album.format, frequency: frequency, seconds: track.seconds, cover: cover)
        var tags = AudioTags(
            title: track.title, artists: track.artists ?? [album.artist], album: album.title,
            albumArtists: [album.artist], trackNumber: number, trackTotal: album.tracks.count,
            discNumber: 1, discTotal: 1, year: album.year, genres: album.genres,
            isCompilation: album.isCompilation)
        let artist = tags.artists.joined(separator: "/")
        switch track.lyric {
        case .none: break
        case .lrc(let lines, let enhanced):
            try writeText(
                lrc(lines, title: track.title, artist: artist, album: album.title, enhanced: enhanced),
                to: "\(base).lrc")
        case .ksc(let lines):
            try writeText(ksc(lines, title: track.title, artist: artist), to: "\(base).ksc")
        case .embedded(let lines):
            tags.lyrics = lrc(lines, title: nil, artist: nil, album: nil, enhanced: false)
        }
        try AudioTagWriter.write(tags, to: path)
    }

    /// Writes `trackCount` small tagged mp3 files into `folder`, ten songs per album and ten albums
    /// per artist; about one title in three is Chinese. Used by the library benchmarks.
    public static func makeBenchmarkLibrary(
        at folder: String, trackCount: Int, progress: ((Int, Int) -> Void)? = nil
    ) throws(AudioMetadataError) {
        let ffmpeg = try FFmpeg()
        try makeDirectory(folder)
        let template = "\(folder)/.template.mp3"
        try ffmpeg.makeTone(at: template, format: .mp3, frequency: 440, seconds: 2, cover: nil)
        defer { unlink(template) }
        let templateData: Data
        do {
            templateData = try Data(contentsOf: URL(fileURLWithPath: template))
        } catch {
            throw AudioMetadataError(
                path: template, reason: "could not read the generated template: \(error.localizedDescription)"
            )
        }
        for i in 0..<trackCount {
            let artist = i / 100
            let album = i / 10
            let dir = "\(folder)/Artist \(artist)/Album \(album)"
            if i % 10 == 0 { try makeDirectory(dir) }
            let title = benchmarkTitle(i)
            let path = "\(dir)/\(String(format: "%02d", i % 10 + 1)) \(title).mp3"
            guard FileManager.default.createFile(atPath: path, contents: templateData) else {
                throw AudioMetadataError(
                    path: path, reason: "could not create the file (is the disk full or read-only?)")
            }
            let tags = AudioTags(
                title: title, artists: [artist % 3 == 0 ? "歌手\(artist)" : "Artist \(artist)"],
                album: "Album \(album)", trackNumber: i % 10 + 1, trackTotal: 10, year: 1970 + album % 55,
                genres: [benchmarkGenres[album % benchmarkGenres.count]])
            try AudioTagWriter.write(tags, to: path)
            if i % 100 == 99 || i == trackCount - 1 { progress?(i + 1, trackCount) }
        }
    }

    static func benchmarkTitle(_ i: Int) -> String {
        let words = ["月光", "城市", "河流", "晚风", "星空", "远方", "海边", "故乡", "青春", "雨夜"]
        let latin = [
            "Morning", "Silver", "River", "Echo", "Golden", "Quiet", "Wild", "Paper", "Neon", "Winter",
        ]
        if i % 3 == 0 { return "\(words[i % 10])\(words[(i / 10) % 10])之歌 \(i)" }
        return "\(latin[i % 10]) \(latin[(i / 10) % 10]) Song \(i)"
    }

    static let benchmarkGenres = ["Pop", "Rock", "Jazz", "Folk", "Electronic", "Classical", "华语流行", "民谣"]

    // MARK: Lyrics

    /// LRC with a line every 5 seconds; `enhanced` adds word times (`<mm:ss.xx>`) before each word.
    static func lrc(_ lines: [String], title: String?, artist: String?, album: String?, enhanced: Bool)
        -> String
    {
        var out: [String] = []
        if let title { out.append("[ti:\(title)]") }
        if let artist { out.append("[ar:\(artist)]") }
        if let album { out.append("[al:\(album)]") }
        for (i, line) in lines.enumerated() {
            let start = Double(i) * 5 + 1
            if enhanced {
                let words = line.split(separator: " ")
                let step = 4.0 / Double(max(1, words.count))
                let timed = words.enumerated().map {
                    "<\(stamp(start + Double($0.offset) * step, digits: 2))>\($0.element)"
                }
                out.append("[\(stamp(start, digits: 2))]" + timed.joined(separator: " "))
            } else {
                out.append("[\(stamp(start, digits: 2))]\(line)")
            }
        }
        return out.joined(separator: "\n") + "\n"
    }

    /// KSC: one `karaoke.add` per line, each CJK character a word, Latin words in brackets.
    static func ksc(_ lines: [String], title: String, artist: String) -> String {
        // Text goes inside '...' literals: a quote is doubled (Pascal style) and a backslash escaped.
        func quoted(_ s: String) -> String {
            let escaped = s.replacingOccurrences(of: "\\", with: "\\\\")
            return "'" + escaped.replacingOccurrences(of: "'", with: "''") + "'"
        }
        var out = [
            "karaoke := CreateKaraokeObject;", "karaoke.tag('歌名', \(quoted(title)));",
            "karaoke.tag('歌手', \(quoted(artist)));",
        ]
        for (i, line) in lines.enumerated() {
            let start = Double(i) * 5 + 1
            var words: [String] = []
            var latin = ""
            for c in line {
                if c.isASCII && (c.isLetter || c.isNumber || c == "'") {
                    latin.append(c)
                    continue
                }
                if !latin.isEmpty {
                    words.append("[\(latin)]")
                    latin = ""
                }
                // A space stays in the text, after the word before it (the parser keeps it there).
                if c == " " {
                    if !words.isEmpty { words[words.count - 1].append(" ") }
                } else {
                    words.append(String(c))
                }
            }
            if !latin.isEmpty { words.append("[\(latin)]") }
            let total = 4000
            let each = total / max(1, words.count)
            var durations = Array(repeating: each, count: words.count)
            if !durations.isEmpty { durations[durations.count - 1] += total - each * words.count }
            out.append(
                "karaoke.add('\(stamp(start, digits: 3))', '\(stamp(start + 4, digits: 3))', "
                    + "\(quoted(words.joined())), '\(durations.map(String.init).joined(separator: ","))');")
        }
        return out.joined(separator: "\n") + "\n"
    }

    static func stamp(_ seconds: Double, digits: Int) -> String {
        let scale = digits == 3 ? 1000 : 100
        let units = Int((seconds * Double(scale)).rounded())
        let minutes = units / (60 * scale)
        let rest = units % (60 * scale)
        return String(format: "%02d:%02d.%0\(digits)d", minutes, rest / scale, rest % scale)
    }

    // MARK: Files

    static func safeName(_ s: String) -> String {
        String(s.map { $0 == "/" || $0 == "\0" ? "_" : $0 })
    }

    static func makeDirectory(_ path: String) throws(AudioMetadataError) {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw AudioMetadataError(
                path: path, reason: "could not create the folder: \(error.localizedDescription)")
        }
    }

    static func writeText(_ text: String, to path: String) throws(AudioMetadataError) {
        guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) else {
            throw AudioMetadataError(
                path: path, reason: "could not write the file (is the disk full or read-only?)")
        }
    }
}

/// The audio formats the generator can write.
public enum GeneratedFormat: Sendable {
    case mp3, flac, vorbis, opus, aac, wav

    var fileExtension: String {
        switch self {
        case .mp3: "mp3"
        case .flac: "flac"
        case .vorbis: "ogg"
        case .opus: "opus"
        case .aac: "m4a"
        case .wav: "wav"
        }
    }

    var codecArguments: [String] {
        switch self {
        case .mp3: ["-c:a", "libmp3lame", "-b:a", "128k", "-id3v2_version", "3"]
        case .flac: ["-c:a", "flac"]
        case .vorbis: ["-c:a", "libvorbis", "-q:a", "3"]
        case .opus: ["-c:a", "libopus", "-b:a", "96k"]
        case .aac: ["-c:a", "aac", "-b:a", "128k"]
        case .wav: ["-c:a", "pcm_s16le", "-ar", "22050", "-ac", "1"]
        }
    }
}

extension FFmpeg {
    /// A soft chord on `frequency` with a slow swell, so the demo sounds like something. The chord
    /// steps up at 1 s and every 5 s after, where the generated lyrics start a new line, so lyric
    /// sync can be heard.
    func makeTone(at path: String, format: GeneratedFormat, frequency f: Double, seconds: Int, cover: String?)
        throws(AudioMetadataError)
    {
        let step = "(1+0.125*mod(floor((t+4)/5),4))"
        let expression =
            "(0.18*sin(2*PI*\(f)*\(step)*t)+0.12*sin(2*PI*\(f * 1.25)*\(step)*t)+0.10*sin(2*PI*\(f * 1.5)*\(step)*t))*(0.6+0.4*sin(2*PI*0.25*t))"
        var arguments = ["-f", "lavfi", "-i", "aevalsrc='\(expression)|\(expression)':s=44100:d=\(seconds)"]
        if let cover {
            arguments += [
                "-i", cover, "-map", "0:a", "-map", "1:v", "-c:v", "copy", "-disposition:v", "attached_pic",
            ]
        }
        arguments += format.codecArguments + [path]
        try run(arguments)
    }
}
