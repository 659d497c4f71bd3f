// The words of messages (issue 19): the conversation list, the chat, the profile's button and the setting;
// loaded with those screens.
import { extend } from "./i18n.js";

const zh = {
  messages: "私信", sendMessage: "发私信", noConversations: "还没有私信", noConversationsHint: "在别人的主页点“发私信”，开始聊天",
  pickConversation: "选择一个会话开始聊天", previewPicture: "[图片]", previewSong: "[歌曲] {title}", previewSheet: "[歌单] {title}",
  previewVideo: "[视频] {title}", previewGone: "[已失效]", messagePlaceholder: "说点什么…", shareSong: "分享正在播放的歌曲",
  sendPicture: "发送图片", nothingPlaying: "现在没有在播放歌曲", copy: "复制", copied: "已复制", deleteConversation: "删除会话",
  confirmDeleteConversation: "删除后，这些消息只对你不再显示。删除会话？", songGone: "这首歌已不在曲库中", sheetGone: "歌单已删除或设为私密",
  videoGone: "视频已不在曲库中", sharedSheet: "歌单 · {n}首", sharedVideo: "视频", loadingOlder: "加载更早的消息…",
  chatStart: "你们还没有聊过，打个招呼吧", whoCanMessage: "谁可以给我发私信", allowEveryone: "所有人", allowFollowing: "我关注的人",
  yesterday: "昨天", unreadCount: "{n}条未读", messageActions: "消息操作", tapToPlay: "播放", sending: "发送中…",
  connecting: "正在连接…",
};
const en = {
  messages: "Messages", sendMessage: "Message", noConversations: "No messages yet", noConversationsHint: "Tap “Message” on someone's page to start a chat",
  pickConversation: "Pick a conversation", previewPicture: "[Picture]", previewSong: "[Song] {title}", previewSheet: "[Playlist] {title}",
  previewVideo: "[Video] {title}", previewGone: "[No longer available]", messagePlaceholder: "Say something…", shareSong: "Share the song playing",
  sendPicture: "Send a picture", nothingPlaying: "Nothing is playing", copy: "Copy", copied: "Copied", deleteConversation: "Delete conversation",
  confirmDeleteConversation: "These messages will be gone for you only. Delete the conversation?", songGone: "This song is no longer in the library",
  sheetGone: "This playlist was deleted or made private", videoGone: "This video is no longer in the library", sharedSheet: "Playlist · {n} songs",
  sharedVideo: "Video", loadingOlder: "Loading earlier messages…", chatStart: "You have not talked yet: say hello",
  whoCanMessage: "Who can message me", allowEveryone: "Everyone", allowFollowing: "People I follow", yesterday: "Yesterday",
  unreadCount: "{n} unread", messageActions: "Message actions", tapToPlay: "Play", sending: "Sending…", connecting: "Connecting…",
};

extend({ zh, en });
