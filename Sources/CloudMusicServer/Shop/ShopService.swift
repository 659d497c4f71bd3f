import Foundation
import HTMLSanitizer
import MusicCore
import Payments
import Storage

/// The rules of the shop's catalog and carts: administrators write products (their details sanitized on
/// the way in), people see those on sale and keep one cart each on the server, so every device shows it.
struct ShopService: Sendable {
    let database: Database
    let store = ShopStore()
    let clock: @Sendable () -> Int64

    static let noProduct = ServiceError.notFound("That product does not exist.")
    static let noSKU = ServiceError.notFound("That SKU does not exist.")
    static let noCartItem = ServiceError.notFound("That item is not in your cart.")
    static let maxCartItems = 100

    init(database: Database, clock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) })
    {
        self.database = database
        self.clock = clock
    }

    // MARK: Products

    func products(search: String?, paging: Paging) throws -> Page<Product> {
        let folded = search.map(Self.folded)
        return try database.read { db in
            let (records, total) = try store.productsOnSale(db, search: folded, paging: paging)
            let skus = try store.skus(db, productIDs: records.map(\.id))
            return Page(
                items: records.map { $0.model(skus: skus[$0.id] ?? []) }, total: total, page: paging.page,
                size: paging.size)
        }
    }

    /// A product; one off sale only for administrators.
    func product(id: Int64, isAdmin: Bool) throws -> Product {
        try database.read { db in
            guard let record = try store.product(db, id: id), record.onSale || isAdmin else {
                throw Self.noProduct
            }
            return record.model(skus: try store.skus(db, productIDs: [id])[id] ?? [])
        }
    }

    func createProduct(_ draft: ProductDraft) throws -> Product {
        let title = try Self.title(draft.title)
        let details = Self.sanitized(draft.details ?? "")
        let pictures = try Self.pictures(draft.pictures ?? [])
        let skus = try (draft.skus ?? []).map(Self.checked)
        let id = try database.write { db -> Int64 in
            let now = clock()
            let id = try store.insertProduct(
                db, title: title, details: details.html, searchText: Self.folded(title + "\n" + details.text),
                pictures: pictures, onSale: draft.onSale ?? false, now: now)
            for sku in skus {
                _ = try store.insertSKU(
                    db, productID: id, options: sku.options ?? [:], priceCents: sku.priceCents,
                    currency: sku.currency ?? "CNY", stock: sku.stock, now: now)
            }
            return id
        }
        return try product(id: id, isAdmin: true)
    }

    func updateProduct(id: Int64, _ change: ProductChange) throws -> Product {
        let title = try change.title.map(Self.title)
        let details = change.details.map(Self.sanitized)
        let pictures = try change.pictures.map(Self.pictures)
        try database.write { db in
            guard var record = try store.product(db, id: id) else { throw Self.noProduct }
            if let title { record.title = title }
            if let details { record.details = details.html }
            if let pictures { record.pictures = pictures }
            if let onSale = change.onSale { record.onSale = onSale }
            let text = details?.text ?? HTMLSanitizer.plainText(record.details)
            try store.updateProduct(
                db, record, searchText: Self.folded(record.title + "\n" + text), now: clock())
        }
        return try product(id: id, isAdmin: true)
    }

    func addSKU(productID: Int64, _ draft: SKUDraft) throws -> Product {
        let sku = try Self.checked(draft)
        try database.write { db in
            guard try store.product(db, id: productID) != nil else { throw Self.noProduct }
            _ = try store.insertSKU(
                db, productID: productID, options: sku.options ?? [:], priceCents: sku.priceCents,
                currency: sku.currency ?? "CNY", stock: sku.stock, now: clock())
        }
        return try product(id: productID, isAdmin: true)
    }

    func updateSKU(id: Int64, _ change: SKUChange) throws -> Product {
        let productID = try database.write { db -> Int64 in
            guard var record = try store.sku(db, id: id) else { throw Self.noSKU }
            let checked = try Self.checked(
                SKUDraft(
                    options: change.options ?? record.options,
                    priceCents: change.priceCents ?? record.priceCents,
                    currency: record.currency, stock: change.stock ?? record.stock))
            record.options = checked.options ?? [:]
            record.priceCents = checked.priceCents
            record.stock = checked.stock
            try store.updateSKU(db, record, now: clock())
            return record.productID
        }
        return try product(id: productID, isAdmin: true)
    }

    // MARK: Carts

    func cart(userID: Int64) throws -> Cart {
        try database.read { db in try cart(db, userID: userID) }
    }

    private func cart(_ db: Connection, userID: Int64) throws -> Cart {
        let items = try store.cart(db, userID: userID).map(\.model)
        let currencies = Set(items.map(\.sku.currency))
        let total = currencies.count == 1 ? items.reduce(0) { $0 + $1.sku.priceCents * $1.quantity } : nil
        return Cart(items: items, totalCents: total, currency: currencies.count == 1 ? currencies.first : nil)
    }

    func addToCart(userID: Int64, _ addition: CartAddition) throws -> Cart {
        let quantity = try Self.quantity(addition.quantity ?? 1)
        let skuID = addition.skuId.rawValue
        return try database.write { db in
            guard let sku = try store.sku(db, id: skuID),
                let product = try store.product(db, id: sku.productID), product.onSale
            else { throw Self.noSKU }
            guard try store.cartCount(db, userID: userID) < Self.maxCartItems else {
                throw ServiceError.conflict("Your cart holds at most 100 items; order or remove some first.")
            }
            try store.addToCart(db, userID: userID, skuID: skuID, quantity: quantity, now: clock())
            return try cart(db, userID: userID)
        }
    }

    func setCartQuantity(userID: Int64, itemID: Int64, quantity: Int) throws -> Cart {
        let quantity = try Self.quantity(quantity)
        return try database.write { db in
            guard
                try store.setCartQuantity(
                    db, userID: userID, itemID: itemID, quantity: quantity, now: clock())
            else { throw Self.noCartItem }
            return try cart(db, userID: userID)
        }
    }

    func removeFromCart(userID: Int64, itemID: Int64) throws -> Cart {
        try database.write { db in
            _ = try store.removeFromCart(db, userID: userID, itemID: itemID)
            return try cart(db, userID: userID)
        }
    }

    // MARK: Checks

    static func title(_ text: String) throws -> String {
        guard let title = try ProductDraft.titleText.check(text) else {
            throw ServiceError.invalid("Give the product a title.")
        }
        return title
    }

    static func quantity(_ quantity: Int) throws -> Int {
        guard (1...99).contains(quantity) else {
            throw ServiceError.invalid("'quantity' must be a whole number from 1 to 99.")
        }
        return quantity
    }

    /// Details as HTML kept to the sanitizer's allow-list; pictures only from https addresses.
    static func sanitized(_ html: String) -> SanitizedHTML {
        HTMLSanitizer(
            baseURL: nil, imageProxy: { $0.scheme == "https" ? $0.absoluteString : nil },
            maxInputBytes: 200_000
        ).sanitize(html)
    }

    /// Picture addresses: paths on this server (an upload's `uri`) or https addresses, at most 9.
    static func pictures(_ list: [String]) throws -> [String] {
        return try list.map { text in
            let uri = text.trimmingCharacters(in: .whitespaces)
            let isLocal =
                !uri.isEmpty && !uri.hasPrefix("/") && !uri.contains("..") && !uri.contains(":")
                && !uri.contains("\\")
            let isHTTPS = URL(string: uri).map { $0.scheme == "https" && $0.host != nil } ?? false
            guard uri.count <= 500, isLocal || isHTTPS else {
                throw ServiceError.invalid(
                    "A picture must be a path on this server (an uploaded file's uri) or an https address.")
            }
            return uri
        }
    }

    static func checked(_ draft: SKUDraft) throws -> SKUDraft {
        guard (1...PaymentAmount.maximumCents).contains(draft.priceCents) else {
            throw ServiceError.invalid("'priceCents' must be a whole number of cents from 1 to 10000000000.")
        }
        guard (0...1_000_000).contains(draft.stock) else {
            throw ServiceError.invalid("'stock' must be a whole number from 0 to 1000000.")
        }
        let currency = draft.currency ?? "CNY"
        guard currency.count == 3, currency.allSatisfy({ $0.isASCII && $0.isUppercase }) else {
            throw ServiceError.invalid("'currency' must be a 3-letter ISO 4217 code such as CNY.")
        }
        let options = draft.options ?? [:]
        guard options.count <= 8,
            options.allSatisfy({ (1...20).contains($0.key.count) && (1...40).contains($0.value.count) })
        else {
            throw ServiceError.invalid(
                "A SKU has at most 8 options, each a name of 1 to 20 characters and a value of 1 to 40.")
        }
        return SKUDraft(
            options: options, priceCents: draft.priceCents, currency: currency, stock: draft.stock)
    }

    /// Text for LIKE: lower-cased (ASCII and beyond) and width-folded, so "ＡＢＣ" finds "abc".
    static func folded(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .widthInsensitive], locale: nil).lowercased()
    }
}
