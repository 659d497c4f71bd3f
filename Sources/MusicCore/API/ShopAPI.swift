/// The shop: products and their SKUs, each person's cart, orders with reserved stock, payment through a
/// provider whose signed notification alone makes an order paid, and refunds by administrators.
public enum ShopAPI {
    public static let products = Endpoint<NoPath, ProductQuery, NoBody, Page<Product>, OptionalSignIn>(
        "products", .GET, "/v1/shop/products",
        "Products on sale, newest first; `q` finds a text in the title or details (CJK too)")
    public static let product = Endpoint<IDPath<Product>, NoQuery, NoBody, Product, OptionalSignIn>(
        "product", .GET, "/v1/shop/products/{id}",
        "A product on sale with its SKUs (administrators also see those off sale)", resource: "product")
    public static let createProduct = Endpoint<NoPath, NoQuery, ProductDraft, Product, Admin>(
        "createProduct", .POST, "/v1/admin/shop/products",
        "add a product (details are HTML, kept to a safe subset)", status: 201)
    public static let updateProduct = Endpoint<IDPath<Product>, NoQuery, ProductChange, Product, Admin>(
        "updateProduct", .PATCH, "/v1/admin/shop/products/{id}",
        "change a product's title, details, pictures or whether it is on sale", resource: "product")
    public static let addSKU = Endpoint<IDPath<Product>, NoQuery, SKUDraft, Product, Admin>(
        "addSKU", .POST, "/v1/admin/shop/products/{id}/skus",
        "add a SKU (options, price, stock) to a product",
        status: 201, resource: "product")
    public static let updateSKU = Endpoint<IDPath<SKU>, NoQuery, SKUChange, Product, Admin>(
        "updateSKU", .PATCH, "/v1/admin/shop/skus/{id}", "change a SKU's price, stock or options",
        resource: "SKU")

    public static let cart = Endpoint<NoPath, NoQuery, NoBody, Cart, SignedIn>(
        "cart", .GET, "/v1/carts", "The caller's cart, the same on every device")
    public static let addToCart = Endpoint<NoPath, NoQuery, CartAddition, Cart, SignedIn>(
        "addToCart", .POST, "/v1/carts", "put a SKU in the cart (its quantity adds to what is there)",
        refusals: [.notFound])
    public static let setCartQuantity = Endpoint<IDPath<CartItem>, NoQuery, CartQuantity, Cart, SignedIn>(
        "setCartQuantity", .PATCH, "/v1/carts/{id}", "set the quantity of an item in the cart",
        resource: "cart item")
    public static let removeFromCart = Endpoint<IDPath<CartItem>, NoQuery, NoBody, Cart, SignedIn>(
        "removeFromCart", .DELETE, "/v1/carts/{id}", "take an item out of the cart", resource: "cart item",
        idempotent: true)

    public static let order = Endpoint<NoPath, NoQuery, OrderDraft, Order, SignedIn>(
        "order", .POST, "/v1/orders",
        "order one SKU, or the whole cart; the stock is reserved until the order is paid or expires",
        status: 201, refusals: [.notFound, .conflict])
    public static let orders = Endpoint<NoPath, PageQuery, NoBody, Page<Order>, SignedIn>(
        "orders", .GET, "/v1/orders", "The caller's orders, newest first")
    public static let orderDetail = Endpoint<IDPath<Order>, NoQuery, NoBody, Order, SignedIn>(
        "orderDetail", .GET, "/v1/orders/{id}",
        "One of the caller's orders with its lines and history (poll it after paying)", resource: "order")
    public static let cancelOrder = Endpoint<IDPath<Order>, NoQuery, NoBody, Order, SignedIn>(
        "cancelOrder", .POST, "/v1/orders/{id}/cancel", "cancel an unpaid order; its stock goes back",
        resource: "order", refusals: [.conflict])
    public static let confirmReceipt = Endpoint<IDPath<Order>, NoQuery, NoBody, Order, SignedIn>(
        "confirmReceipt", .POST, "/v1/orders/{id}/receipt",
        "confirm that a shipped order arrived (确认收货): it is completed", resource: "order",
        refusals: [.conflict])
    public static let pay = Endpoint<IDPath<Order>, NoQuery, PaymentChoice, PaymentLaunch, SignedIn>(
        "pay", .POST, "/v1/orders/{id}/payments",
        "start paying an order with a provider: where to send the payer (the order is paid only when the provider's signed notice comes)",
        resource: "order", refusals: [.conflict, .unavailable])

