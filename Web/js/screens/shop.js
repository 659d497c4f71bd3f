// The shop (issue 31): products, a product with its SKUs, the cart, checkout with a payment provider, and the
// orders. An order is paid only when the server says so: after the payment page opens we poll GET the order.
import { shop } from "../api.js";
import "../i18n-shop.js";
import { t } from "../i18n.js";
import { navigate } from "../router.js";
import { setHTML, setSanitizedHTML, html, safeLink, loadingBlock, errorBlock, emptyBlock, toast } from "../ui.js";
import { media } from "../media.js";
import { icon } from "../icons.js";

const PROVIDERS = ["sandbox", "alipay", "wechatpay"];

/** Cents in the currency's format (CNY 1234 as ¥12.34). */
export function money(cents, currency = "CNY") {
  return new Intl.NumberFormat(undefined, { style: "currency", currency }).format(cents / 100);
}

/** A product's picture, or a placeholder of the page's colours when it has none. */
function picture(uri, size, css) {
  return uri ? html`<img class="${css}" src="${media(uri, size * 2)}" alt="" width="${size}" height="${size}">`
    : html`<span class="${css} picture-placeholder" role="img" aria-label="${t("noPicture")}">${icon("image")}</span>`;
}

const options = (map) => Object.entries(map ?? {}).map(([k, v]) => `${k}: ${v}`).join(" · ");

function page(root, title, body) {
  setHTML(root, html`<header class="top-bar"><a class="icon-btn back-link" href="/shop" aria-label="${t("shop")}">${icon("back")}</a>
      <h1 class="top-title">${title}</h1>
      <nav class="shop-links"><a href="/shop/cart">${t("cart")}</a> <a href="/shop/orders">${t("orders")}</a></nav></header>
    <main class="shop">${body}</main>`);
  return root.querySelector(".shop");
}

async function guarded(root, box, load) {
  try {
    await load();
  } catch (error) {
    if (!root.isConnected) return;
    setHTML(box, errorBlock(error));
    box.querySelector("[data-action=retry]")?.addEventListener("click", () => guarded(root, box, load));
  }
}

async function list(root) {
  const box = page(root, t("shop"), loadingBlock());
  await guarded(root, box, async () => {
    const result = await shop.products({ size: 50 });
    if (!root.isConnected) return;
    setHTML(box, result.data.length ? html`<ul class="product-list">${result.data.map((p) => html`<li><a class="product-row" href="/shop/product/${p.id}">
        ${picture(p.pictures?.[0], 64, "product-thumb")}
        <span class="product-title">${p.title}</span>
        ${p.priceCents != null ? html`<span class="product-price">${money(p.priceCents, p.currency)}</span>` : ""}</a></li>`)}</ul>`
      : emptyBlock(t("noProducts")));
  });
}

async function product(root, id) {
  const box = page(root, t("shop"), loadingBlock());
  await guarded(root, box, async () => {
    const p = await shop.product({ id });
    if (!root.isConnected) return;
    const pictures = p.pictures?.length ? p.pictures : [null];
    setHTML(box, html`<div class="product-pictures">${pictures.map((u) => picture(u, 320, "product-picture"))}</div>
      <h2 class="product-name">${p.title}</h2>
      <div class="product-details"></div>
      <fieldset class="sku-choice"><legend>${t("shop")}</legend>${p.skus.map((s, i) => html`<label class="sku">
        <input type="radio" name="sku" value="${s.id}" ${i === 0 ? "checked" : ""}>
        <span>${options(s.options) || p.title}</span> <span class="sku-price">${money(s.priceCents, s.currency)}</span>
        <span class="sku-stock">${t("stock", { n: s.stock })}</span></label>`)}</fieldset>
      <label class="quantity">${t("quantity")} <input type="number" name="quantity" min="1" max="99" value="1"></label>
      <div class="product-actions"><button class="pill-btn add-to-cart" type="button">${t("addToCart")}</button>
        <button class="pill-btn primary buy-now" type="button">${t("buyNow")}</button></div>`);
    // The details are the server's sanitized rich text (bold, lists, pictures), drawn through ui.js's one path.
    setSanitizedHTML(box.querySelector(".product-details"), p.details);
    const chosen = () => ({ skuId: box.querySelector("input[name=sku]:checked")?.value,
      quantity: Math.max(1, Math.min(99, Number(box.querySelector("input[name=quantity]").value) || 1)) });
    box.querySelector(".add-to-cart").addEventListener("click", async () => {
      try {
        await shop.addToCart({}, chosen());
        toast(t("addedToCart"));
      } catch (error) { toast(error.message); }
    });
    box.querySelector(".buy-now").addEventListener("click", async () => {
      try {
        const order = await shop.order({}, chosen());
        navigate(`/shop/order/${order.id}`);
      } catch (error) { toast(error.message); }
    });
  });
}

