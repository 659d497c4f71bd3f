import Cryptography
import Foundation
import Payments
import ServerTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A running server with a shop: Ann (the first account, so an administrator), buyers Bob and Cy, and one
/// product on sale with one SKU.
struct ShopWorld {
    let server: TestServer
    let ann: String
    let bob: String
    let cy: String
    let productID: String
    let skuID: String

    static func start(
        stock: Int = 10, priceCents: Int = 1990, arguments: [String] = [], dataFolder: String? = nil,
        environment: [String: String] = [:]
    ) async throws -> ShopWorld {
        let server = try await TestServer.start(
            .empty,
            extraArguments: arguments + (dataFolder.map { ["--data", $0] } ?? []), environment: environment)
        _ = try await server.signUp(["email": "ann@example.com"], nickname: "Ann")
        _ = try await server.signUp(["email": "bob@example.com"], nickname: "Bob")
        _ = try await server.signUp(["email": "cy@example.com"], nickname: "Cy")
        let ann = try await server.signIn(["email": "ann@example.com"])
        let made = try await server.call(
            "POST", "/v1/admin/shop/products",
            json: [
                "title": "CloudMusic 耳机",
                "details": "<p>Closed-back <b>headphones</b><script>alert(1)</script></p>",
                "onSale": true,
                "skus": [["options": ["colour": "red"], "priceCents": priceCents, "stock": stock]],
            ], token: ann)
        try #require(made.status == 201, "\(made.json)")
        let skus = made.data["skus"] as? [[String: Any]] ?? []
        return ShopWorld(
            server: server, ann: ann, bob: try await server.signIn(["email": "bob@example.com"]),
            cy: try await server.signIn(["email": "cy@example.com"]),
            productID: made.data["id"] as? String ?? "",
            skuID: skus.first?["id"] as? String ?? "")
    }

    /// The SKU's stock as the product page shows it.
    func stock() async throws -> Int {
        let product = try await server.call("GET", "/v1/shop/products/\(productID)", token: ann)
        return (product.data["skus"] as? [[String: Any]])?.first?["stock"] as? Int ?? -1
    }

    /// Orders `quantity` of the SKU as `token`; the order's answer.
    func order(_ token: String, quantity: Int = 1) async throws -> Reply {
        try await server.call(
            "POST", "/v1/orders", json: ["skuId": skuID, "quantity": quantity], token: token)
    }

    func orderState(_ id: String, token: String) async throws -> String? {
        try await server.call("GET", "/v1/orders/\(id)", token: token).data["state"] as? String
    }

    /// Posts a provider's notification as it would come; the status and the body as text.
    func notify(_ provider: String, body: [UInt8], contentType: String, headers: [String: String] = [:])
        async throws -> (Int, String)
    {
        var request = URLRequest(
            url: URL(string: "http://127.0.0.1:\(server.port)/v1/shop/notify/\(provider)")!)
        request.httpMethod = "POST"
        request.httpBody = Data(body)
        request.setValue(contentType, forHTTPHeaderField: "Content-Type")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as! HTTPURLResponse).statusCode, String(decoding: data, as: UTF8.self))
    }

    /// The same people and product on another server (a restarted one on the same data).
    func on(_ other: TestServer) -> ShopWorld {
        ShopWorld(server: other, ann: ann, bob: bob, cy: cy, productID: productID, skuID: skuID)
    }

    /// The sandbox as the server made it at first start, from the key it stored.
    func sandbox() throws -> SandboxProvider {
        let key = try String(contentsOfFile: server.dataFolder + "/shop-sandbox-key.pem", encoding: .utf8)
        return try SandboxProvider(SandboxConfiguration(privateKey: key, pageURL: "/v1/shop/sandbox/pay"))
    }
}

/// An order's answer as a provider sees it.
func paymentOrder(_ order: [String: Any]) -> PaymentOrder {
    PaymentOrder(
        number: order["number"] as? String ?? "",
        amount: PaymentAmount(
            cents: order["totalCents"] as? Int ?? 0, currency: order["currency"] as? String ?? ""),
        subject: "test",
        expiresAt: ISO8601DateFormatter().date(from: order["expiresAt"] as? String ?? "") ?? Date())
}

/// Form encoding written for the tests with Foundation's escaping.
func formEncoded(_ pairs: [(String, String)]) -> [UInt8] {
    let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
    let escape = { (text: String) in text.addingPercentEncoding(withAllowedCharacters: unreserved)! }
    return Array(pairs.map { escape($0.0) + "=" + escape($0.1) }.joined(separator: "&").utf8)
}

/// An Alipay notification signed by `key` the way Alipay documents it (RSA2 over the pairs sorted by name,
/// `sign` and `sign_type` and empty values left out), made with openssl.
func alipayNotification(_ pairs: [(String, String)], signedBy key: OpenSSLKeyPair?) async throws -> [UInt8] {
    guard let key else { return formEncoded(pairs) }
    let text = pairs.filter { !$0.1.isEmpty }.sorted { $0.0 < $1.0 }.map { "\($0.0)=\($0.1)" }
        .joined(separator: "&")
    let signature = try await key.sign(Array(text.utf8))
    return formEncoded(pairs + [("sign_type", "RSA2"), ("sign", Crypto.base64(signature))])
}
