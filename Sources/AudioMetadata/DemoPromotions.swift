import Foundation

/// A picture of the demo's ads: a splash screen and home banners about the demo library's albums.
public struct DemoPromotion: Sendable, Equatable {
    /// Where it shows: 0 the splash screen, 10 the home banner.
    public var position: Int
    public var title: String
    /// Where tapping leads.
    public var link: String
    /// The generated picture.
    public var path: String
}

/// The demo's ads: one splash screen and three banners, each a gradient in an album's colours with its title.
let demoPromotions:
    [(position: Int, title: String, subtitle: String, link: String, colors: (String, String))] = [
        (0, "CloudMusic", "云音乐 · 听见好时光", "cloudmusic://home", ("1f3b73", "c0392b")),
        (
            10, "城市夜曲", "陈默 · 新专辑", "cloudmusic://search?q=%E5%9F%8E%E5%B8%82%E5%A4%9C%E6%9B%B2",
            ("1f3b73", "c0392b")
        ),
        (
            10, "Northern Lights", "Aurora Lane", "cloudmusic://search?q=Northern%20Lights",
            ("2e7d5b", "1f3b73")
        ),
        (10, "山海", "周末乐队 · 摇滚现场", "cloudmusic://search?q=%E5%B1%B1%E6%B5%B7", ("2c3e50", "8a4f7d")),
    ]

extension LibraryGenerator {
    /// Writes the demo's ad pictures into `folder` (created if missing) with ffmpeg: a 1080x1920 splash
    /// screen and three 1080x420 banners. Titles are drawn when a font is installed (WenQuanYi for Chinese,
    /// else DejaVu); without one the pictures are plain gradients.
    public static func makeDemoPromotions(at folder: String) throws(AudioMetadataError) -> [DemoPromotion] {
        let ffmpeg = try FFmpeg()
        try makeDirectory(folder)
        let font = [
            "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
            "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
        ].first { FileManager.default.fileExists(atPath: $0) }
        var made: [DemoPromotion] = []
        for (index, promotion) in demoPromotions.enumerated() {
            let splash = promotion.position == 0
            let (width, height) = splash ? (1080, 1920) : (1080, 420)
            let (from, to) = (rgb(promotion.colors.0), rgb(promotion.colors.1))
            // A gradient computed small (cheap) and scaled up: along the height for the splash, across for banners.
            let axis = splash ? "Y/H" : "X/W"
            let channel = { (i: Int) in "'\(from[i])+(\(to[i] - from[i]))*\(axis)'" }
            var graph =
                "nullsrc=s=\(width / 5)x\(height / 5),geq=r=\(channel(0)):g=\(channel(1)):b=\(channel(2)),"
                + "scale=\(width):\(height),format=yuv420p"
            if let font {
                let title = "\(folder)/.title-\(index).txt"
                let subtitle = "\(folder)/.subtitle-\(index).txt"
                try writeText(promotion.title, to: title)
                try writeText(promotion.subtitle, to: subtitle)
                let big = splash ? 140 : 84
                let small = splash ? 64 : 44
                graph +=
                    ",drawtext=fontfile=\(escaped(font)):textfile=\(escaped(title)):fontsize=\(big):fontcolor=white"
                    + ":x=(w-text_w)/2:y=(h/2)-text_h-\(small / 2)"
                    + ",drawtext=fontfile=\(escaped(font)):textfile=\(escaped(subtitle)):fontsize=\(small)"
                    + ":fontcolor=white@0.85:x=(w-text_w)/2:y=(h/2)+\(small / 2)"
            }
            let path = "\(folder)/\(splash ? "splash" : "banner-\(index)").jpg"
            try ffmpeg.run(["-f", "lavfi", "-i", graph, "-frames:v", "1", "-q:v", "3", path], timeout: 60)
            made.append(
                DemoPromotion(
                    position: promotion.position, title: promotion.title, link: promotion.link, path: path))
        }
        return made
    }

    /// Red, green and blue of `rrggbb`.
    private static func rgb(_ hex: String) -> [Int] {
        let value = Int(hex, radix: 16) ?? 0
        return [(value >> 16) & 0xFF, (value >> 8) & 0xFF, value & 0xFF]
    }

    /// A path as one value inside an ffmpeg filter graph (its special characters escaped).
    private static func escaped(_ path: String) -> String {
        var out = ""
        for c in path {
            if "\\:',;[]=".contains(c) { out += "\\\\\\" }
            out.append(c)
        }
        return out
    }
}
