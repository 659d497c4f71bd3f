// The words of the shop (issue 31): products, cart, checkout and orders; loaded with the shop's screens.
import { extend } from "./i18n.js";

const zh = {
  cart: "购物车", orders: "我的订单", noProducts: "还没有上架的商品", addToCart: "加入购物车",
  buyNow: "立即购买", addedToCart: "已加入购物车", quantity: "数量", remove: "删除", total: "合计",
  checkout: "去结算", emptyCart: "购物车是空的", payWith: "选择支付方式", pay: "去支付", waitingPayment: "等待支付结果…",
  noOrders: "还没有订单", orderHistory: "订单记录", stock: "库存 {n}",
  state_created: "待支付", state_paid: "已支付", state_shipped: "已发货", state_completed: "已完成",
  state_cancelled: "已取消", state_expired: "已过期", state_refunded: "已退款",
  provider_alipay: "支付宝", provider_wechatpay: "微信支付", provider_sandbox: "测试支付",
  noPicture: "暂无图片", moreOrders: "加载更多订单", carrier: "快递公司", trackingNumber: "快递单号",
  completesBy: "自动确认收货", confirmReceipt: "确认收货", cancelOrder: "取消订单",
  cancelOrderQuestion: "确定取消这个订单吗？库存会被释放。",
};
const en = {
  cart: "Cart", orders: "My orders", noProducts: "Nothing on sale yet", addToCart: "Add to cart",
  buyNow: "Buy now", addedToCart: "Added to the cart", quantity: "Quantity", remove: "Remove", total: "Total",
  checkout: "Check out", emptyCart: "Your cart is empty", payWith: "Pay with", pay: "Pay", waitingPayment: "Waiting for the payment…",
  noOrders: "No orders yet", orderHistory: "History", stock: "{n} in stock",
  state_created: "Awaiting payment", state_paid: "Paid", state_shipped: "Shipped", state_completed: "Completed",
  state_cancelled: "Cancelled", state_expired: "Expired", state_refunded: "Refunded",
  provider_alipay: "Alipay", provider_wechatpay: "WeChat Pay", provider_sandbox: "Sandbox",
  noPicture: "No picture", moreOrders: "More orders", carrier: "Carrier", trackingNumber: "Tracking number",
  completesBy: "Completes by itself on", confirmReceipt: "Confirm receipt", cancelOrder: "Cancel order",
  cancelOrderQuestion: "Cancel this order? Its items go back on sale.",
};

extend({ zh, en });
