/// The web player's API client (`Web/js/api.js`), generated from the endpoint declarations: one function
/// per endpoint, grouped as the declarations are, over the hand-written transport in `Web/js/http.js`.
public enum JavaScriptClient {
    public static func generate(_ groups: [APIGroup]) -> String {
        var out = """
            // Web/js/api.js — generated from the endpoint declarations in Sources/MusicCore/API; do not edit.
            // Regenerate with `cloudmusic-server generate` at the repository root.
            import { call, address } from "./http.js";
            const e = (method, path, query, access, media) => ({ method, path, query, access, media });

            """
        for group in groups {
            out += "\nexport const \(group.name) = {\n"
            for endpoint in group.endpoints {
                let query = endpoint.queryParameters.flatMap(\.names).map { "\"\($0)\"" }.joined(
                    separator: ", ")
                let isMedia: Bool
                if case .media = endpoint.answer { isMedia = true } else { isMedia = false }
                let spec =
                    "e(\"\(endpoint.method.rawValue)\", \"\(endpoint.path)\", [\(query)], "
                    + "\"\(endpoint.access.rawValue)\", \(isMedia))"
                out +=
                    "  /** \(endpoint.method.rawValue) \(endpoint.path): \(comment(endpoint.summary)). */\n"
                if isMedia {
                    out += "  \(endpoint.name): (params) => address(\(spec), params),\n"
                } else {
                    out += "  \(endpoint.name): (params, body) => call(\(spec), params, body),\n"
                }
            }
            out += "};\n"
        }
        return out
    }

    private static func comment(_ text: String) -> String {
        let sentence = text.replacingAll("*/", with: "* /")
        return sentence.prefix(1).uppercased() + sentence.dropFirst()
    }
}

extension ParameterDescription {
    /// The name and the aliases it is also read under.
    public var names: [String] { [name] + aliases }
}

extension String {
    func replacingAll(_ target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
