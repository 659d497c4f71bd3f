"""The shop in the web player (issue 31): an administrator makes a product with two SKUs through the API; a
person on a phone adds one to the cart, checks out with the sandbox, pays on the sandbox page and sees the
order paid (the server's word, polled); after paid, the shipment shown and 确认收货, the cancel of an unpaid
order and the orders list past its first page; axe on the shop's screens (list, product with its placeholder
picture, cart, order); screenshots at phone and desktop sizes."""
import pytest

from conftest import SCREENSHOTS as SHOTS, DESKTOP, PHONE, SETTLED, Server, api, axe_check, http, new_page


@pytest.fixture(scope="module")
def shop_server():
    running = Server("--signup-codes", "off")
    # The first account is the administrator, whichever test runs first.
    running.admin = running.account("shop-admin@example.com", "店主")
    yield running
    running.close()


def test_a_person_buys_with_the_sandbox(browser, shop_server):
    admin = shop_server.admin
    made = api("POST", shop_server.url + "/v1/admin/shop/products", {
        "title": "云音乐T恤", "details": "<p>纯棉 <b>舒适</b></p>", "onSale": True,
        "skus": [{"options": {"尺码": "M"}, "priceCents": 9900, "currency": "CNY", "stock": 5},
                 {"options": {"尺码": "L"}, "priceCents": 10900, "currency": "CNY", "stock": 5}]}, admin["session"])
    assert len(made["skus"]) == 2
    buyer = shop_server.account("buyer@example.com", "买家")
    page = new_page(browser, shop_server.url, viewport=PHONE, user=buyer, touch=True)
    try:
        page.goto("/mine")
        page.locator("a[href='/shop']").tap()
        page.locator(".product-row", has_text="云音乐T恤").tap()
        # The details keep their rich text (the server's sanitized HTML, drawn through ui.js).
        assert page.locator(".product-details b").inner_text() == "舒适"
        page.locator(".sku", has_text="L").tap()
        page.locator(".add-to-cart").tap()
        page.locator(".toast").wait_for()
        page.goto("/shop/cart")
        page.locator(".cart-item", has_text="云音乐T恤").wait_for()
        assert "109" in page.locator(".cart-total").inner_text()
        page.locator(".checkout").tap()
        page.locator("input[value=sandbox]").check()
        with page.context.expect_page() as opened:
            page.locator(".pay").tap()
        sandbox = opened.value
        sandbox.locator("#pay").click()
        page.locator(".order-state[data-state=paid]").wait_for()
        page.wait_for_function(SETTLED)
        axe_check(page, "order")
        assert not page.errors, page.errors
    finally:
        page.context.close()


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_shop_screens_pass_axe_and_are_pictured(browser, shop_server, theme, size):
    page = new_page(browser, shop_server.url, viewport=size, theme=theme)
    try:
        page.goto("/shop")
        page.locator(".product-row, .empty").first.wait_for()
        page.wait_for_function(SETTLED)
        axe_check(page, "shop")
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / f"shop-{size['width']}-{theme}.png"))
        assert not page.errors, page.errors
    finally:
        page.context.close()


def sandbox_pay(server, order_id, token):
    """Pays an order as the sandbox page's button does: the sandbox signs the notice the server checks."""
    launch = api("POST", f"{server.url}/v1/orders/{order_id}/payments", {"provider": "sandbox"}, token)
    status, _, _ = http("POST", server.url + launch["redirectUrl"] + "&action=pay")
    assert status == 200


@pytest.fixture(scope="module")
def shipped_world(shop_server):
    """A product without pictures; a buyer with 23 orders: one paid and shipped, the rest unpaid."""
    admin = shop_server.admin
    made = api("POST", shop_server.url + "/v1/admin/shop/products", {
        "title": "无图马克杯", "details": "<p>陶瓷</p>", "onSale": True,
        "skus": [{"options": {"颜色": "白"}, "priceCents": 3900, "currency": "CNY", "stock": 60}]}, admin["session"])
    sku = made["skus"][0]["id"]
    buyer = shop_server.account("mug-buyer@example.com", "杯子买家")
    orders = [api("POST", shop_server.url + "/v1/orders", {"skuId": sku, "quantity": 1}, buyer["session"])
              for _ in range(23)]
    shipped = orders[0]["id"]
    sandbox_pay(shop_server, shipped, buyer["session"])
    api("POST", f"{shop_server.url}/v1/admin/shop/orders/{shipped}/ship",
        {"carrier": "顺丰速运", "trackingNumber": "SF1234567890"}, admin["session"])
    api("POST", shop_server.url + "/v1/carts", {"skuId": sku, "quantity": 2}, buyer["session"])
    return {"buyer": buyer, "product": made["id"], "orders": [o["id"] for o in orders], "shipped": shipped}


