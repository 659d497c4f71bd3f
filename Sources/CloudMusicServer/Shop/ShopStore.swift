import Foundation
import MusicCore
import Storage

/// The SQL of products, SKUs and carts. Every function runs on its caller's connection.
struct ShopStore: Sendable {
    struct ProductRecord: Sendable {
        var id: Int64
        var title: String
        var details: String
        var pictures: [String]
        var onSale: Bool
        var createdAt: Int64
        var updatedAt: Int64

        func model(skus: [SKU]) -> Product {
            let cheapest = skus.min { $0.priceCents < $1.priceCents }
            return Product(
                id: String(id), title: title, details: details, pictures: pictures, onSale: onSale,
                priceCents: cheapest?.priceCents, currency: cheapest?.currency, skus: skus,
                createdAt: APIDate.string(createdAt), updatedAt: APIDate.string(updatedAt))
        }
    }

    struct SKURecord: Sendable {
        var id: Int64
        var productID: Int64
        var options: [String: String]
        var priceCents: Int
        var currency: String
        var stock: Int
        var createdAt: Int64
        var updatedAt: Int64

        var model: SKU {
            SKU(
                id: String(id), productId: String(productID), options: options, priceCents: priceCents,
                currency: currency, stock: stock, createdAt: APIDate.string(createdAt),
                updatedAt: APIDate.string(updatedAt))
        }
    }

    private static let productColumns = "id, title, details, pictures, on_sale, created_at, updated_at"
    private static let skuColumns =
        "id, product_id, options, price_cents, currency, stock, created_at, updated_at"

    private static func product(_ row: Row) throws -> ProductRecord {
        ProductRecord(
            id: try row.int64("id"), title: try row.string("title"), details: try row.string("details"),
            pictures: (try? JSONColumn.decode([String].self, try row.string("pictures"))) ?? [],
            onSale: try row.bool("on_sale"), createdAt: try row.int64("created_at"),
            updatedAt: try row.int64("updated_at"))
    }

    static func sku(_ row: Row) throws -> SKURecord {
        SKURecord(
            id: try row.int64("id"), productID: try row.int64("product_id"),
            options: (try? JSONColumn.decode([String: String].self, try row.string("options"))) ?? [:],
            priceCents: try row.int("price_cents"), currency: try row.string("currency"),
            stock: try row.int("stock"), createdAt: try row.int64("created_at"),
            updatedAt: try row.int64("updated_at"))
    }

    // MARK: Products

    func product(_ db: Connection, id: Int64) throws -> ProductRecord? {
        try db.queryOne(
            "SELECT \(Self.productColumns) FROM shop_products WHERE id = ?", id, decode: Self.product)
    }

    /// A page of products on sale, newest first, whose folded text holds `search` when given.
    func productsOnSale(_ db: Connection, search: String?, paging: Paging) throws -> (
        [ProductRecord], total: Int
    ) {
        var filter = "WHERE on_sale = 1"
        var arguments: [any SQLBindable] = []
        if let search {
            filter += " AND search_text LIKE ? ESCAPE '\\'"
            arguments.append("%" + Self.likeEscaped(search) + "%")
        }
        let total =
            try db.queryOne("SELECT count(*) AS n FROM shop_products \(filter)", arguments: arguments) {
                try $0.int("n")
            } ?? 0
        let records = try db.query(
            "SELECT \(Self.productColumns) FROM shop_products \(filter) ORDER BY id DESC LIMIT ? OFFSET ?",
            arguments: arguments + [paging.size, paging.offset], decode: Self.product)
        return (records, total)
    }