async function cart(root) {
  const box = page(root, t("cart"), loadingBlock());
  const draw = (c) => {
    setHTML(box, c.items.length ? html`<ul class="cart-items">${c.items.map((item) => html`<li class="cart-item" data-id="${item.id}">
        ${picture(item.picture, 48, "cart-thumb")}<span class="cart-title">${item.title}</span> <span class="cart-options">${options(item.sku.options)}</span>
        <span class="cart-price">${money(item.sku.priceCents, item.sku.currency)}</span>
        <input type="number" class="cart-quantity" min="1" max="99" value="${item.quantity}" aria-label="${t("quantity")}">
        <button class="pill-btn cart-remove" type="button">${t("remove")}</button></li>`)}</ul>
      <p class="cart-total">${t("total")} ${money(c.totalCents ?? 0, c.currency ?? "CNY")}</p>
      <button class="pill-btn primary checkout" type="button">${t("checkout")}</button>` : emptyBlock(t("emptyCart")));
    for (const row of box.querySelectorAll(".cart-item")) {
      const id = row.dataset.id;
      row.querySelector(".cart-quantity").addEventListener("change", async (event) => {
        try { draw(await shop.setCartQuantity({ id }, { quantity: Number(event.target.value) || 1 })); } catch (error) { toast(error.message); }
      });
      row.querySelector(".cart-remove").addEventListener("click", async () => {
        try { draw(await shop.removeFromCart({ id })); } catch (error) { toast(error.message); }
      });
    }
    box.querySelector(".checkout")?.addEventListener("click", async () => {
      try {
        const order = await shop.order({}, {});
        navigate(`/shop/order/${order.id}`);
      } catch (error) { toast(error.message); }
    });
  };
  await guarded(root, box, async () => {
    const c = await shop.cart();
    if (root.isConnected) draw(c);
  });
}

async function orders(root) {
  const box = page(root, t("orders"), loadingBlock());
  const size = 20;
  let shown = [];
  let pageNumber = 0;
  let pages = 0;
  const draw = () => {
    setHTML(box, shown.length ? html`<ul class="order-list">${shown.map((o) => html`<li><a class="order-row" href="/shop/order/${o.id}">
        <span class="order-number">${o.number}</span> <span class="order-state">${t(`state_${o.state}`)}</span>
        <span class="order-total">${money(o.totalCents, o.currency)}</span></a></li>`)}</ul>
      ${pageNumber < pages ? html`<button type="button" class="pill-btn more-orders">${t("moreOrders")}</button>` : ""}`
      : emptyBlock(t("noOrders")));
    box.querySelector(".more-orders")?.addEventListener("click", async (event) => {
      event.target.disabled = true;
      try { await next(); } catch (error) { toast(error.message); event.target.disabled = false; }
    });
  };
  // Pages by number, newest first; an order made meanwhile shifts them, so ones already shown are skipped.
  const next = async () => {
    const result = await shop.orders({ page: pageNumber + 1, size });
    if (!root.isConnected) return;
    const seen = new Set(shown.map((o) => o.id));
    shown = shown.concat(result.data.filter((o) => !seen.has(o.id)));
    pageNumber = result.page;
    pages = result.pages;
    draw();
  };
  await guarded(root, box, next);
}

