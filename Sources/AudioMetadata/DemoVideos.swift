import Foundation
import Synchronization

extension LibraryGenerator {
    /// The demo's videos folder beside a demo library: `<library>-videos`.
    public static func demoVideosFolder(forLibrary folder: String) -> String {
        let url = URL(fileURLWithPath: folder).standardizedFileURL
        return url.deletingLastPathComponent().appendingPathComponent(url.lastPathComponent + "-videos").path
    }

    /// Writes the demo's two MVs into `folder`: a few seconds of ffmpeg's test pictures over the opening of two
    /// songs of the demo library at `musicFolder` (which must be made first), tagged with the songs' titles and
    /// artists so the server finds their songs. One is an H.264/AAC MP4 that browsers play as it is; the other
    /// an MKV, which the server converts for them.
    public static func makeDemoVideos(at folder: String, musicFolder: String) throws(AudioMetadataError) {
        let ffmpeg = try FFmpeg()
        try makeDirectory(folder)
        let videos: [(album: Int, pattern: String, title: String, container: String)] = [
            (0, "testsrc=size=640x360:rate=24", "(MV)", "mp4"),
            (1, "testsrc2=size=640x360:rate=24", "[Official Video]", "mkv"),
        ]
        let failure = Mutex<AudioMetadataError?>(nil)
        DispatchQueue.concurrentPerform(iterations: videos.count) { index in
            let video = videos[index]
            let album = demoAlbums[video.album]
            let track = album.tracks[0]
            let song =
                "\(musicFolder)/\(safeName(album.artist))/\(safeName(album.title))/01 \(safeName(track.title))"
                + ".\(album.format.fileExtension)"
            let artist = (track.artists ?? [album.artist]).joined(separator: "/")
            let title = "\(track.title) \(video.title)"
            let path = "\(folder)/\(safeName(album.artist)) - \(safeName(title)).\(video.container)"
            do throws(AudioMetadataError) {
                try ffmpeg.run(
                    [
                        "-f", "lavfi", "-i", "\(video.pattern):duration=6", "-t", "6", "-i", song,
                        "-map", "0:v", "-map", "1:a", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt",
                        "yuv420p", "-c:a", "aac", "-b:a", "96k", "-shortest", "-metadata", "title=\(title)",
                        "-metadata", "artist=\(artist)",
                    ] + (video.container == "mp4" ? ["-movflags", "+faststart"] : []) + [path])
            } catch {
                failure.withLock { if $0 == nil { $0 = error } }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
    }
}