    static func likeEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
    }

    func insertProduct(
        _ db: Connection, title: String, details: String, searchText: String, pictures: [String],
        onSale: Bool,
        now: Int64
    ) throws -> Int64 {
        try db.execute(
            """
            INSERT INTO shop_products(title, details, search_text, pictures, on_sale, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """, title, details, searchText, JSONColumn.text(pictures), onSale, now, now)
        return db.lastInsertRowID
    }

    func updateProduct(_ db: Connection, _ record: ProductRecord, searchText: String, now: Int64) throws {
        try db.execute(
            """
            UPDATE shop_products SET title = ?, details = ?, search_text = ?, pictures = ?, on_sale = ?,
                updated_at = ? WHERE id = ?
            """, record.title, record.details, searchText, JSONColumn.text(record.pictures), record.onSale,
            now, record.id)
    }

    // MARK: SKUs

    func sku(_ db: Connection, id: Int64) throws -> SKURecord? {
        try db.queryOne("SELECT \(Self.skuColumns) FROM shop_skus WHERE id = ?", id, decode: Self.sku)
    }

    /// The SKUs of `productIDs`, by product, in the order they were added.
    func skus(_ db: Connection, productIDs: [Int64]) throws -> [Int64: [SKU]] {
        guard !productIDs.isEmpty else { return [:] }
        let records = try db.query(
            """
            SELECT \(Self.skuColumns) FROM shop_skus
            WHERE product_id IN (SELECT value FROM json_each(?)) ORDER BY id
            """, JSONColumn.text(productIDs), decode: Self.sku)
        return Dictionary(grouping: records, by: \.productID).mapValues { $0.map(\.model) }
    }

    func insertSKU(
        _ db: Connection, productID: Int64, options: [String: String], priceCents: Int, currency: String,
        stock: Int, now: Int64
    ) throws -> Int64 {
        try db.execute(
            """
            INSERT INTO shop_skus(product_id, options, price_cents, currency, stock, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """, productID, JSONColumn.text(options), priceCents, currency, stock, now, now)
        return db.lastInsertRowID
    }

    func updateSKU(_ db: Connection, _ record: SKURecord, now: Int64) throws {
        try db.execute(
            "UPDATE shop_skus SET options = ?, price_cents = ?, stock = ?, updated_at = ? WHERE id = ?",
            JSONColumn.text(record.options), record.priceCents, record.stock, now, record.id)
    }

    /// Takes `quantity` out of a SKU's stock when that many are left; false (nothing changed) otherwise.
    /// One statement, so two buyers of the last item cannot both have it.
    func reserve(_ db: Connection, skuID: Int64, quantity: Int, now: Int64) throws -> Bool {
        try db.execute(
            "UPDATE shop_skus SET stock = stock - ?, updated_at = ? WHERE id = ? AND stock >= ?", quantity,
            now, skuID, quantity) == 1
    }

    /// Puts `quantity` back into a SKU's stock (an order that expired, was cancelled).
    func release(_ db: Connection, skuID: Int64, quantity: Int, now: Int64) throws {
        try db.execute(
            "UPDATE shop_skus SET stock = stock + ?, updated_at = ? WHERE id = ?", quantity, now, skuID)
    }

    // MARK: Carts

    struct CartRecord: Sendable {
        var id: Int64
        var productID: Int64
        var title: String
        var pictures: [String]
        var onSale: Bool
        var sku: SKURecord
        var quantity: Int
        var createdAt: Int64
        var updatedAt: Int64

        var model: CartItem {
            CartItem(
                id: String(id), productId: String(productID), title: title, picture: pictures.first,
                sku: sku.model, quantity: quantity, createdAt: APIDate.string(createdAt),
                updatedAt: APIDate.string(updatedAt))
        }
    }

    /// A person's cart, in the order things were put in it.
    func cart(_ db: Connection, userID: Int64) throws -> [CartRecord] {
        try db.query(
            """
            SELECT c.id AS cart_id, c.quantity, c.created_at AS cart_created, c.updated_at AS cart_updated,
                p.title, p.pictures, p.on_sale, s.id, s.product_id, s.options, s.price_cents, s.currency, s.stock,
                s.created_at, s.updated_at
            FROM shop_cart_items c JOIN shop_skus s ON s.id = c.sku_id JOIN shop_products p ON p.id = s.product_id
            WHERE c.user_id = ? ORDER BY c.id
            """, userID
        ) { row in
            let sku = try Self.sku(row)
            return CartRecord(
                id: try row.int64("cart_id"), productID: sku.productID, title: try row.string("title"),
                pictures: (try? JSONColumn.decode([String].self, try row.string("pictures"))) ?? [],
                onSale: try row.bool("on_sale"), sku: sku, quantity: try row.int("quantity"),
                createdAt: try row.int64("cart_created"), updatedAt: try row.int64("cart_updated"))
        }
    }

    /// Adds `quantity` of a SKU to a person's cart (up to 99 of it).
    func addToCart(_ db: Connection, userID: Int64, skuID: Int64, quantity: Int, now: Int64) throws {
        try db.execute(
            """
            INSERT INTO shop_cart_items(user_id, sku_id, quantity, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (user_id, sku_id) DO UPDATE SET quantity = min(99, quantity + excluded.quantity),
                updated_at = excluded.updated_at
            """, userID, skuID, quantity, now, now)
    }

    func cartCount(_ db: Connection, userID: Int64) throws -> Int {
        try db.queryOne("SELECT count(*) AS n FROM shop_cart_items WHERE user_id = ?", userID) {
            try $0.int("n")
        } ?? 0
    }

    /// Sets the quantity of one of the person's cart items; false when they have no such item.
    func setCartQuantity(_ db: Connection, userID: Int64, itemID: Int64, quantity: Int, now: Int64) throws
        -> Bool
    {
        try db.execute(
            "UPDATE shop_cart_items SET quantity = ?, updated_at = ? WHERE id = ? AND user_id = ?", quantity,
            now, itemID, userID) == 1
    }

    func removeFromCart(_ db: Connection, userID: Int64, itemID: Int64) throws -> Bool {
        try db.execute("DELETE FROM shop_cart_items WHERE id = ? AND user_id = ?", itemID, userID) == 1
    }

    func emptyCart(_ db: Connection, userID: Int64, itemIDs: [Int64]) throws {
        try db.execute(
            "DELETE FROM shop_cart_items WHERE user_id = ? AND id IN (SELECT value FROM json_each(?))",
            userID,
            JSONColumn.text(itemIDs))
    }
}
