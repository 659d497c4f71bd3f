import Foundation
import ServerTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite struct FixtureTests {
    @Test func theDemoServerAnswers() async throws {
        let server = try await TestServer.start()
        let (data, response) = try await URLSession.shared.data(
            from: server.baseURL.appendingPathComponent("v1/songs"))
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        let json = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        #expect(((json?["data"] as? [String: Any])?["total"] as? Int ?? 0) > 10)
    }
}
