import Foundation
import MusicCore
import ServerTestSupport
import Testing

@testable import CloudMusicKit

/// The repository's discovery calls against the real server on the demo library: an ad made through a
/// typed multipart form, the home, categories, an update check and the terms.
@Suite struct DiscoveryRepositoryTests {
    @Test func homeAdsCategoriesUpdatesAndTerms() async throws {
        let server = try await TestServer.start()
        // The first person to sign up is the administrator.
        let (admin, _) = try await RepositoryTests.person(server, "discovery-admin")
        let ad = try await admin.createAd(
            AdForm(title: "Banner", position: .banner, link: "https://example.com/banner", sort: 3),
            file: try await RepositoryTests.picture("orange"))
        #expect(ad.title == "Banner" && ad.position == 10 && ad.sort == 3 && ad.width == 96)
        let shown = try await admin.ads(position: .banner)
        #expect(shown.value.data.map(\.id) == [ad.id])

        let home = try await admin.home().value
        #expect(home.first?.moduleType == .banner)
        if case .banner(let ads)? = home.first?.content { #expect(ads.map(\.id) == [ad.id]) }
        #expect(home.contains { $0.moduleType == .newAlbums })

        let layout = try await admin.saveHomeLayout([.init(.categories), .init(.banner, hidden: true)])
        #expect(layout.customized && layout.modules.first?.moduleType == .categories)
        #expect(try await admin.home().value.first?.moduleType == .categories)
        #expect(try await admin.resetHomeLayout().customized == false)

        let categories = try await admin.categories().value
        #expect(categories.total > 0 && categories.data.allSatisfy { $0.songsCount > 0 })

        #expect(try await admin.latestAppVersion(platform: .ios, version: "1.0.0") == nil)
        _ = try await admin.publishAppVersion(AppVersionDraft(platform: .ios, version: "1.0.1", build: 2))
        let update = try await admin.latestAppVersion(platform: .ios, version: "1.0.0")
        #expect(update?.version == "1.0.1" && update?.force == false)

        let terms = try await admin.terms()
        #expect(terms.terms.isEmpty && terms.accepted == true)
        try await admin.deleteAd(id: ad.id)
        #expect(try await admin.ads(position: .banner).value.data.isEmpty)
    }
}
