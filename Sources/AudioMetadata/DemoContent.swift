/// The demo library's albums. All names and lyrics are invented for CloudMusic.
struct DemoAlbum {
    enum Cover {
        case folder(String)
        case embedded
    }

    var artist: String
    var title: String
    var year: Int
    var genres: [String]
    var format: GeneratedFormat
    var cover: Cover
    var color: String
    var isCompilation = false
    var tracks: [DemoTrack]
}

struct DemoTrack {
    enum Lyric {
        case none
        case lrc([String], enhanced: Bool)
        case ksc([String])
        case embedded([String])
    }

    var title: String
    var artists: [String]? = nil
    var seconds: Int
    var lyric: Lyric = .none
}

let demoAlbums: [DemoAlbum] = [
    DemoAlbum(
        artist: "陈默", title: "城市夜曲", year: 2019, genres: ["华语流行", "Pop"], format: .mp3,
        cover: .folder("cover.jpg"), color: "0x1f3b73",
        tracks: [
            DemoTrack(
                title: "霓虹灯下", seconds: 30,
                lyric: .lrc(["霓虹灯下的街道", "有人匆匆走过", "我在等一辆末班车", "带我回到你的城市", "夜色温柔如歌"], enhanced: false)),
            DemoTrack(
                title: "晚风", seconds: 28,
                lyric: .lrc(["晚风吹过窗台", "吹散了昨天的云", "你说明天会更好", "我就一直相信", "风里有你的声音"], enhanced: false)),
            DemoTrack(
                title: "地铁站", seconds: 25, lyric: .lrc(["第七号线的尽头", "灯光一盏一盏熄灭", "我数着你离开的站"], enhanced: false)),
            DemoTrack(title: "天亮以前", seconds: 32),
            DemoTrack(
                title: "旧照片", seconds: 24,
                lyric: .lrc(["抽屉里的旧照片", "笑得那么灿烂", "那年夏天的风", "还在耳边"], enhanced: false)),
            DemoTrack(title: "回声 (feat. 林小雨)", artists: ["陈默", "林小雨"], seconds: 26),
        ]),
    DemoAlbum(
        artist: "Aurora Lane", title: "Northern Lights", year: 2021, genres: ["Indie", "Folk"], format: .flac,
        cover: .folder("folder.png"), color: "0x2e7d5b",
        tracks: [
            DemoTrack(
                title: "Northern Lights", seconds: 30,
                lyric: .lrc(
                    [
                        "Green fire over frozen lakes", "We watched until the morning came",
                        "Hold the light inside your hands",
                        "It never burns the same",
                    ], enhanced: true)),
            DemoTrack(
                title: "Paper Boats", seconds: 26,
                lyric: .lrc(
                    [
                        "Paper boats on a silver stream", "Carry every word I mean",
                        "Down to where the river bends",
                    ], enhanced: false)),
            DemoTrack(title: "Winter Harbour", seconds: 24),
            DemoTrack(title: "Home Again", artists: ["Aurora Lane", "Theo Marsh"], seconds: 28),
        ]),
    DemoAlbum(
        artist: "林小雨", title: "雨后", year: 2020, genres: ["华语流行"], format: .aac,
        cover: .folder("front.jpg"), color: "0x8a4f7d",
        tracks: [
            DemoTrack(
                title: "雨后彩虹", seconds: 30,
                lyric: .ksc(["雨停了天空放晴", "彩虹挂在山那边", "我们一起走过 rainbow", "心里的花又开了"])),
            DemoTrack(
                title: "小城故事", artists: ["林小雨", "陈默"], seconds: 27,
                lyric: .ksc(["小城的故事很多", "每一条巷子都有歌", "你我相遇在桥头"])),
            DemoTrack(title: "青石板路", seconds: 25, lyric: .lrc(["青石板路弯又弯", "雨水滴在屋檐下"], enhanced: false)),
            DemoTrack(title: "一把伞", seconds: 22),
        ]),
    DemoAlbum(
        artist: "The Quiet Hours", title: "Late Trains", year: 2018, genres: ["Jazz"], format: .vorbis,
        cover: .folder("cover.png"), color: "0x5c4033",
        tracks: [
            DemoTrack(
                title: "Last Train Home", seconds: 30,
                lyric: .embedded([
                    "The last train leaves at half past one", "Empty seats and a humming sun",
                    "I wrote your name on the window glass",
                ])),
            DemoTrack(title: "Blue Platform", seconds: 26),
            DemoTrack(title: "Coffee at Midnight", seconds: 24),
            DemoTrack(title: "Rain on the Tracks", seconds: 22),
        ]),
    DemoAlbum(
        artist: "Various Artists", title: "CloudMusic Demo Mix", year: 2022, genres: ["Electronic", "Dance"],
        format: .mp3,
        cover: .embedded, color: "0xc0392b", isCompilation: true,
        tracks: [
            DemoTrack(title: "Cloud Runner", artists: ["DJ 小北", "Mika"], seconds: 24),
            DemoTrack(
                title: "星河", artists: ["Nova 星"], seconds: 26,
                lyric: .lrc(["穿过星河去见你", "光年也不算遥远"], enhanced: false)),
            DemoTrack(title: "Midnight Drive", artists: ["Aurora Lane"], seconds: 22),
        ]),
    DemoAlbum(
        artist: "周末乐队", title: "山海", year: 2023, genres: ["摇滚", "Rock"], format: .opus,
        cover: .folder("cover.jpg"), color: "0x2c3e50",
        tracks: [
            DemoTrack(
                title: "山海", seconds: 30,
                lyric: .lrc(["翻过一座山", "又看见一片海", "我们唱着歌", "走向未来", "山海都不远"], enhanced: false)),
            DemoTrack(title: "少年", seconds: 26, lyric: .ksc(["少年的梦", "在风中飞", "永远不回头"])),
            DemoTrack(title: "夏夜", seconds: 24),
            DemoTrack(title: "Highway 99", seconds: 22),
        ]),
    DemoAlbum(
        artist: "Mika", title: "Small Hours", year: 2017, genres: ["Ambient"], format: .wav,
        cover: .folder("Folder.jpg"), color: "0x6c5ce7",
        tracks: [
            DemoTrack(
                title: "3 A.M.", seconds: 20,
                lyric: .lrc(["Nobody awake but me", "And the hum of the fridge"], enhanced: false)),
            DemoTrack(title: "Streetlight", seconds: 18),
            DemoTrack(title: "First Bus", seconds: 18),
            DemoTrack(title: "Last Light", seconds: 18),
        ]),
]
