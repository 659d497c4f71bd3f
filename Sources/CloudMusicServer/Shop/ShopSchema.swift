import Storage

/// The shop's tables: products and SKUs, carts, orders with their copied lines and their history, and every
/// payment notification and refund, kept for idempotency and audit.
enum ShopSchema {
    static let migration = Migration(
        version: 60, name: "shop",
        sql: """
            -- search_text: the title and the details' text, lower-cased, for LIKE (substrings, so CJK works).
            CREATE TABLE shop_products (
                id INTEGER PRIMARY KEY,
                title TEXT NOT NULL,
                details TEXT NOT NULL DEFAULT '',
                search_text TEXT NOT NULL DEFAULT '',
                pictures TEXT NOT NULL DEFAULT '[]',
                on_sale INTEGER NOT NULL DEFAULT 0,
                created_at INTEGER NOT NULL,
                updated_at INTEGER NOT NULL
            );
            CREATE INDEX shop_products_on_sale ON shop_products(on_sale, id);

            -- stock: what is left to sell; an order takes its items out when it is made.
            CREATE TABLE shop_skus (
                id INTEGER PRIMARY KEY,
                product_id INTEGER NOT NULL REFERENCES shop_products(id) ON DELETE CASCADE,
                options TEXT NOT NULL DEFAULT '{}',
                price_cents INTEGER NOT NULL CHECK (price_cents > 0),
                currency TEXT NOT NULL,
                stock INTEGER NOT NULL CHECK (stock >= 0),
                created_at INTEGER NOT NULL,
                updated_at INTEGER NOT NULL
            );
            CREATE INDEX shop_skus_product ON shop_skus(product_id, id);

            CREATE TABLE shop_cart_items (
                id INTEGER PRIMARY KEY,
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                sku_id INTEGER NOT NULL REFERENCES shop_skus(id) ON DELETE CASCADE,
                quantity INTEGER NOT NULL CHECK (quantity BETWEEN 1 AND 99),
                created_at INTEGER NOT NULL,
                updated_at INTEGER NOT NULL,
                UNIQUE (user_id, sku_id)
            );

            -- An order outlives its buyer's account (it is a record of money), so the user goes to NULL.
            -- expires_at is stored so that an unpaid order expires whether or not the server was running.
            CREATE TABLE shop_orders (
                id INTEGER PRIMARY KEY,
                user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
                number TEXT NOT NULL UNIQUE,
                state TEXT NOT NULL CHECK (state IN
                    ('created', 'paid', 'shipped', 'completed', 'cancelled', 'expired', 'refunded')),
                total_cents INTEGER NOT NULL CHECK (total_cents > 0),
                currency TEXT NOT NULL,
                provider TEXT,
                expires_at INTEGER NOT NULL,
                paid_at INTEGER,
                provider_trade_id TEXT,
                refund_due INTEGER NOT NULL DEFAULT 0,
                created_at INTEGER NOT NULL,
                updated_at INTEGER NOT NULL
            );
            CREATE INDEX shop_orders_user ON shop_orders(user_id, id);
            CREATE INDEX shop_orders_state ON shop_orders(state, id);
            CREATE INDEX shop_orders_unpaid ON shop_orders(expires_at) WHERE state = 'created';

            -- The title, options and price are copied: later changes to the product do not change an order.
            CREATE TABLE shop_order_lines (
                id INTEGER PRIMARY KEY,
                order_id INTEGER NOT NULL REFERENCES shop_orders(id) ON DELETE CASCADE,
                sku_id INTEGER REFERENCES shop_skus(id) ON DELETE SET NULL,
                title TEXT NOT NULL,
                options TEXT NOT NULL,
                price_cents INTEGER NOT NULL,
                quantity INTEGER NOT NULL CHECK (quantity > 0)
            );
            CREATE INDEX shop_order_lines_order ON shop_order_lines(order_id);

            CREATE TABLE shop_order_history (
                id INTEGER PRIMARY KEY,
                order_id INTEGER NOT NULL REFERENCES shop_orders(id) ON DELETE CASCADE,
                from_state TEXT,
                to_state TEXT NOT NULL,
                why TEXT NOT NULL,
                at INTEGER NOT NULL
            );
            CREATE INDEX shop_order_history_order ON shop_order_history(order_id, id);

            -- One row per notification believed (its signature checked), under the provider's own id for it:
            -- the same notification again finds its row and changes nothing. digest: BLAKE2b of the body.
            CREATE TABLE shop_payment_notifications (
                id INTEGER PRIMARY KEY,
                provider TEXT NOT NULL,
                replay_key TEXT NOT NULL UNIQUE,
                order_id INTEGER REFERENCES shop_orders(id) ON DELETE SET NULL,
                trade_id TEXT,
                amount_cents INTEGER NOT NULL,
                digest TEXT NOT NULL,
                payload TEXT NOT NULL,
                verdict TEXT NOT NULL,
                at INTEGER NOT NULL
            );
            CREATE INDEX shop_payment_notifications_order ON shop_payment_notifications(order_id);

            CREATE TABLE shop_refunds (
                id INTEGER PRIMARY KEY,
                order_id INTEGER NOT NULL REFERENCES shop_orders(id) ON DELETE CASCADE,
                number TEXT NOT NULL UNIQUE,
                amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
                status TEXT NOT NULL,
                provider_refund_id TEXT,
                reason TEXT NOT NULL,
                payload TEXT NOT NULL,
                created_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
                created_at INTEGER NOT NULL
            );
            CREATE INDEX shop_refunds_order ON shop_refunds(order_id);
            """)

    /// Shipping: the carrier and tracking number an administrator gives, and when a shipped order completes
    /// by itself (stored, so it completes whether or not the server was running then).
    static let shipping = Migration(
        version: 61, name: "shop shipping",
        sql: """
            ALTER TABLE shop_orders ADD COLUMN carrier TEXT;
            ALTER TABLE shop_orders ADD COLUMN tracking_number TEXT;
            ALTER TABLE shop_orders ADD COLUMN shipped_at INTEGER;
            ALTER TABLE shop_orders ADD COLUMN completes_at INTEGER;
            CREATE INDEX shop_orders_shipped ON shop_orders(completes_at) WHERE state = 'shipped';
            """)
}
