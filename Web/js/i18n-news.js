// The words of the news screens (issue 32); loaded with them.
import { extend } from "./i18n.js";

const zh = {
  newsChannels: "频道", newsUnread: "{n} 条未读", newsRefresh: "刷新", newsReadAll: "全部已读",
  newsReadAllAsk: "把「{channel}」的文章全部标为已读？", newsAllRead: "已全部标为已读", newsLoadMore: "加载更多",
  newsNoMore: "没有更多了", newsEmpty: "这个频道还没有文章", newsNoChannels: "还没有频道", newsNew: "{n} 条新资讯",
  newsNoNew: "暂无新资讯", newsSave: "收藏", newsUnsave: "取消收藏", newsSaved: "已收藏", newsSavedList: "我的收藏",
  newsNoSaved: "还没有收藏的文章", newsSavedToast: "已收藏，离线也能阅读", newsUnsavedToast: "已取消收藏",
  newsHide: "不感兴趣", newsHiddenToast: "已隐藏", newsShare: "分享", newsLinkCopied: "链接已复制",
  newsOriginal: "阅读原文", newsHasVideo: "含视频", newsSignIn: "登录后阅读资讯",
};
const en = {
  newsChannels: "Channels", newsUnread: "{n} unread", newsRefresh: "Refresh", newsReadAll: "Mark all read",
  newsReadAllAsk: "Mark every article in “{channel}” as read?", newsAllRead: "All marked as read",
  newsLoadMore: "Load more", newsNoMore: "No more articles", newsEmpty: "No articles in this channel yet",
  newsNoChannels: "No channels yet", newsNew: "{n} new articles", newsNoNew: "Nothing new",
  newsSave: "Save", newsUnsave: "Unsave", newsSaved: "Saved", newsSavedList: "Saved articles",
  newsNoSaved: "No saved articles yet", newsSavedToast: "Saved: readable offline too", newsUnsavedToast: "Removed from saved",
  newsHide: "Hide", newsHiddenToast: "Hidden", newsShare: "Share", newsLinkCopied: "Link copied",
  newsOriginal: "Read the original", newsHasVideo: "Has a video", newsSignIn: "Sign in to read the news",
};

extend({ zh, en });
