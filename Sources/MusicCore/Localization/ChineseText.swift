/// Simplified Chinese for the server's sentences: each English template (`LocalizedText.template`) and its
/// translation. `%@` takes the arguments in order, `%N$@` the Nth (so a translation may reorder or leave one out).
/// `LocalizationTests` holds the table to the code: every template in Sources has an entry, every entry a user.
enum ChineseText {
    static let sentences: [String: String] = [
        "Give '%@'.":
            "请提供“%@”。",
        "Give '%@': %@":
            "请提供“%1$@”。",
        "That %@ does not exist.":
            "%@不存在。",
        "Send at most %@ items in '%@'.":
            "“%2$@”里最多放 %1$@ 项。",
        "Send at most %@ ids in '%@'.":
            "“%2$@”里最多放 %1$@ 个 id。",
        "'%@' in '%@' is not an id.":
            "“%2$@”里的“%1$@”不是 id。",
        "'%@' must be a decimal number from %@ to %@.":
            "“%@”必须是 %@ 到 %@ 之间的数字。",
        "'%@' must be true or false.":
            "“%@”必须是 true 或 false。",
        "'%@' must be a whole number from %@ to %@.":
            "“%@”必须是 %@ 到 %@ 之间的整数。",
        "'%@' can be at most %@ characters.":
            "“%@”最多 %@ 个字。",
        "'%@' must be one of: %@.":
            "“%@”只能是以下之一：%@。",
        "That sheet does not exist.":
            "这个歌单不存在。",
        "That song does not exist.":
            "这首歌不存在。",
        "Only the sheet's owner can change it.":
            "只有歌单的创建者可以修改它。",
        "Give the sheet a title.":
            "请给歌单起个标题。",
        "You can have at most %@ sheets. Delete one first.":
            "最多只能创建 %@ 个歌单，请先删除一个。",
        "A sheet's title cannot be empty.":
            "歌单标题不能为空。",
        "The \"I like\" sheet keeps its name.":
            "“我喜欢的音乐”不能改名。",
        "The \"I like\" sheet cannot be deleted; remove its songs instead.":
            "“我喜欢的音乐”不能删除，可以删除其中的歌曲。",
        "These songs are not in the library: %@.":
            "这些歌曲不在曲库中：%@。",
        "A sheet can hold at most %@ songs.":
            "一个歌单最多 %@ 首歌。",
        "'position' must be 0 or more.":
            "“position”不能小于 0。",
        "That song is not in this sheet.":
            "这首歌不在这个歌单里。",
        "You have no \"I like\" sheet.":
            "你还没有“我喜欢的音乐”歌单。",
        "Your own sheets are already yours; collect other people's.":
            "自己的歌单不用收藏，去收藏别人的吧。",
        "\"I like\" sheets cannot be collected.":
            "“我喜欢的音乐”不能被收藏。",
        "You have not collected that sheet.":
            "你没有收藏这个歌单。",
        "This sheet has no cover of its own; its icon is its first song's.":
            "这个歌单没有自己的封面，显示的是第一首歌的封面。",
        "A cover can be at most 10 MB. Choose a smaller picture.":
            "封面最大 10 MB，请换一张小一点的图片。",
        "A cover must be a JPEG, PNG or WebP picture.":
            "封面必须是 JPEG、PNG 或 WebP 图片。",
        "That playlist has no entries. Send the text of an .m3u or .m3u8 file.":
            "这个播放列表是空的，请上传 .m3u 或 .m3u8 文件的内容。",
        "A playlist can have at most %@ entries.":
            "一个播放列表最多 %@ 项。",
        "A play queue can hold at most %@ songs.":
            "播放列表最多 %@ 首歌。",
        "'currentIndex' must point into 'songIds' (0 to %@).":
            "“currentIndex”必须指向“songIds”中的一首（0 到 %@）。",
        "'position' is milliseconds into the song, from 0 to 86400000.":
            "“position”是歌曲内的毫秒数，从 0 到 86400000。",
        "The queue was changed on another device (version %@). Load it again before saving.":
            "播放列表已在另一台设备上修改（版本 %@），请重新加载后再保存。",
        "A sheet can have at most %@ tags.":
            "一个歌单最多 %@ 个标签。",
        "Name at least one song in 'songIds'.":
            "请在“songIds”里至少写一首歌。",
        "Send at most %@ songs at a time.":
            "一次最多 %@ 首歌。",
        "'Last-Event-ID' must be the id of an event this server sent.":
            "“Last-Event-ID”必须是本服务器发出的事件 id。",
        "You can only make app passwords for yourself.":
            "只能为自己创建应用密码。",
        "Name the app password after the device or app that will use it.":
            "请用要使用它的设备或应用给应用密码命名。",
        "You can have at most %@ app passwords. Revoke one you no longer use.":
            "最多 %@ 个应用密码，请撤销一个不再使用的。",
        "That app password does not exist.":
            "这个应用密码不存在。",
        "Only the account's owner (or an administrator) can see its app passwords.":
            "只有账号本人（或管理员）可以查看它的应用密码。",
        "Choose at least one picture: send them as multipart/form-data file parts.":
            "请至少选择一张图片（以 multipart/form-data 文件上传）。",
        "You can upload at most %@ files at once, and you sent %@. Send fewer.":
            "一次最多上传 %@ 个文件，你发送了 %@ 个，请减少一些。",
        "%@ is empty. Choose the picture again.":
            "%@是空的，请重新选择图片。",
        "%@ is larger than the %@ MB allowed for one file. Choose a smaller picture.":
            "%@超过了单个文件 %@ MB 的上限，请换一张小一点的图片。",
        "%@ is not a picture the server can read. Send JPEG, PNG, WebP or GIF pictures (the server looks at the file's content, not its name).":
            "%@不是服务器能读取的图片，请上传 JPEG、PNG、WebP 或 GIF 图片（服务器看的是文件内容，而不是文件名）。",
        "The file":
            "文件",
        "File %@":
            "第 %@ 个文件",
        "%@ (%@)":
            "%@（%@）",
        "The server could not store the upload. Please tell the administrator.":
            "服务器无法保存上传的文件，请告诉管理员。",
        "You can upload %@ files a minute. Try again in %@ second%@.":
            "每分钟最多上传 %1$@ 个文件，请 %2$@ 秒后再试。",
        "The server cannot process pictures now (ffmpeg is missing).":
            "服务器现在无法处理图片（缺少 ffmpeg）。",
        "The server is busy with other pictures. Try again in a moment.":
            "服务器正在处理其他图片，请稍后再试。",
        "%@ could not be read as a picture. It may be damaged or too large; try another one.":
            "%@无法作为图片读取，可能已损坏或太大，请换一张。",
        "That file does not exist.":
            "这个文件不存在。",
        "That video does not exist.":
            "这个视频不存在。",
        "This video's file is missing; a scan of the videos folders will remove it.":
            "这个视频的文件不见了，扫描视频文件夹后会将它移除。",
        "Converting is unavailable: ffmpeg is not installed on the server.":
            "无法转码：服务器没有安装 ffmpeg。",
        "The server is busy converting other songs and videos. Try again in a moment, or play the original.":
            "服务器正忙于转码其他歌曲和视频，请稍后再试，或播放原文件。",
        "You are already converting %@ songs or videos at once. Stop one, or play the original.":
            "你已经在同时转码 %@ 首歌曲或视频，请停止一个，或播放原文件。",
        "This video has no still.":
            "这个视频没有封面截图。",
        "This video's still cannot be made: its file is missing or unreadable.":
            "无法生成这个视频的封面截图：文件不见了或无法读取。",
        "The file is empty. Choose the video again.":
            "文件是空的，请重新选择视频。",
        "That file is not a video the server can play. Send an MP4, MKV, WebM or MOV video (the server looks at the file's content, not its name).":
            "这个文件不是服务器能播放的视频，请上传 MP4、MKV、WebM 或 MOV 视频（服务器看的是文件内容，而不是文件名）。",
        "Videos cannot be added: ffmpeg is not installed on the server.":
            "无法添加视频：服务器没有安装 ffmpeg。",
        "The upload could not be read back. Try again.":
            "无法读取上传的文件，请重试。",
        "The video could not be stored (is the disk full?). Try again.":
            "无法保存视频（磁盘满了吗？），请重试。",
        "This video is a file in a videos folder: remove the file there, and the next scan removes it.":
            "这个视频来自视频文件夹：请在那里删除文件，下次扫描时会将它移除。",
        "That version does not exist.":
            "这个版本不存在。",
        "Give 'platform': %@.":
            "请提供“platform”：%@。",
        "'build' must be a whole number from 0 to 2000000000.":
            "“build”必须是 0 到 2000000000 之间的整数。",
        "Version %@ of the %@ app is already published. Change it, or publish a higher version.":
            "%2$@ 应用的 %1$@ 版本已经发布，请修改它，或发布更高的版本。",
        "'%@' must be a version such as 1.2.3 (or 2.0.0-beta.1); '%@' is not one.":
            "“%@”必须是类似 1.2.3（或 2.0.0-beta.1）的版本号，“%@”不是。",
        "That conversation does not exist.":
            "这个会话不存在。",
        "That message does not exist.":
            "这条私信不存在。",
        "You cannot send a message to yourself.":
            "不能给自己发私信。",
        "This person does not take messages from you.":
            "对方不接收你的私信。",
        "You blocked this person. Unblock them to send a message.":
            "你已将对方拉黑，解除拉黑后才能发私信。",
        "This person only takes messages from people they follow.":
            "对方只接收其关注的人发来的私信。",
        "Only a text message has 'content'; send the text as its own message.":
            "只有文字私信有“content”，请把文字单独发送。",
        "Write something to send.":
            "请先写点什么再发送。",
        "A %@ message needs '%@'.":
            "%@ 类型的私信需要“%@”。",
        "A message shares one thing: send only the field its kind needs.":
            "一条私信只能分享一样东西，请只发送该类型需要的字段。",
        "A text message shares nothing: send the picture or song on its own.":
            "文字私信不能分享内容，请单独发送图片或歌曲。",
        "An image message needs 'fileId': upload the picture first (POST /v1/files/multi).":
            "图片私信需要“fileId”：请先上传图片（POST /v1/files/multi）。",
        "That picture is not one you uploaded. Upload it first.":
            "这张图片不是你上传的，请先上传。",
        "That sheet is private: make it public to share it.":
            "这个歌单是私密的，公开后才能分享。",
        "Ask for messages 'before' or 'after' one, not both.":
            "请只用“before”或“after”中的一个。",
        "Send the ad's picture or video as a multipart file part named 'file'.":
            "请把广告的图片或视频作为名为“file”的 multipart 文件上传。",
        "Send one file with an ad, not %@.":
            "一个广告只能上传一个文件，而不是 %@ 个。",
        "%@ is empty. Choose the file again.":
            "%@是空的，请重新选择文件。",
        "%@ is larger than the %@ MB allowed for an ad's picture.":
            "%@超过了广告图片 %@ MB 的上限。",
        "%@ is larger than the %@ MB allowed for an ad's video.":
            "%@超过了广告视频 %@ MB 的上限。",
        "%@ is neither a picture nor a video the server can read. Send a JPEG, PNG, WebP or GIF picture, or an MP4, MOV, WebM or MKV video (the server looks at the file's content, not its name).":
            "%@既不是服务器能读取的图片，也不是视频。请上传 JPEG、PNG、WebP 或 GIF 图片，或 MP4、MOV、WebM 或 MKV 视频（服务器看的是文件内容，而不是文件名）。",
        "%@ could not be read as a picture. It may be damaged; try another one.":
            "%@无法作为图片读取，可能已损坏，请换一张。",
        "The server cannot check videos now (ffprobe is missing).":
            "服务器现在无法检查视频（缺少 ffprobe）。",
        "%@ has no video in it. Send a video, or a picture.":
            "%@里没有视频画面，请上传视频或图片。",
        "%@ is %@x%@; an ad's video can be at most %@ pixels on a side.":
            "%@的尺寸是 %@x%@，广告视频每边最多 %@ 像素。",
        "%@ is %@ seconds long; an ad's video can be at most %@ seconds.":
            "%@长 %@ 秒，广告视频最长 %@ 秒。",
        "%@ could not be decoded as a video. It may be damaged.":
            "%@无法作为视频解码，可能已损坏。",
        "The server cannot process pictures and videos now (ffmpeg is missing).":
            "服务器现在无法处理图片和视频（缺少 ffmpeg）。",
        "That ad does not exist.":
            "这个广告不存在。",
        "That ad has no video: it shows a picture (its `icon`).":
            "这个广告没有视频，它显示的是图片（`icon`）。",
        "Give 'position'.":
            "请提供“position”。",
        "An app-link ad needs a 'link': the app link or address it opens.":
            "应用链接广告需要“link”：它要打开的应用链接或网址。",
        "Send at most 1000 ids in 'adIds'.":
            "“adIds”里最多放 1000 个 id。",
        "Ad %@ is listed twice in 'adIds'.":
            "广告 %@ 在“adIds”里出现了两次。",
        "Ad %@ is not one of position %@'s ads.":
            "广告 %@ 不属于位置 %@。",
        "%@ does not exist.":
            "%@不存在。",
        "'position' must be %@, not %@.":
            "“position”必须是 %@，而不是 %@。",
        "'style' must be %@, not %@.":
            "“style”必须是 %@，而不是 %@。",
        "A video ad (style 10) needs a video file; this one is a picture.":
            "视频广告（style 10）需要视频文件，这个是图片。",
        "The file is a video, so the ad's style must be 10 (video), not %@.":
            "文件是视频，所以广告的 style 必须是 10（视频），而不是 %@。",
        "Give the ad a title.":
            "请给广告起个标题。",
        "'%@' must be an address such as https://example.com/page or an app link such as cloudmusic://sheet/5.":
            "“%@”必须是类似 https://example.com/page 的网址，或类似 cloudmusic://sheet/5 的应用链接。",
        "'%@' must be a date and time such as 2025-05-01T08:00:00Z or 2025-05-01T16:00:00+08:00.":
            "“%@”必须是类似 2025-05-01T08:00:00Z 或 2025-05-01T16:00:00+08:00 的日期时间。",
        "The ad would end (%@) before it starts (%@). Choose an end after the start.":
            "广告的结束时间（%@）早于开始时间（%@），请选择晚于开始的结束时间。",
        "Send the file as a multipart/form-data file field named 'file'.":
            "请以 multipart/form-data 上传，文件字段名为“file”。",
        "Send the form as multipart/form-data: its fields as text parts, its file as a part named 'file'.":
            "请以 multipart/form-data 发送表单：字段作为文本部分，文件作为名为“file”的部分。",
        "Send the text as a file field or as the request body.":
            "请把文本作为文件字段或请求正文发送。",
        "The file can be at most %@ MB.":
            "文件最大 %@ MB。",
        "Send the text as the request body.":
            "请把文本作为请求正文发送。",
        "Give 'termsIds': the ids of the versions accepted, from GET /v1/terms.":
            "请提供“termsIds”：同意的条款版本 id（来自 GET /v1/terms）。",
        "Send at most 10 ids in 'termsIds'.":
            "“termsIds”里最多放 10 个 id。",
        "That version of the terms does not exist.":
            "这个版本的条款不存在。",
        "Version %@ of the %@ is no longer the current one. Read the current version (GET /v1/terms) and accept that.":
            "%2$@的第 %1$@ 版已不是当前版本，请阅读并同意当前版本（GET /v1/terms）。",
        "Give the document a title of at most 100 characters.":
            "请给文档起一个最多 100 个字的标题。",
        "Give the document's text.":
            "请提供文档正文。",
        "The terms could not be saved. Please tell the administrator.":
            "条款无法保存，请告诉管理员。",
        "That album does not exist.":
            "这张专辑不存在。",
        "That artist does not exist.":
            "这位歌手不存在。",
        "This song has no lyrics.":
            "这首歌没有歌词。",
        "'%@' is listed twice. List each module once.":
            "“%@”出现了两次，每个模块只能列一次。",
        "'size' must be a whole number from 1 to %@.":
            "“size”必须是 1 到 %@ 之间的整数。",
        "'%@' is not on the home screen now, so it cannot be placed. Shown now: %@.":
            "“%@”现在不在首页上，无法排列。现在显示的有：%@。",
        "'%@' is not a home module. The modules are: %@.":
            "“%@”不是首页模块。首页模块有：%@。",
        "Enter a phone number or an email address.":
            "请输入手机号或邮箱。",
        "Enter a phone number or an email address, not both.":
            "请只输入手机号或邮箱中的一个。",
        "That phone number does not look right: use 7 to 15 digits, optionally starting with + and the country code.":
            "手机号格式不对：请输入 7 到 15 位数字，可以 + 和国家代码开头。",
        "That email address does not look right: check it, like name@example.com.":
            "邮箱格式不对，请检查，例如 name@example.com。",
        "Choose a nickname (1 to 32 characters).":
            "请取一个昵称（1 到 32 个字）。",
        "%@ cannot contain text-direction control characters.":
            "%@不能包含文字方向控制字符。",
        "'gender' must be 0 (not said), 10 (male) or 20 (female).":
            "“gender”必须是 0（保密）、10（男）或 20（女）。",
        "'birthday' must be a date like 1995-08-21, not in the future.":
            "“birthday”必须是类似 1995-08-21 的日期，且不能晚于今天。",
        "The phone number or email, or the password, is wrong.":
            "手机号、邮箱或密码错误。",
        "That code is wrong or has expired. Check it or ask for a new one.":
            "验证码错误或已过期，请检查或重新获取。",
        "That code was entered wrongly too many times. Ask for a new one.":
            "验证码输错次数太多，请重新获取。",
        "Your session has ended. Please sign in again.":
            "登录已失效，请重新登录。",
        "Please sign in first.":
            "请先登录。",
        "That user does not exist.":
            "这个用户不存在。",
        "This account has been disabled. Contact the server's administrator.":
            "这个账号已被停用，请联系服务器管理员。",
        "Someone already uses that nickname. Choose another.":
            "这个昵称已被占用，请换一个。",
        "%@ Try again in %@.":
            "%@请 %@后再试。",
        "Ask for a sign-up code first (POST /v1/codes with purpose 'register'), then send it as 'code'.":
            "请先获取注册验证码（POST /v1/codes，purpose 为“register”），再作为“code”发送。",
        "Too many wrong codes.":
            "验证码错误次数太多。",
        "That %@ cannot be used to sign up. If it is yours, sign in or reset the password.":
            "这个%@不能用于注册。如果它是你的，请登录或重置密码。",
        "Too many failed sign-ins. Try again in %@.":
            "登录失败次数太多，请 %@后再试。",
        "Enter your password, or a code sent to you.":
            "请输入密码或收到的验证码。",
        "Sign in with a password or with a code, not both.":
            "请用密码或验证码中的一种登录。",
        "That chat token is not valid any more: sign in again, or get a new one with POST /v1/events/token.":
            "这个 chat token 已失效：请重新登录，或用 POST /v1/events/token 获取新的。",
        "That session does not exist.":
            "这个登录设备不存在。",
        "Too many codes were asked for from your network.":
            "你的网络请求验证码的次数太多。",
        "A code was just sent. You can ask for another in %@.":
            "验证码刚刚已发送，%@后可以再次获取。",
        "That is the most codes for one day. Try again in %@.":
            "今天获取验证码的次数已达上限，请 %@后再试。",
        "'purpose' must be login, reset or register.":
            "“purpose”必须是 login、reset 或 register。",
        "You can only change your own account.":
            "只能修改自己的账号。",
        "An avatar can be at most 10 MB. Choose a smaller picture.":
            "头像最大 10 MB，请换一张小一点的图片。",
        "An avatar must be a JPEG, PNG or WebP picture.":
            "头像必须是 JPEG、PNG 或 WebP 图片。",
        "This user has no avatar.":
            "这个用户没有头像。",
        "Too many wrong passwords.":
            "密码错误次数太多。",
        "Your current password is not right.":
            "当前密码不正确。",
        "Enter your password to delete your account.":
            "请输入密码以注销账号。",
        "You can only delete your own account.":
            "只能注销自己的账号。",
        "Sign in as an administrator to %@.":
            "请以管理员身份登录后再操作。",
        "Only an administrator can %@.":
            "只有管理员可以这样做。",
        "You cannot disable your own account.":
            "不能停用自己的账号。",
        "1 second":
            "1 秒",
        "%@ seconds":
            "%@ 秒",
        "%@ minutes":
            "%@ 分钟",
        "%@ hours":
            "%@ 小时",
        "Open the event stream with the chatToken from signing in (Authorization or ?token=).":
            "请用登录时得到的 chatToken 打开事件流（Authorization 或 ?token=）。",
        "That picture could not be read. Try another JPEG, PNG or WebP file.":
            "无法读取这张图片，请换一个 JPEG、PNG 或 WebP 文件。",
        "The server could not save the picture. Please tell the administrator.":
            "服务器无法保存图片，请告诉管理员。",
        "The server could not send the email now. Try again in a few minutes.":
            "服务器现在无法发送邮件，请几分钟后再试。",
        "That email address cannot be used.":
            "这个邮箱不能使用。",
        "Transcoding is unavailable: ffmpeg is not installed on the server.":
            "无法转码：服务器没有安装 ffmpeg。",
        "This song's file is missing from the music folder; a rescan will remove it.":
            "这首歌的文件已不在音乐文件夹中，重新扫描后会将它移除。",
        "That comment does not exist.":
            "这条评论不存在。",
        "Name what the comments are on: one of 'songId', 'sheetId', 'feedId', 'videoId' or 'episodeId'.":
            "请说明是哪里的评论：“songId”、“sheetId”、“feedId”、“videoId”或“episodeId”之一。",
        "Write something first: the comment is empty.":
            "评论是空的，请先写点什么。",
        "A reply goes on the same song, sheet, moment, video or episode as the comment it answers.":
            "回复必须和被回复的评论在同一首歌、歌单、动态、视频或节目下。",
        "You can only delete your own comments.":
            "只能删除自己的评论。",
        "That topic does not exist.":
            "这个话题不存在。",
        "Name what you like: one of 'commentId', 'feedId' or 'episodeId'.":
            "请说明要点赞什么：“commentId”“feedId”或“episodeId”之一。",
        "That like does not exist.":
            "这个赞不存在。",
        "You can only take back your own likes.":
            "只能取消自己的赞。",
        "That moment does not exist.":
            "这条动态不存在。",
        "The episode to share does not exist: it may have been removed with its podcast.":
            "要分享的节目不存在：它可能已随播客一起删除。",
        "A moment can have at most %@ pictures.":
            "一条动态最多 %@ 张图片。",
        "Picture %@ is not one uploaded to this server. Upload it with POST v1/files/multi and send the 'uri' it returns.":
            "图片 %@ 不是上传到本服务器的，请用 POST v1/files/multi 上传，并发送返回的“uri”。",
        "Write something or add a picture first: the moment is empty.":
            "动态是空的，请先写点什么或添加图片。",
        "'latitude' must be from -90 to 90 and 'longitude' from -180 to 180 (degrees).":
            "“latitude”必须在 -90 到 90 之间，“longitude”必须在 -180 到 180 之间（单位：度）。",
        "Send both 'latitude' and 'longitude', or neither.":
            "“latitude”和“longitude”要么都提供，要么都不提供。",
        "You can only delete your own moments.":
            "只能删除自己的动态。",
        "Numbered pages of moments reach the first %@; to go further, pass a page's 'nextCursor' as 'cursor'.":
            "按页码只能翻到前 %@ 条动态，要继续请把“nextCursor”作为“cursor”传入。",
        "Ask for one user's moments or one topic's, not both.":
            "请只查看一个用户或一个话题的动态。",
        "Say where: 'latitude' (-90 to 90) and 'longitude' (-180 to 180), in degrees.":
            "请提供位置：“latitude”（-90 到 90）和“longitude”（-180 到 180），单位为度。",
        "'radius' must be more than 0 and at most %@ metres.":
            "“radius”必须大于 0 且不超过 %@ 米。",
        "You cannot %@ yourself.":
            "不能%@自己。",
        "You cannot follow this person.":
            "你不能关注这个人。",
        "You blocked this person. Unblock them first.":
            "你已将对方拉黑，请先解除拉黑。",
        "You do not follow that person.":
            "你没有关注这个人。",
        "You have not blocked that person.":
            "你没有拉黑这个人。",
        "That notification does not exist.":
            "这条通知不存在。",
        "You are %@ very fast. Wait a minute.":
            "你%@太快了，请等一分钟。",
        "That is the most %@ for one day (%@).":
            "今天的%1$@已达上限（%2$@ 条）。",
        "That 'cursor' is not one this server gave out; start again without it.":
            "这个“cursor”不是本服务器给出的，请去掉它重新开始。",
        "A password can be at most %@ characters.":
            "密码最多 %@ 个字符。",
        "A password cannot contain tabs, line breaks or other control or invisible characters (such as zero-width spaces or text-direction marks). Use letters, digits, symbols and spaces.":
            "密码不能包含制表符、换行或其他控制字符、不可见字符（例如零宽空格或文字方向标记），请使用字母、数字、符号和空格。",
        "A password needs at least %@ characters, not counting spaces and other blank characters.":
            "密码至少需要 %@ 个字符（空格等空白字符不算）。",
        "That password is too easy to guess: it is a run of characters, like 12345678 or abcdefgh. Choose another.":
            "这个密码太容易猜到了：它是一串连续字符，例如 12345678 或 abcdefgh。请换一个。",
        "That password repeats too few different characters: use at least %@ different ones.":
            "这个密码中不同的字符太少，请至少使用 %@ 个不同的字符。",
        "That password is based on the name of this service. Choose another.":
            "这个密码来自本服务的名称，请换一个。",
        "That password is too common (it is in a list of common passwords and dictionary words, perhaps with a few letters changed). Choose another.":
            "这个密码太常见了（它在常用密码和字典词表中，也许只改了几个字母），请换一个。",
        "That search is not in your history.":
            "搜索历史里没有这条记录。",
        "Give 'query': the words that were searched.":
            "请提供“query”：搜索的内容。",
        "'query' can be at most %@ characters.":
            "“query”最多 %@ 个字。",
        "You are searching very fast. Wait a minute.":
            "你搜索得太快了，请等一分钟。",
        "'query' cannot contain control characters.":
            "“query”不能包含控制字符。",
        "0 (splash), 10 (home banner) or 20 (in a list)":
            "0（开屏）、10（首页横幅）或 20（列表中）",
        "0 (image), 10 (video) or 20 (app link)":
            "0（图片）、10（视频）或 20（应用链接）",
        "a version such as 1.2.3 (or 2.0.0-beta.1)":
            "类似 1.2.3（或 2.0.0-beta.1）的版本号",
        "the id of an event this server sent":
            "本服务器发出的某个事件的 id",
        "the `nextCursor` of the page before, as it was given":
            "上一页返回的 `nextCursor`（原样传回）",
        "'%@' is not a parameter here: send each parameter as plain text, like size=5.":
            "“%@”不是这里的参数：每个参数请用纯文本发送，例如 size=5。",
        "'%@' is empty: leave it out, or give %@.":
            "“%@”是空的：请去掉它，或填写%@。",
        "one":
            "一个值",
        "'%@' must be an id (digits, as the API gives them).":
            "“%@”必须是 id（接口返回的数字）。",
        "'%@' must be %@, not %@.":
            "“%@”必须是 %@，不能是 %@。",
        "'%@' must be %@.":
            "“%@”必须是%@。",
        "Only the account's owner (or an administrator) can see this setting.":
            "只有账号本人（或管理员）可以查看这项设置。",
        "Only the account's owner can choose who sees what they play.":
            "只有账号本人可以设置谁能看到自己正在听的歌。",
        "%@ can be at most %@ characters; this one has %@.":
            "%@最多 %@ 个字，现在有 %@ 个。",
        "%@ is too long: it can be at most %@ characters, and these are made of too many parts (accents or joined emoji). Shorten it.":
            "%@太长了：最多 %@ 个字，而这些字包含的组成部分太多（重音符号或组合表情），请删减一些。",
        "%@ has a character with too many accents or marks stacked on it. Remove them.":
            "%@中有字符叠加了太多重音或符号，请删掉它们。",
        "%@ cannot contain line breaks, tabs or other control characters.":
            "%@不能包含换行、制表符或其他控制字符。",
        "%@ cannot contain tabs or control characters other than line breaks.":
            "%@不能包含制表符，也不能包含换行以外的控制字符。",
        "%@ cannot contain invisible characters (such as zero-width spaces). Remove them.":
            "%@不能包含不可见字符（例如零宽空格），请删掉它们。",
        "That password is too common: read with its look-alike digits and symbols as letters, in plain letters and without what is added around it, it is a common password or a dictionary word. Choose another (a few unrelated words make a strong one).":
            "这个密码太常见了：把形似字母的数字和符号当作字母、去掉前后附加的字符后，它就是一个常用密码或字典单词。请换一个（几个不相关的词组合起来就很安全）。",
        "That password is one part (\"%@\") repeated, which is as easy to guess as the part. Choose another.":
            "这个密码是同一段（“%@”）的重复，和这一段本身一样容易被猜到。请换一个。",
        "There is nothing at this address.":
            "这个地址什么都没有。",
        "This address does not accept %@ requests.":
            "这个地址不接受 %@ 请求。",
        "This address does not accept GET requests.":
            "这个地址不接受 GET 请求。",
        "Something went wrong on the server. Please try again; if it keeps happening, tell the administrator (error id %@).":
            "服务器出了点问题，请重试；如果一直这样，请告诉管理员（错误编号 %@）。",
        "The server could not write its answer. Please tell the administrator.":
            "服务器无法生成回复，请告诉管理员。",
        "The address has a malformed %%-escape.":
            "地址中有格式错误的 %% 转义序列。",
        "The address may not contain \".\" or \"..\" segments.":
            "地址中不能包含“.”或“..”路径段。",
        "The address is missing its %@.":
            "地址中缺少 %@。",
        "The address contains a NUL byte; send it as %%00.":
            "地址中含有 NUL 字节，请写成 %%00。",
        "The address has %@ query parameters; at most %@ are allowed.":
            "地址中有 %@ 个查询参数，最多只能有 %@ 个。",
        "The address is longer than the %@ allowed.":
            "地址太长了，超过了 %@ 的上限。",
        "The query string has a malformed %%-escape.":
            "查询参数中有格式错误的 %% 转义序列。",
        "The request's headers are larger than the %@ allowed.":
            "请求头太大了，超过了 %@ 的上限。",
        "The request has a malformed header name.":
            "请求中有格式错误的请求头名称。",
        "The Content-Length header is not a number.":
            "Content-Length 请求头不是数字。",
        "The request body is larger than the %@ allowed.":
            "请求内容太大了，超过了 %@ 的上限。",
        "The upload is larger than the %@ allowed.":
            "上传的文件太大了，超过了 %@ 的上限。",
        "The form has a malformed %%-escape.":
            "表单中有格式错误的 %% 转义序列。",
        "The multipart body has no boundary in its Content-Type.":
            "multipart 内容的 Content-Type 中缺少 boundary。",
        "The multipart body could not be read.":
            "无法读取上传的表单内容。",
        "The multipart body ended before its closing boundary.":
            "上传的内容不完整（缺少结束分隔符），请重新上传。",
        "The request needs a JSON body.":
            "请求需要 JSON 格式的内容。",
        "Send the body as JSON (Content-Type: application/json).":
            "请以 JSON 格式发送内容（Content-Type: application/json）。",
        "The request body is empty.":
            "请求内容是空的。",
        "The request body is not valid JSON.":
            "请求内容不是有效的 JSON。",
        "The request body could not be read.":
            "无法读取请求内容。",
        "The request body should be %@.":
            "请求内容应该是%@。",
        "The field '%@' is missing.":
            "缺少字段“%@”。",
        "The field '%@' should be %@.":
            "字段“%@”应该是%@。",
        "The field '%@' should be %@, not null.":
            "字段“%@”应该是%@，不能是 null。",
        "The field '%@' must be one of: %@.":
            "字段“%@”只能是以下之一：%@。",
        "The field '%@' %@":
            "字段“%@”的值不符合要求：%@",
        "The field '%@' has a value that is not allowed.":
            "字段“%@”的值不符合要求。",
        "a string":
            "文本",
        "true or false":
            "true 或 false",
        "a whole number":
            "整数",
        "a number":
            "数字",
        "a date":
            "日期",
        "a list":
            "列表",
        "an object":
            "对象",
        "The requested range is outside the file.":
            "请求的范围超出了文件大小。",
        "The server has no room for another stream right now; try again later.":
            "服务器暂时无法再建立推送连接，请稍后再试。",
        "The server has as many open streams as it allows; try again later.":
            "服务器的推送连接数已达上限，请稍后再试。",
        "This address has %@ streams open, as many as one address may; close one first.":
            "你的网络已打开 %@ 个推送连接，达到了单个地址的上限，请先关闭一个。",
        "Only an unpaid order can be cancelled; this one is %@.":
            "只有未付款的订单可以取消；这个订单的状态是 %@。",
        "This server does not take %@; choose one of: %@.":
            "本服务器不支持 %1$@；请从以下方式中选择：%2$@。",
        "Only an unpaid order can be paid; this one is %@.":
            "只有未付款的订单可以支付；这个订单的状态是 %@。",
        "The payment cannot start: %@":
            "无法发起支付：%@",
        "Paying with %@ needs a call to its server, which this server does not make yet; choose another way to pay.":
            "使用 %@ 支付需要调用其服务器，本服务器暂不支持；请选择其他支付方式。",
        "That order does not exist.":
            "这个订单不存在。",
        "This server does not take payments through %@.":
            "本服务器不通过 %@ 收款。",
        "This sandbox payment link is not valid.":
            "这个沙箱支付链接无效。",
        "The sandbox cannot sign this payment: %@":
            "沙箱无法为这笔支付签名：%@",
        "Only a paid order can be refunded; this one is %@.":
            "只有已付款的订单可以退款；这个订单的状态是 %@。",
        "The provider this order was paid through is not set up on this server.":
            "这个订单所用的支付渠道没有在本服务器上配置。",
        "The refund cannot be asked for: %@":
            "无法申请退款：%@",
        "Refunds through %@ need a call to its server, which this server does not make yet.":
            "通过 %@ 退款需要调用其服务器，本服务器暂不支持。",
        "The provider did not refund the order: %@.":
            "支付渠道没有退款：%@。",
        "The order changed meanwhile; look at it again.":
            "订单刚刚有变化，请重新查看。",
        "Only a shipped order can be confirmed as received; this one is %@.":
            "只有已发货的订单可以确认收货；这个订单的状态是 %@。",
        "Only a paid order can be shipped; this one is %@.":
            "只有已付款的订单可以发货；这个订单的状态是 %@。",
        "Give the carrier, such as 顺丰速运.":
            "请填写快递公司，例如顺丰速运。",
        "Give the tracking number.":
            "请填写快递单号。",
        "Too many refused payment notices came from this address; try again in %@ seconds.":
            "这个地址发来的支付通知被拒绝的次数太多；请 %@ 秒后再试。",
        "Your cart is empty; put something in it, or order one SKU.":
            "购物车是空的；请先加入商品，或直接购买单个规格。",
        "%@ is no longer on sale; take it out of your cart first.":
            "“%@”已下架；请先把它移出购物车。",
        "One order takes one currency; order these separately.":
            "一个订单只能使用一种货币；请分开下单。",
        "Not enough of %@ is left for %@; lower the quantity.":
            "“%1$@”库存不足 %2$@ 件；请减少数量。",
        "One order can be at most 100000000.00; order less at a time.":
            "一个订单最多 100000000.00；请分开下单。",
        "A payment notification is a form or JSON, not multipart.":
            "支付通知应为表单或 JSON，而不是 multipart。",
        "Your cart holds at most 100 items; order or remove some first.":
            "购物车最多放 100 件商品；请先下单或移除一些。",
        "That product does not exist.":
            "这个商品不存在。",
        "That SKU does not exist.":
            "这个规格不存在。",
        "Give the product a title.":
            "请给商品起个标题。",
        "That item is not in your cart.":
            "购物车里没有这件商品。",
        "'quantity' must be a whole number from 1 to 99.":
            "“quantity”必须是 1 到 99 之间的整数。",
        "A product has at most 9 pictures.":
            "一个商品最多 9 张图片。",
        "A picture must be a path on this server (an uploaded file's uri) or an https address.":
            "图片必须是本服务器上的路径（上传文件的 uri）或 https 地址。",
        "'priceCents' must be a whole number of cents from 1 to 10000000000.":
            "“priceCents”必须是 1 到 10000000000 之间的整数（单位：分）。",
        "'stock' must be a whole number from 0 to 1000000.":
            "“stock”必须是 0 到 1000000 之间的整数。",
        "'currency' must be a 3-letter ISO 4217 code such as CNY.":
            "“currency”必须是 3 个字母的 ISO 4217 代码，例如 CNY。",
        "A SKU has at most 8 options, each a name of 1 to 20 characters and a value of 1 to 40.":
            "一个规格最多 8 个选项，每个名称 1 到 20 个字，取值 1 到 40 个字。",
        "That podcast does not exist.":
            "这个播客不存在。",
        "That episode does not exist.":
            "这一集不存在。",
        "That 'cursor' is not one this server gave out for an album page; start again without it.":
            "这个“cursor”不是本服务器为专辑页给出的，请去掉它重新开始。",
        "That 'cursor' belongs to another podcast's episodes; start this one without it.":
            "这个“cursor”属于另一个播客的节目，请去掉它，从这个播客的第一页开始。",
        "That 'cursor' was given for the %@-first order; ask in that order, or start again without it.":
            "这个“cursor”是按 %@-first 顺序给出的；请按该顺序请求，或去掉它重新开始。",
        "That deleted audiobook does not exist.":
            "没有这本已删除的有声书。",
        "the `nextCursor` of a page of this album, as it was given":
            "本专辑某一页返回的 `nextCursor`（原样传回）",
        "'position' must be a number of seconds from 0 to 864000.":
            "“position”必须是 0 到 864000 之间的秒数。",
        "'updatedAt' must be a date and time such as 2026-12-05T13:30:00.250Z.":
            "“updatedAt”必须是日期时间，例如 2026-12-05T13:30:00.250Z。",
        "That podcast is already here.":
            "这个播客已经添加过了。",
        "The OPML file cannot be read: %@":
            "无法读取这个 OPML 文件：%@",
        "'retention' must be a whole number from 1 to 1000.":
            "“retention”必须是 1 到 1000 之间的整数。",
        "Give the feed's address as an http or https address.":
            "请填写以 http 或 https 开头的订阅源地址。",
        "The feed cannot be used: %@":
            "无法使用这个订阅源：%@",
        "The range asked for lies outside the episode's audio.":
            "请求的范围超出了这一集音频的长度。",
        "The episode's audio cannot be fetched: %@":
            "无法获取这一集的音频：%@",
        "The episode's audio cannot be fetched: its server answered %@.":
            "无法获取这一集的音频：它的服务器返回了 %@。",
        "The episode's chapters cannot be fetched: %@":
            "无法获取这一集的章节：%@",
        "The episode's chapters cannot be read: %@":
            "无法读取这一集的章节：%@",
        "The episode's transcript cannot be fetched: %@":
            "无法获取这一集的文字稿：%@",
        "The podcast's picture cannot be fetched: %@":
            "无法获取这个播客的封面：%@",
        "The podcast's picture is not a JPEG, PNG, WebP or GIF image.":
            "这个播客的封面不是 JPEG、PNG、WebP 或 GIF 图片。",
        "That podcast has no picture.":
            "这个播客没有封面。",
        "That channel does not exist.":
            "这个频道不存在。",
        "That source does not exist.":
            "这个订阅源不存在。",
        "That article does not exist.":
            "这篇文章不存在。",
        "You have %@ channels, the most one may have.":
            "你已有 %@ 个频道，已达上限。",
        "Only administrators change the shared channels.":
            "只有管理员可以修改公共频道。",
        "You have %@ sources, the most one may have.":
            "你已有 %@ 个订阅源，已达上限。",
        "That source is already in this channel.":
            "这个订阅源已经在这个频道里了。",
        "Only administrators change the shared sources.":
            "只有管理员可以修改公共订阅源。",
        "Numbered pages reach the first %@ articles; go on with 'cursor'.":
            "按页码只能翻到前 %@ 篇文章，请用“cursor”继续。",
        "That article is not in this channel.":
            "这篇文章不在这个频道里。",
        "'cursor' and 'since' must be cursors this server gave, such as 1767225600:42.":
            "“cursor”和“since”必须是服务器给出的游标，例如 1767225600:42。",
        "That picture does not exist.":
            "这张图片不存在。",
        "The picture cannot be fetched: its server answered %@.":
            "无法获取这张图片：它的服务器返回了 %@。",
        "The picture cannot be fetched: %@":
            "无法获取这张图片：%@",
        "The picture is not a PNG, JPEG, GIF or WebP image.":
            "这张图片不是 PNG、JPEG、GIF 或 WebP 格式。",
        "A channel's title must be 1 to 40 characters.":
            "频道名称须为 1 到 40 个字。",
        "'position' must be a whole number from 0 to 10000.":
            "“position”必须是 0 到 10000 之间的整数。",
        "the token an article gave":
            "文章给出的令牌",
        "That audiobook does not exist.":
            "这本有声书不存在。",
        "That audiobook has no cover.":
            "这本有声书没有封面。",
        "An audiobook has no feed to refresh or settings to change: its parts are files the scan reads.":
            "有声书没有可刷新的订阅源，也没有可修改的设置：它的各部分是扫描读取的文件。",
        "The server has no audiobooks folder (start it with --audiobooks DIR).":
            "服务器没有有声书文件夹（启动时加上 --audiobooks DIR）。",
        "The audiobooks folder cannot be read.":
            "无法读取有声书文件夹。",
        // gPodder sync (issue 30)
        "Wrong username or password. Sign in with your email or phone and password, or with an app password made in CloudMusic's settings.":
            "用户名或密码错误。请用邮箱或手机号和密码登录，或使用在 CloudMusic 设置里创建的应用密码。",
        "Sign in first: send your username and password (HTTP Basic), or the sessionid cookie from login.json.":
            "请先登录：发送用户名和密码（HTTP Basic），或 login.json 返回的 sessionid cookie。",
        "This address names another person: use the username you signed in with.":
            "这个地址里是别人的用户名：请使用你登录时的用户名。",
        "A device's caption can be at most 200 characters.":
            "设备名称最多 200 个字。",
        "A device's type must be desktop, laptop, mobile, server or other.":
            "设备类型只能是 desktop、laptop、mobile、server 或 other。",
        "You have 100 devices already: remove one in your app first.":
            "你已经有 100 台设备了：请先在应用里删除一台。",
        "A device id is 1 to 64 letters, digits, '-', '_' or '.'.":
            "设备 id 由 1 到 64 个字母、数字、“-”、“_”或“.”组成。",
        "Send at most 2000 subscription changes at once.":
            "一次最多发送 2000 条订阅变更。",
        "A podcast's address can be at most 2000 characters.":
            "播客地址最多 2000 个字符。",
        "An address cannot be both added and removed in one change.":
            "同一个地址不能在一次变更里既添加又删除。",
        "Send at most 1000 episode actions at once.":
            "一次最多发送 1000 条单集操作。",
        "An episode action must be play, download, delete or new.":
            "单集操作只能是 play、download、delete 或 new。",
        "An episode action needs its podcast's and episode's addresses.":
            "单集操作需要播客和这一集的地址。",
        "An episode action's timestamp must be a UTC time such as 2026-12-05T13:30:00.":
            "单集操作的 timestamp 必须是 UTC 时间，例如 2026-12-05T13:30:00。",
        "'started', 'position' and 'total' must be seconds from 0 to 864000.":
            "“started”“position”和“total”必须是 0 到 864000 之间的秒数。",
        "A play action needs its 'position'.":
            "play 操作需要“position”。",
        "'aggregated' must be true or false.":
            "“aggregated”必须是 true 或 false。",
        "The request body is too large for this address.":
            "请求内容对这个地址来说太大了。",
        "This server offers the gPodder API in JSON only (addresses ending in .json).":
            "本服务器的 gPodder API 只提供 JSON 格式（以 .json 结尾的地址）。",
        "'since' must be a timestamp this server gave (whole seconds).":
            "“since”必须是本服务器给出的时间戳（整秒）。",
    ]

