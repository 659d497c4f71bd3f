import AudioMetadata
import Foundation
import MusicCore
import Storage

extension ServerApp {
    /// Gives a new install on the demo library what its home screen shows beyond the music: a splash ad and
    /// three banners (pictures made by ffmpeg, about a second in all) and a published version of each app.
    /// Runs once per data folder: a marker in `server_meta` keeps an administrator's later changes.
    func addDemoDiscovery() throws {
        let marker = "demo_discovery_added_at"
        let meta = ServerMetaStore()
        guard try database.read({ db in try meta.value(db, key: marker) }) == nil else { return }
        let folder = options.dataFolder + "/cache/demo-promotions"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for promotion in try LibraryGenerator.makeDemoPromotions(at: folder) {
            let position = AdPosition(rawValue: promotion.position) ?? .banner
            _ = try ads.createFromFile(
                AdForm(title: promotion.title, position: position, style: .image, link: promotion.link),
                path: promotion.path)
        }
        for (platform, build) in [(AppPlatform.android, 110), (.ios, 110), (.web, 110)] {
            _ = try appVersions.publish(
                AppVersionDraft(
                    platform: platform, version: "1.1.0", build: build,
                    notes: "新的首页：开屏广告、轮播图、热门歌单、推荐歌曲和分类。\nA new home screen: a splash ad, "
                        + "banners, hot sheets, recommended songs and categories."),
                createdBy: nil)
        }
        try database.write { db in
            try meta.set(db, key: marker, value: APIDate.string(Int64(Date().timeIntervalSince1970)))
        }
        logger.info("event=demo_discovery_added ads=4 versions=3")
    }
}