async function order(root, id) {
  const box = page(root, t("orders"), loadingBlock());
  let stopped = false;
  const draw = (o) => {
    setHTML(box, html`<h2 class="order-number">${o.number}</h2>
      <p class="order-state" data-state="${o.state}">${t(`state_${o.state}`)}</p>
      <ul class="order-lines">${(o.lines ?? []).map((l) => html`<li>${l.title} ${options(l.options)} × ${l.quantity} ${money(l.priceCents, o.currency)}</li>`)}</ul>
      <p class="order-total">${t("total")} ${money(o.totalCents, o.currency)}</p>
      ${o.shipment ? html`<dl class="order-shipment"><dt>${t("carrier")}</dt><dd class="shipment-carrier">${o.shipment.carrier}</dd>
        <dt>${t("trackingNumber")}</dt><dd class="shipment-tracking">${o.shipment.trackingNumber}</dd>
        ${o.state === "shipped" ? html`<dt>${t("completesBy")}</dt><dd><time>${new Date(o.shipment.completesAt).toLocaleDateString()}</time></dd>` : ""}</dl>` : ""}
      ${o.state === "shipped" ? html`<button class="pill-btn primary confirm-receipt" type="button">${t("confirmReceipt")}</button>` : ""}
      ${o.state === "created" ? html`<fieldset class="providers"><legend>${t("payWith")}</legend>${PROVIDERS.map((p, i) => html`<label>
          <input type="radio" name="provider" value="${p}" ${i === 0 ? "checked" : ""}> ${t(`provider_${p}`)}</label>`)}</fieldset>
        <button class="pill-btn primary pay" type="button">${t("pay")}</button><p class="waiting" hidden>${t("waitingPayment")}</p>
        <button class="pill-btn cancel-order" type="button">${t("cancelOrder")}</button>` : ""}
      <h3>${t("orderHistory")}</h3><ol class="order-history">${(o.history ?? []).map((e) => html`<li><time>${e.at}</time> ${t(`state_${e.to}`)} ${e.why}</li>`)}</ol>`);
    box.querySelector(".cancel-order")?.addEventListener("click", async () => {
      if (!window.confirm(t("cancelOrderQuestion"))) return;
      try { draw(await shop.cancelOrder({ id })); } catch (error) { toast(error.message); }
    });
    box.querySelector(".confirm-receipt")?.addEventListener("click", async () => {
      try { draw(await shop.confirmReceipt({ id })); } catch (error) { toast(error.message); }
    });
    box.querySelector(".pay")?.addEventListener("click", async () => {
      const provider = box.querySelector("input[name=provider]:checked").value;
      try {
        const launch = await shop.pay({ id }, { provider });
        const link = safeLink(launch.redirectUrl);
        if (link) window.open(link, "_blank", "noopener");
        box.querySelector(".waiting").hidden = false;
        poll();
      } catch (error) { toast(error.message); }
    });
  };
  // The server's confirmation, asked for until the order leaves "created" (or the screen is left).
  const poll = async () => {
    while (!stopped && root.isConnected) {
      try {
        const o = await shop.orderDetail({ id });
        if (o.state !== "created") { draw(o); return; }
      } catch { /* a failed poll is asked again */ }
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  };
  await guarded(root, box, async () => {
    const o = await shop.orderDetail({ id });
    if (root.isConnected) draw(o);
  });
  return () => { stopped = true; };
}

export async function mount(root, { params }) {
  if (params.id && params.kind === "product") return product(root, params.id);
  if (params.id && params.kind === "order") return order(root, params.id);
  if (params.kind === "cart") return cart(root);
  if (params.kind === "orders") return orders(root);
  return list(root);
}
