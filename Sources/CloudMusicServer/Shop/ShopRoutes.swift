import Foundation
import HTTPServer
import MusicCore
import Payments

/// The handlers of `ShopAPI`.
struct ShopRoutes {
    let shop: ShopService
    let orders: OrderService

    func register(on api: EndpointRouter) {
        api.on(ShopAPI.products) { call in try shop.products(search: call.query.q, paging: call.query.paging)
        }
        api.on(ShopAPI.product) { call in
            try shop.product(id: call.path.id.rawValue, isAdmin: call.caller?.isAdmin ?? false)
        }
        api.on(ShopAPI.createProduct) { call in try shop.createProduct(call.body) }
        api.on(ShopAPI.updateProduct) { call in try shop.updateProduct(id: call.path.id.rawValue, call.body) }
        api.on(ShopAPI.addSKU) { call in try shop.addSKU(productID: call.path.id.rawValue, call.body) }
        api.on(ShopAPI.updateSKU) { call in try shop.updateSKU(id: call.path.id.rawValue, call.body) }

        api.on(ShopAPI.cart) { call in try shop.cart(userID: call.caller.userID) }
        api.on(ShopAPI.addToCart) { call in try shop.addToCart(userID: call.caller.userID, call.body) }
        api.on(ShopAPI.setCartQuantity) { call in
            try shop.setCartQuantity(
                userID: call.caller.userID, itemID: call.path.id.rawValue, quantity: call.body.quantity)
        }
        api.on(ShopAPI.removeFromCart) { call in
            try shop.removeFromCart(userID: call.caller.userID, itemID: call.path.id.rawValue)
        }

        api.on(ShopAPI.order) { call in try orders.create(userID: call.caller.userID, call.body) }
        api.on(ShopAPI.orders) { call in
            try orders.list(userID: call.caller.userID, paging: call.query.paging)
        }
        api.on(ShopAPI.orderDetail) { call in
            try orders.detail(userID: call.caller.userID, id: call.path.id.rawValue)
        }
        api.on(ShopAPI.cancelOrder) { call in
            try orders.cancel(userID: call.caller.userID, id: call.path.id.rawValue)
        }
        api.on(ShopAPI.confirmReceipt) { call in
            try orders.confirmReceipt(userID: call.caller.userID, id: call.path.id.rawValue)
        }
        api.on(ShopAPI.pay) { call in
            try orders.startPayment(
                userID: call.caller.userID, orderID: call.path.id.rawValue, choice: call.body.provider)
        }

        api.on(ShopAPI.notifyAlipay) { call in try notification(.alipay, call.request) }
        api.on(ShopAPI.notifyWeChatPay) { call in try notification(.wechatPay, call.request) }
        api.on(ShopAPI.notifySandbox) { call in try notification(.sandbox, call.request) }
        api.on(ShopAPI.sandboxPage) { call in html(try orders.sandboxPage(call.query)) }
        api.on(ShopAPI.sandboxAct) { call in html(try orders.sandboxAct(call.query)) }

        api.on(ShopAPI.adminOrders) { call in
            try orders.adminList(state: call.query.state, cursor: call.query.cursor, size: call.query.size)
        }
        api.on(ShopAPI.shipOrder) { call in try orders.ship(orderID: call.path.id.rawValue, call.body) }
        api.on(ShopAPI.refund) { call in
            try orders.refund(
                orderID: call.path.id.rawValue, reason: call.body?.reason, by: call.caller.userID)
        }
    }

    /// A provider's notification as it came, answered exactly as the provider expects. A form body was parsed
    /// by the HTTP layer: it is encoded again, which keeps what Alipay signs (the decoded pairs, in order).
    private func notification(_ provider: PaymentProviderID, _ request: Request) throws -> Response {
        let body: [UInt8]
        switch request.body {
        case .data(let data, _): body = Array(data)
        case .form(let form): body = ProviderMessage.formBody(form.items.map { ($0.name, $0.value) })
        case .empty: body = []
        case .multipart:
            throw ServiceError.invalid("A payment notification is a form or JSON, not multipart.")
        }
        var headers: [String: String] = [:]
        for (name, value) in request.headers { headers[name] = value }
        let answer = try orders.handleNotification(
            from: provider, ProviderMessage(headers: headers, body: body), address: request.remoteAddress)
        var responseHeaders = HTTPHeaders()
        if let type = answer.contentType { responseHeaders.add("Content-Type", type) }
        return Response(status: answer.status, headers: responseHeaders, body: Data(answer.body))
    }

    private func html(_ page: String) -> Response {
        var headers = HTTPHeaders([("Content-Type", "text/html; charset=utf-8")])
        headers.add("Cache-Control", "no-store")
        return Response(status: 200, headers: headers, body: Data(page.utf8))
    }
}
