import Foundation
import HTTPServer
import MusicCore

/// The v1 API's envelope, as the apps read it: `{"status":0,"data":...}` around an answer, `{"status":0}` for
/// done, and `{"status":<code>,"message":"<a sentence>"}` with a non-2xx status for a refusal.
enum APIEnvelope {
    /// `value` in the envelope as `application/json; charset=utf-8`, keys sorted, dates as ISO 8601 strings.
    static func answer<T: Encodable>(_ value: T, status: Int = 200) -> Response {
        var response = Response.json(value, status: status)
        // Anything else is the error of an answer that could not be written.
        if case .data(let json) = response.body { response.body = .data(wrap(json)) }
        return response
    }

    /// The same bytes as `answer(_:)`, written by the value itself (see `JSONWritable`).
    static func answer<T: JSONWritable>(_ value: T, status: Int = 200) -> Response {
        var writer = JSONWriter(capacity: value.jsonSizeHint + 32)
        writer.object { json in
            json.key("status")
            json.int(0)
            json.key("data")
            value.writeJSON(to: &json)
        }
        return Response(status: status, headers: jsonHeaders, body: .data(Data(writer.bytes)))
    }

    /// `{"status":0}`.
    static func done() -> Response {
        Response(status: 200, headers: jsonHeaders, body: .data(doneBody))
    }

    /// The envelope around `json`, the bytes of an answer written ahead of time.
    static func wrap(_ json: Data) -> Data {
        // Written by hand so "status" always comes first: JSONEncoder's key order varies from run to run.
        var payload = Data()
        payload.reserveCapacity(json.count + 20)
        payload.append(contentsOf: #"{"status":0,"data":"#.utf8)
        payload.append(json)
        payload.append(contentsOf: "}".utf8)
        return payload
    }

    /// Every error the server answers, in the envelope: the code is the HTTP status, and the sentence is in the
    /// language the request's `Accept-Language` picks (the status never depends on it).
    static let refusal: ErrorRenderer.Render = { error, context in
        let language = Language.preferred(by: context.headers["Accept-Language"])
        let message = sentence(of: error).rendered(in: language)
        var body = Data()
        body.reserveCapacity(message.utf8.count + 32)
        body.append(contentsOf: #"{"status":"#.utf8)
        body.append(contentsOf: String(error.status).utf8)
        body.append(contentsOf: #","message":"#.utf8)
        appendMessage(message, to: &body)
        body.append(contentsOf: "}".utf8)
        var headers = jsonHeaders
        headers.add("Content-Language", language.rawValue)
        headers.add("Vary", "Accept-Language")
        for (name, value) in error.headers { headers.add(name, value) }
        return Response(status: error.status, headers: headers, body: .data(body))
    }

    /// The error's sentence as a template the reader's language can fill.
    static func sentence(of error: any HTTPResponseError) -> LocalizedText {
        switch error {
        case let refusal as ServiceError: refusal.text
        case let refusal as HTTPError: LocalizedText(refusal.text)
        default: LocalizedText(verbatim: error.message)
        }
    }

    static let jsonHeaders = HTTPHeaders([("Content-Type", "application/json; charset=utf-8")])
    private static let doneBody = Data(#"{"status":0}"#.utf8)

    /// `message` as a JSON string; control characters other than line breaks and tabs as `\u00XX`.
    private static func appendMessage(_ message: String, to out: inout Data) {
        out.append(0x22)
        for b in message.utf8 {
            switch b {
            case 0x22: out.append(contentsOf: [0x5C, 0x22])
            case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: out.append(contentsOf: [0x5C, 0x6E])
            case 0x0D: out.append(contentsOf: [0x5C, 0x72])
            case 0x09: out.append(contentsOf: [0x5C, 0x74])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, hex[Int(b >> 4)], hex[Int(b & 15)]])
            default: out.append(b)
            }
        }
        out.append(0x22)
    }
}

extension LocalizedText {
    /// The HTTP layer's sentence, translated through the same tables as the services'.
    init(_ text: HTTPErrorText) {
        self.init(
            template: text.template,
            arguments: text.arguments.map { argument in
                switch argument {
                case .verbatim(let value): .verbatim(value)
                case .phrase(let phrase): .text(LocalizedText(phrase))
                }
            })
    }
}
