import Foundation
import MusicCore
import ServerTestSupport
import Testing

@testable import CloudMusicServer

/// The contract: every endpoint declared once, registered by the server, described by the committed
/// OpenAPI document.
@Suite struct ContractTests {
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    @Test func theCommittedFilesAreWhatTheDeclarationsGenerate() throws {
        for (path, text) in try GeneratedFiles.all() {
            let committed = try String(contentsOfFile: Self.repositoryRoot + "/" + path, encoding: .utf8)
            #expect(
                committed == text,
                "\(path) is stale: run `swift run cloudmusic-server generate` at the repository root and commit it"
            )
        }
    }

    @Test func theRegisteredRoutesAreTheDocumentedOnesBothWays() throws {
        let app = try ServerApp(
            options: ServerOptions(dataFolder: temporaryFolder()), logger: .init(level: .error))
        // Not v1: the web player's pages (`/` and its catch-all), and the Subsonic API under /rest, whose
        // methods are declared in `SubsonicAPI` (their own shapes, not the v1 envelope) and checked by the
        // Subsonic tests instead; and the gPodder API under /api/2 (declared in `GPodderAPI`, gPodder's shapes).
        let registered = Set(
            app.makeRouter().routes.filter {
                $0.pattern != "/" && !$0.pattern.hasPrefix("/*") && !$0.pattern.hasPrefix("/rest/")
                    && !$0.pattern.hasPrefix("/api/2/")
            }
            .map { "\($0.method.rawValue) \($0.pattern)" })
        let declared = Set(APIContract.endpoints.map { "\($0.method.rawValue) \($0.routePattern)" })
        #expect(registered.subtracting(declared).sorted() == [], "registered but not declared")
        #expect(declared.subtracting(registered).sorted() == [], "declared but not registered")
        let documented = Set(
            (ContractCheck.document["paths"]?.objectValue ?? [:]).flatMap { path, item in
                (item.objectValue ?? [:]).keys.map { "\($0.uppercased()) \(path)" }
            })
        #expect(documented == Set(APIContract.endpoints.map { "\($0.method.rawValue) \($0.path)" }))
    }

    @Test func everyPathParameterIsAFieldAndNamesAreUnique() {
        var operations = Set<String>()
        for group in APIContract.groups {
            for endpoint in group.endpoints {
                let inPath = endpoint.path.split(separator: "/").filter { $0.hasPrefix("{") }
                    .map { String($0.dropFirst().dropLast()) }
                #expect(inPath == endpoint.pathParameters.map(\.name), "\(endpoint.method) \(endpoint.path)")
                #expect(
                    operations.insert("\(group.name).\(endpoint.name)").inserted,
                    "\(group.name).\(endpoint.name)")
            }
        }
    }

    @Test func everyReferenceResolves() throws {
        let text = try GeneratedFiles.openAPI()
        let schemas = ContractCheck.document["components"]?["schemas"]?.objectValue ?? [:]
        var searchFrom = text.startIndex
        while let range = text.range(of: "#/components/schemas/", range: searchFrom..<text.endIndex) {
            let rest = text[range.upperBound...]
            let name = String(rest.prefix { $0 != "\"" })
            #expect(schemas[name] != nil, "\(name) is referenced but not defined")
            searchFrom = range.upperBound
        }
    }

    @Test func parametersAreReadWithMessagesAPersonCanActOn() {
        func message(_ query: [String: String]) -> String? {
            do {
                _ = try StreamQuery.read { query[$0] }
                return nil
            } catch let error as ServiceError {
                return error.message
            } catch {
                return "\(error)"
            }
        }
        #expect(message(["timeOffset": "0x10"]) == "'timeOffset' must be a decimal number from 0 to 86400.")
        #expect(message(["timeOffset": "1e3"]) == nil)
        #expect(message(["timeOffset": "5e-324"]) == nil)
        #expect(message(["timeOffset": "1e5"]) != nil)
        #expect(message(["timeOffset": "inf"]) != nil)
        #expect(message(["timeOffset": "1e"]) != nil)
        #expect(message(["timeOffset": "12.5"]) == nil)
        #expect(message(["format": "wma"]) == "'format' must be one of: raw, mp3, opus, aac.")
        #expect(message(["maxBitRate": "fast"]) == "'maxBitRate' must be a whole number from 0 to 10000.")
        #expect(throws: ServiceError.notFound("That song does not exist.")) {
            _ = try IDPath<Song>.read(resource: "song") { _ in "12abc" }
        }
    }
}
