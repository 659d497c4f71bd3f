// One moment with its comments.
import { mount as comments } from "./comments.js";
import "../i18n-social.js";

export function mount(root, { params, query }) {
  return comments(root, { params: { kind: "moment", id: params.id }, query });
}
