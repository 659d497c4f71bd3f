/// The web player's API client (`Web/js/api.js`), generated from the endpoint declarations: one function
/// per endpoint, grouped as the declarations are, over the hand-written transport in `Web/js/http.js`.
/// It carries no documentation (each call names its method and path; `openapi.json` describes them): every
/// phone downloads it on the first render, where the summaries were two thirds of its bytes.
public enum JavaScriptClient {
    public static func generate(_ groups: [APIGroup]) -> String {
        var out = """
            // Web/js/api.js — generated from the endpoint declarations in Sources/MusicCore/API; do not edit.
            // Regenerate with `cloudmusic-server generate` at the repository root; openapi.json documents each call.
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

}

extension ParameterDescription {
    /// The name and the aliases it is also read under.
    public var names: [String] { [name] + aliases }
}