    public static let notifyAlipay = Endpoint<NoPath, NoQuery, NoBody, PlainText, Anyone>(
        "notifyAlipay", .POST, "/v1/shop/notify/alipay",
        "Alipay's signed notification (a form); answered `success` once stored, `failure` otherwise; 404 when this server does not take Alipay; 429 for an address with too many refused",
        refusals: [.notFound, .rateLimited])
    public static let notifyWeChatPay = Endpoint<NoPath, NoQuery, NoBody, JSONDocument, Anyone>(
        "notifyWeChatPay", .POST, "/v1/shop/notify/wechat",
        "WeChat Pay's signed notification; 204 once stored, `{\"code\":\"FAIL\"}` otherwise; 404 when this server does not take WeChat Pay; 429 for an address with too many refused",
        refusals: [.notFound, .rateLimited])
    public static let notifySandbox = Endpoint<NoPath, NoQuery, NoBody, PlainText, Anyone>(
        "notifySandbox", .POST, "/v1/shop/notify/sandbox",
        "The sandbox's signed notification (Alipay's format); answered `success` once stored; 429 for an address with too many refused",
        refusals: [.rateLimited])
    public static let sandboxPage = Endpoint<NoPath, SandboxPayQuery, NoBody, HTMLPage, Anyone>(
        "sandboxPage", .GET, "/v1/shop/sandbox/pay", "The sandbox's payment page (no money moves)",
        refusals: [.notFound])
    public static let sandboxAct = Endpoint<NoPath, SandboxPayQuery, NoBody, HTMLPage, Anyone>(
        "sandboxAct", .POST, "/v1/shop/sandbox/pay",
        "The sandbox page's buttons: the sandbox signs a notification (paid or closed) and it is handled as any provider's",
        refusals: [.notFound])

    public static let adminOrders = Endpoint<NoPath, AdminOrderQuery, NoBody, OrderList, Admin>(
        "adminOrders", .GET, "/v1/admin/shop/orders", "every order, newest first, by cursor")
    public static let shipOrder = Endpoint<IDPath<Order>, NoQuery, ShipmentDraft, Order, Admin>(
        "shipOrder", .POST, "/v1/admin/shop/orders/{id}/ship",
        "ship a paid order with its carrier and tracking number, which the buyer sees; it completes by itself after the configured days",
        resource: "order", refusals: [.conflict])
    public static let refund = Endpoint<IDPath<Order>, NoQuery, RefundDraft?, Order, Admin>(
        "refund", .POST, "/v1/admin/shop/orders/{id}/refund",
        "refund a paid order (or one paid late) in full through its provider", resource: "order",
        refusals: [.conflict, .unavailable])

    public static let group = APIGroup(
        "shop", "Products, carts, orders and their payment",
        [
            products, product, createProduct, updateProduct, addSKU, updateSKU, cart, addToCart,
            setCartQuantity, removeFromCart, order, orders, orderDetail, cancelOrder, confirmReceipt, pay,
            notifyAlipay, notifyWeChatPay, notifySandbox, sandboxPage, sandboxAct, adminOrders, shipOrder,
            refund,
        ])
}

/// A web page (the sandbox's payment page).
public enum HTMLPage: MediaAnswer {
    public static var contentType: String { "text/html" }
    public static var summary: String { "An HTML page" }
}

/// What an order or the shop's lists are in: the order's life.
public enum OrderState: String, Codable, Sendable, CaseIterable, SchemaEnum {
    case created, paid, shipped, completed, cancelled, expired, refunded
}

/// The payment providers a client may choose (the server offers those configured).
public enum PaymentProviderChoice: String, Codable, Sendable, CaseIterable, SchemaEnum {
    case alipay
    case wechatpay
    case sandbox
}