    /// Nouns that sentences take as `word:` arguments (the kind of thing an id names, a field's label).
    static let words: [String: String] = [
        "thing": "东西",
        "search": "搜索记录",
        "user": "用户",
        "sheet": "歌单",
        "song": "歌曲",
        "video": "视频",
        "podcast": "播客",
        "episode": "节目",
        "audiobook": "有声书",
        "deleted audiobook": "已删除的有声书",
        "comment": "评论",
        "ad": "广告",
        "conversation": "会话",
        "version": "版本",
        "moment": "动态",
        "album": "专辑",
        "app password": "应用密码",
        "topic": "话题",
        "session": "登录设备",
        "notification": "通知",
        "message": "私信",
        "like": "赞",
        "file": "文件",
        "artist": "歌手",
        "phone number": "手机号",
        "email address": "邮箱",
        "privacy policy": "隐私政策",
        "user agreement": "用户协议",
        "follow": "关注",
        "block": "拉黑",
        "commenting": "评论",
        "posting": "发动态",
        "sending messages": "发私信",
        "comments": "评论数",
        "moments": "动态数",
        "messages": "私信数",
        "A comment": "评论",
        "A moment": "动态",
        "A nickname": "昵称",
        "A tag": "标签",
        "The artist": "歌手名",
        "The city": "城市",
        "The description": "简介",
        "The device name": "设备名称",
        "The name": "名称",
        "The place": "地点",
        "The province": "省份",
        "The reason": "原因",
        "The carrier": "快递公司",
        "The tracking number": "快递单号",
        "The title": "标题",
        "A bookmark's comment": "书签备注",
        "A message": "私信",
        "A module's title": "模块标题",
        "An ad's title": "广告标题",
        "The area": "区县",
        "The notes": "更新说明",
        "The station's name": "电台名称",
        "The text": "正文",
    ]
}
