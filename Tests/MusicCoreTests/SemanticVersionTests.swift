import MusicCore
import Testing

@Suite struct SemanticVersionTests {
    @Test func precedenceIsSemVer2s() throws {
        let ordered = try [
            "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2", "1.0.0-beta.11",
            "1.0.0-rc.1", "1.0.0", "1.2.0", "1.9.0", "1.10.0", "2.0.0",
        ].map { try #require(SemanticVersion($0), "\($0)") }
        for (lower, higher) in zip(ordered, ordered.dropFirst()) {
            #expect(lower < higher, "\(lower) < \(higher)")
            #expect(!(higher < lower))
        }
    }

    @Test func shortFormsBuildMetadataAndAPrefixedV() {
        #expect(SemanticVersion("1.2") == SemanticVersion("1.2.0"))
        #expect(SemanticVersion("1") == SemanticVersion(major: 1))
        #expect(SemanticVersion("v2.0.1") == SemanticVersion(major: 2, patch: 1))
        #expect(SemanticVersion("1.0.0+build.5") == SemanticVersion("1.0.0"))
        #expect(SemanticVersion("1.0.0-rc.1+exp.sha.5114f85")?.description == "1.0.0-rc.1")
    }

    @Test func whatIsNotAVersion() {
        for text in [
            "", "v", "abc", "1.x", "1..2", "1.2.3.4", "01.2.3", "1.02.3", "1.2.3-", "1.2.3-01", "1.2.3+",
            "1.2.3-beta..1", "-1.2.3", "1.2.3 ", "１.2.3", "1234567890.0.0",
        ] {
            #expect(SemanticVersion(text) == nil, "'\(text)'")
        }
    }
}