public struct ProductQuery: APIParameters, Equatable {
    public var q: String?
    public var paging = Paging()
    public init() {}
    public init(q: String? = nil, page: Int = 1, size: Int = 20) {
        self.q = q
        paging = Paging(page: page, size: size)
    }
    public static let fields: [ParameterField<Self>] =
        [.text("q", \.q, maxLength: 100, doc: "Text in the title or details.")] + Paging.fields(\.paging)
}

public struct AdminOrderQuery: APIParameters, Equatable {
    public var state: OrderState?
    public var cursor: String?
    public var size = 50
    public init() {}
    public init(state: OrderState? = nil, cursor: String? = nil, size: Int = 50) {
        self.state = state
        self.cursor = cursor
        self.size = size
    }
    public static let fields: [ParameterField<Self>] = [
        .choice("state", \.state, doc: "Only orders in this state."),
        .cursor(\.cursor),
        .integer("size", \.size, in: 1...200, doc: "Orders per page."),
    ]
}

public struct SandboxPayQuery: APIParameters, Equatable {
    public var order = ""
    public var token = ""
    public var action: SandboxAction?
    public init() {}
    public init(order: String, token: String, action: SandboxAction? = nil) {
        self.order = order
        self.token = token
        self.action = action
    }
    public static let fields: [ParameterField<Self>] = [
        .text("order", \.order, maxLength: 64, required: true, doc: "The order's number."),
        .text("token", \.token, maxLength: 128, required: true, doc: "The token from the payment's link."),
        .choice("action", \.action, doc: "What the payer pressed."),
    ]
}

public enum SandboxAction: String, Codable, Sendable, CaseIterable, SchemaEnum {
    case pay, cancel
}

/// A product as people see it.
public struct Product: Codable, Sendable, Equatable {
    public var id: String
    public var title: String
    /// Sanitized HTML: only a safe subset survives.
    public var details: String
    /// Picture addresses: paths on this server or https addresses.
    public var pictures: [String]
    public var onSale: Bool
    /// The lowest price of its SKUs, in cents; nil while it has none.
    public var priceCents: Int?
    public var currency: String?
    public var skus: [SKU]
    public var createdAt: String
    public var updatedAt: String

