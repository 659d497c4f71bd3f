import Foundation
import MusicCore
import Testing

/// The document says exactly what the server accepts: every query parameter's declared type, range, choices,
/// pattern and emptiness, checked against the same reading the server does, and the cases an outside probe
/// found the two disagreeing on, over HTTP.
@Suite struct ContractTruthTests {
    /// What the server makes of `value` for one parameter of an endpoint (the required others given).
    static func refusal(
        _ endpoint: any DescribedEndpoint, _ parameter: ParameterDescription, _ value: String
    ) -> String? {
        var query: [String: String] = [:]
        for other in endpoint.queryParameters where other.schema.isRequired && other.name != parameter.name {
            query[other.name] = sample(other)
        }
        query[parameter.name] = value
        do {
            try endpoint.checkQuery { query[$0] }
            return nil
        } catch let error as ServiceError {
            return error.message
        } catch {
            return "\(error)"
        }
    }

    /// A value the document allows.
    static func sample(_ p: ParameterDescription) -> String {
        if let choice = p.schema.choices?.first { return choice }
        if let choice = p.schema.integerChoices?.first { return String(choice) }
        switch p.schema.kind {
        case .integer, .number: return String(Int(p.schema.minimum ?? 1))
        case .boolean: return "true"
        case .string:
            switch p.schema.pattern {
            case "^[1-9][0-9]{0,17}$"?: return "7"
            case let pattern? where pattern.hasPrefix("^[1-9][0-9]{0,17}(,"): return "7,8"
            case let pattern? where pattern.contains(":"): return "4611686018427387904:7"
            case SemanticVersion.pattern?: return "1.2.3"
            case "^[0-9]{1,18}$"?: return "12"
            case EpisodeListQuery.cursorPattern?: return "3.n.20.x.9." + String(repeating: "a", count: 32)
            default: return "x"
            }
        }
    }

    @Test func everyQueryParameterTakesWhatTheDocumentAllowsAndRefusesTheRest() {
        for endpoint in APIContract.endpoints {
            for p in endpoint.queryParameters {
                let label = "\(endpoint.method) \(endpoint.path) \(p.name)"
                let schema = p.schema
                #expect(Self.refusal(endpoint, p, Self.sample(p)) == nil, "\(label): \(Self.sample(p))")
                // Empty is "left out" only for free text.
                if schema.takesEmptyForTests {
                    #expect(Self.refusal(endpoint, p, "") == nil || schema.isRequired, "\(label) empty")
                } else {
                    #expect(Self.refusal(endpoint, p, "") != nil, "\(label): empty accepted")
                }
                if let choices = schema.choices {
                    for choice in choices {
                        #expect(Self.refusal(endpoint, p, choice) == nil, "\(label) \(choice)")
                    }
                    #expect(Self.refusal(endpoint, p, "not-a-choice") != nil, "\(label)")
                }
                if let choices = schema.integerChoices {
                    for choice in choices {
                        #expect(Self.refusal(endpoint, p, String(choice)) == nil, "\(label) \(choice)")
                    }
                    #expect(Self.refusal(endpoint, p, String(choices.max()! + 1)) != nil, "\(label)")
                }
                if schema.kind == .integer || schema.kind == .number, let low = schema.minimum,
                    let high = schema.maximum
                {
                    for ok in [low, high] {
                        #expect(Self.refusal(endpoint, p, String(Int(ok))) == nil, "\(label) \(ok)")
                    }
                    for bad in [low - 1, high + 1] {
                        #expect(Self.refusal(endpoint, p, String(Int(bad))) != nil, "\(label) \(bad)")
                    }
                    #expect(Self.refusal(endpoint, p, "ten") != nil, "\(label)")
                }
                if let max = schema.maxLength {
                    // Counted in code points, as the document does: accents on one letter count each.
                    let long = "e" + String(repeating: "\u{301}", count: max)
                    #expect(
                        Self.refusal(endpoint, p, long) != nil, "\(label): \(max + 1) code points accepted")
                }
                if let pattern = schema.pattern, pattern.hasPrefix("^") {
                    let ids = pattern.hasPrefix("^[1-9]") || pattern.contains(":")
                    for bad in ["abc", "-1", " 7"] + (ids ? ["0", "1000000000000000000000"] : []) {
                        #expect(Self.refusal(endpoint, p, bad) != nil, "\(label): \(bad) accepted")
                    }
                }
                if schema.isRequired && schema.kind == .string && schema.choices == nil
                    && schema.pattern == nil
                {
                    #expect(schema.minLength == 1, "\(label): required text documented without minLength")
                }
            }
        }
    }

    @Test func whatTheProbeFoundNowAgrees() async throws {
        let world = try await CommentAPITests.World.start(people: 1)
        let server = world.server
        let song = world.songs[0]
        func status(_ path: String) async throws -> Int { try await server.call("GET", path).status }
        // Genres are named by id, and say so.
        #expect(try await status("/v1/songs?genre=Folk") == 400)
        // Positions are 0, 10 and 20, as documented.
        #expect(try await status("/v1/ads?position=999") == 400)
        #expect(try await status("/v1/ads?position=10") == 200)
        // `platform` is required, as documented.
        let noPlatform = try await server.call("GET", "/v1/app_versions/latest?version=1.0.0")
        #expect(noPlatform.status == 400)
        #expect(noPlatform.message.contains("platform"))
        #expect(try await status("/v1/app_versions/latest?platform=web&version=1.0.0") == 200)
        // A number as JSON writes it.
        #expect(try await status("/v1/songs/\(song)/stream?timeOffset=5e-324") == 200)
        // Empty required text, and empty typed values, refused as documented.
        for path in [
            "/v1/searches?q=", "/v1/searches/sheets?query=", "/v1/users?nickname=", "/v1/songs?sort=",
            "/v1/songs?size=", "/v1/songs/\(song)/stream?format=", "/v1/songs?size[x]=5", "/v1/songs?artist=",
        ] {
            let reply = try await server.call("GET", path)
            #expect(reply.status == 400, "\(path): \(reply.json)")
            #expect(!reply.message.isEmpty)
        }
        // Any cursor of the documented shape is a position: a score far past any time no longer traps.
        for score in [1e300, Double.infinity] {
            let reply = try await server.call(
                "GET", "/v1/conversations?cursor=\(score.bitPattern):5", token: world.ann.token)
            #expect(reply.status == 200, "\(score): \(reply.json)")
        }
        let document = ContractCheck.document
        func parameter(_ path: String, _ name: String) -> JSONValue? {
            document["paths"]?[path]?["get"]?["parameters"]?.arrayValue?.first { $0["name"] == .string(name) }
        }
        #expect(parameter("/v1/searches", "q")?["schema"]?["minLength"] == .number(1))
        #expect(parameter("/v1/app_versions/latest", "platform")?["required"] == .bool(true))
        #expect(parameter("/v1/ads", "position")?["schema"]?["enum"] == [0, 10, 20])
        #expect(parameter("/v1/songs", "genre")?["schema"]?["pattern"] == .string("^[1-9][0-9]{0,17}$"))
        _ = server.stop()
    }
}

extension ParameterSchema {
    /// What `takesEmpty` says (internal to MusicCore): free text only.
    var takesEmptyForTests: Bool { kind == .string && choices == nil && pattern == nil && minLength == nil }
}