def test_the_buyer_sees_the_shipment_confirms_receipt_cancels_and_pages_orders(browser, shop_server, shipped_world):
    page = new_page(browser, shop_server.url, viewport=PHONE, user=shipped_world["buyer"], touch=True)
    try:
        page.goto("/shop/orders")
        page.locator(".order-row").first.wait_for()
        assert page.locator(".order-row").count() == 20
        page.locator(".more-orders").tap()
        page.wait_for_function("() => document.querySelectorAll('.order-row').length === 23")
        assert page.locator(".more-orders").count() == 0

        page.goto(f"/shop/order/{shipped_world['shipped']}")
        page.locator(".order-state[data-state=shipped]").wait_for()
        assert page.locator(".shipment-carrier").inner_text() == "顺丰速运"
        assert page.locator(".shipment-tracking").inner_text() == "SF1234567890"
        assert page.locator(".cancel-order").count() == 0
        page.locator(".confirm-receipt").tap()
        page.locator(".order-state[data-state=completed]").wait_for()
        assert page.locator(".confirm-receipt").count() == 0

        unpaid = shipped_world["orders"][-1]
        page.goto(f"/shop/order/{unpaid}")
        page.locator(".order-state[data-state=created]").wait_for()
        page.once("dialog", lambda dialog: dialog.accept())
        page.locator(".cancel-order").tap()
        page.locator(".order-state[data-state=cancelled]").wait_for()
        assert not page.errors, page.errors
    finally:
        page.context.close()


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_product_cart_and_order_pass_axe_and_are_pictured(browser, shop_server, shipped_world, theme, size):
    page = new_page(browser, shop_server.url, viewport=size, theme=theme, user=shipped_world["buyer"])
    screens = [
        ("list", "/shop", ".product-row"),
        ("product", f"/shop/product/{shipped_world['product']}", ".product-pictures .picture-placeholder"),
        ("cart", "/shop/cart", ".cart-item"),
        ("order", f"/shop/order/{shipped_world['shipped']}", ".order-shipment"),
    ]
    try:
        SHOTS.mkdir(exist_ok=True)
        for name, path, ready in screens:
            page.goto(path)
            page.locator(ready).first.wait_for()
            page.wait_for_function(SETTLED)
            axe_check(page, f"shop {name}")
            page.screenshot(path=str(SHOTS / f"shop-{name}-{size['width']}-{theme}.png"))
        assert not page.errors, page.errors
    finally:
        page.context.close()


def test_the_home_carries_the_shop(browser):
    # A server of its own: the home keeps a module a minute, so the products must exist before its first home.
    running = Server("--signup-codes", "off")
    try:
        admin = running.account("home-shop-admin@example.com", "店主")
        made = api("POST", running.url + "/v1/admin/shop/products", {
            "title": "首页耳机", "details": "<p>头戴式</p>", "onSale": True,
            "skus": [{"options": {"颜色": "黑"}, "priceCents": 29900, "currency": "CNY", "stock": 3}]}, admin["session"])
        page = new_page(browser, running.url, viewport=PHONE, touch=True)
        try:
            page.goto("/")
            card = page.locator(".module-products .card", has_text="首页耳机")
            card.wait_for()
            assert "299" in card.inner_text()
            page.wait_for_function(SETTLED)
            axe_check(page, "home with the shop")
            page.locator(".module-products").screenshot(path=str(SHOTS / "home-shop-phone-light.png"))
            card.tap()
            page.wait_for_url(f"**/shop/product/{made['id']}")
            assert page.locator(".product-details").inner_text().strip() == "头戴式"
            assert not page.errors, page.errors
        finally:
            page.context.close()
    finally:
        running.close()