    public init(
        id: String, title: String, details: String, pictures: [String], onSale: Bool, priceCents: Int?,
        currency: String?, skus: [SKU], createdAt: String, updatedAt: String
    ) {
        self.id = id
        self.title = title
        self.details = details
        self.pictures = pictures
        self.onSale = onSale
        self.priceCents = priceCents
        self.currency = currency
        self.skus = skus
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// One kind of a product (a colour and a size) with its price and stock.
public struct SKU: Codable, Sendable, Equatable {
    public var id: String
    public var productId: String
    /// What tells it from the product's other SKUs, such as {"colour": "red", "size": "M"}.
    public var options: [String: String]
    public var priceCents: Int
    public var currency: String
    public var stock: Int
    public var createdAt: String
    public var updatedAt: String

    public init(
        id: String, productId: String, options: [String: String], priceCents: Int, currency: String,
        stock: Int,
        createdAt: String, updatedAt: String
    ) {
        self.id = id
        self.productId = productId
        self.options = options
        self.priceCents = priceCents
        self.currency = currency
        self.stock = stock
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

public struct ProductDraft: Codable, Sendable, Equatable {
    public var title: String
    public var details: String?
    public var pictures: [String]?
    public var onSale: Bool?
    public var skus: [SKUDraft]?

    public init(
        title: String, details: String? = nil, pictures: [String]? = nil, onSale: Bool? = nil,
        skus: [SKUDraft]? = nil
    ) {
        self.title = title
        self.details = details
        self.pictures = pictures
        self.onSale = onSale
        self.skus = skus
    }
}

/// Changes to a product; fields left out stay.
public struct ProductChange: Codable, Sendable, Equatable {
    public var title: String?
    public var details: String?
    public var pictures: [String]?
    public var onSale: Bool?

    public init(title: String? = nil, details: String? = nil, pictures: [String]? = nil, onSale: Bool? = nil)
    {
        self.title = title
        self.details = details
        self.pictures = pictures
        self.onSale = onSale
    }
}

public struct SKUDraft: Codable, Sendable, Equatable {
    public var options: [String: String]?
    public var priceCents: Int
    /// ISO 4217, CNY when left out.
    public var currency: String?
    public var stock: Int

    public init(options: [String: String]? = nil, priceCents: Int, currency: String? = nil, stock: Int) {
        self.options = options
        self.priceCents = priceCents
        self.currency = currency
        self.stock = stock
    }
}

/// Changes to a SKU; fields left out stay. `stock` sets what is left to sell (reserved items are not in it).
public struct SKUChange: Codable, Sendable, Equatable {
    public var options: [String: String]?
    public var priceCents: Int?
    public var stock: Int?

    public init(options: [String: String]? = nil, priceCents: Int? = nil, stock: Int? = nil) {
        self.options = options
        self.priceCents = priceCents
        self.stock = stock
    }
}

/// A person's cart: its items and what they come to.
public struct Cart: Codable, Sendable, Equatable {
    public var items: [CartItem]
    /// The sum of the items in `currency`; nil when the cart is empty or mixes currencies.
    public var totalCents: Int?
    public var currency: String?

    public init(items: [CartItem], totalCents: Int?, currency: String?) {
        self.items = items
        self.totalCents = totalCents
        self.currency = currency
    }
}

public struct CartItem: Codable, Sendable, Equatable {
    public var id: String
    public var productId: String
    public var title: String
    public var picture: String?
    public var sku: SKU
    public var quantity: Int
    public var createdAt: String
    public var updatedAt: String

    public init(
        id: String, productId: String, title: String, picture: String?, sku: SKU, quantity: Int,
        createdAt: String, updatedAt: String
    ) {
        self.id = id
        self.productId = productId
        self.title = title
        self.picture = picture
        self.sku = sku
        self.quantity = quantity
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

public struct CartAddition: Codable, Sendable, Equatable {
    public var skuId: ID<SKU>
    public var quantity: Int?

    public init(skuId: ID<SKU>, quantity: Int? = nil) {
        self.skuId = skuId
        self.quantity = quantity
    }
}

public struct CartQuantity: Codable, Sendable, Equatable {
    public var quantity: Int
    public init(quantity: Int) { self.quantity = quantity }
}

/// An order of one SKU (`skuId`, `quantity`), or of the whole cart (`skuId` left out).
public struct OrderDraft: Codable, Sendable, Equatable {
    public var skuId: ID<SKU>?
    public var quantity: Int?

    public init(skuId: ID<SKU>? = nil, quantity: Int? = nil) {
        self.skuId = skuId
        self.quantity = quantity
    }
}

public struct Order: Codable, Sendable, Equatable {
    public var id: String
    /// Our number for it, which the payment providers see.
    public var number: String
    public var state: OrderState
    public var totalCents: Int
    public var currency: String
    /// The provider chosen to pay it with, once payment started.
    public var provider: String?
    /// When an unpaid order expires and its stock goes back.
    public var expiresAt: String
    public var paidAt: String?
    /// A payment came for it after it expired or was cancelled (or a second one): an administrator refunds it.
    public var refundDue: Bool
    /// The lines and history, in the order's own answers (not in lists).
    public var lines: [OrderLine]?
    public var history: [OrderEvent]?
    /// How it was sent, once an administrator shipped it.
    public var shipment: OrderShipment?
    public var createdAt: String
    public var updatedAt: String

    public init(
        id: String, number: String, state: OrderState, totalCents: Int, currency: String, provider: String?,
        expiresAt: String, paidAt: String?, refundDue: Bool, lines: [OrderLine]?, history: [OrderEvent]?,
        shipment: OrderShipment? = nil, createdAt: String, updatedAt: String
    ) {
        self.shipment = shipment
        self.id = id
        self.number = number
        self.state = state
        self.totalCents = totalCents
        self.currency = currency
        self.provider = provider
        self.expiresAt = expiresAt
        self.paidAt = paidAt
        self.refundDue = refundDue
        self.lines = lines
        self.history = history
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// How a shipped order travels, and when it completes by itself unless the buyer confirms it first.
public struct OrderShipment: Codable, Sendable, Equatable {
    public var carrier: String
    public var trackingNumber: String
    public var shippedAt: String
    public var completesAt: String

    public init(carrier: String, trackingNumber: String, shippedAt: String, completesAt: String) {
        self.carrier = carrier
        self.trackingNumber = trackingNumber
        self.shippedAt = shippedAt
        self.completesAt = completesAt
    }
}

/// What an administrator ships an order with.
public struct ShipmentDraft: Codable, Sendable, Equatable {
    /// Such as 顺丰速运 or SF Express.
    public var carrier: String
    public var trackingNumber: String

    public init(carrier: String, trackingNumber: String) {
        self.carrier = carrier
        self.trackingNumber = trackingNumber
    }
}

/// A line of an order: the title, options and price as they were when it was ordered.
public struct OrderLine: Codable, Sendable, Equatable {
    public var skuId: String?
    public var title: String
    public var options: [String: String]
    public var priceCents: Int
    public var quantity: Int

    public init(skuId: String?, title: String, options: [String: String], priceCents: Int, quantity: Int) {
        self.skuId = skuId
        self.title = title
        self.options = options
        self.priceCents = priceCents
        self.quantity = quantity
    }
}

/// One change of an order's state, and why.
public struct OrderEvent: Codable, Sendable, Equatable {
    public var from: OrderState?
    public var to: OrderState
    public var why: String
    public var at: String

    public init(from: OrderState?, to: OrderState, why: String, at: String) {
        self.from = from
        self.to = to
        self.why = why
        self.at = at
    }
}

/// A page of orders for administrators, reached by key.
public struct OrderList: Codable, Sendable, Equatable {
    public var data: [Order]
    /// Give it as `cursor` for the next page; nil on the last.
    public var nextCursor: String?

    public init(data: [Order], nextCursor: String?) {
        self.data = data
        self.nextCursor = nextCursor
    }
}

public struct PaymentChoice: Codable, Sendable, Equatable {
    public var provider: PaymentProviderChoice
    public init(provider: PaymentProviderChoice) { self.provider = provider }
}

/// How the payer goes on: open `redirectUrl` (the provider's cashier, or the sandbox's page), or show
/// `qrCode` to scan. Then poll the order until it is paid.
public struct PaymentLaunch: Codable, Sendable, Equatable {
    public var provider: PaymentProviderChoice
    public var redirectUrl: String?
    public var qrCode: String?

    public init(provider: PaymentProviderChoice, redirectUrl: String?, qrCode: String?) {
        self.provider = provider
        self.redirectUrl = redirectUrl
        self.qrCode = qrCode
    }
}

public struct RefundDraft: Codable, Sendable, Equatable {
    public var reason: String?
    public init(reason: String? = nil) { self.reason = reason }
}

extension ProductDraft: LimitedBody {
    public static let titleText = WrittenText(field: "The title", limit: 100)
    public static let maxPictures = 9
    public static let limits: [FieldLimit<Self>] = [
        .text("title", \.title, titleText),
        .count(
            "pictures", \.pictures, max: maxPictures,
            tooMany: ServiceError.invalid("A product has at most 9 pictures.")),
    ]
}

extension ProductChange: LimitedBody {
    public static let limits: [FieldLimit<Self>] = [
        .text("title", \.title, ProductDraft.titleText),
        .count(
            "pictures", \.pictures, max: ProductDraft.maxPictures,
            tooMany: ServiceError.invalid("A product has at most 9 pictures.")),
    ]
}

extension ShipmentDraft: LimitedBody {
    public static let carrierText = WrittenText(field: "The carrier", limit: 60)
    public static let trackingNumberText = WrittenText(field: "The tracking number", limit: 60)
    public static let limits: [FieldLimit<Self>] = [
        .text("carrier", \.carrier, carrierText),
        .text("trackingNumber", \.trackingNumber, trackingNumberText),
    ]
}

extension RefundDraft: LimitedBody {
    public static let reasonText = WrittenText(field: "The reason", limit: 200)
    public static let limits: [FieldLimit<Self>] = [.text("reason", \.reason, reasonText)]
}
