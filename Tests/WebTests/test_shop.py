"""The shop in the web player (issue 31): an administrator makes a product with two SKUs through the API; a
person on a phone adds one to the cart, checks out with the sandbox, pays on the sandbox page and sees the
order paid (the server's word, polled); axe on the shop's screens; screenshots at phone and desktop sizes."""
import pytest

from conftest import SCREENSHOTS as SHOTS, DESKTOP, PHONE, SETTLED, Server, api, axe_check, new_page


@pytest.fixture(scope="module")
def shop_server():
    running = Server("--signup-codes", "off")
    yield running
    running.close()


def test_a_person_buys_with_the_sandbox(browser, shop_server):
    admin = shop_server.account("shop-admin@example.com", "店主")
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
