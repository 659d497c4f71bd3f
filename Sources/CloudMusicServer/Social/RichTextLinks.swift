import MusicCore
import Storage

/// Turns the @mentions and #topics# found in a comment's or a moment's text into links: a mention to a
/// person who exists (by nickname, ignoring case and full-width forms), is not disabled and did not block
/// the author (else it stays plain text); a topic to its record, made on first use.
struct RichTextLinks: Sendable {
    let follows = FollowStore()
    let topics = TopicStore()

    func resolve(_ db: Connection, _ rich: ParsedRichText, authorID: Int64, now: Int64) throws -> (
        mentions: [Mention], topics: [TopicMention]
    ) {
        let mentions = try rich.resolvedMentions { nickname in
            try follows.mentionableUserID(
                db, nicknameKey: AccountRules.nicknameKey(nickname), authorID: authorID
            )
            .map(String.init)
        }
        let topics = try rich.resolvedTopics { title in
            String(try self.topics.topicID(db, title: title, key: AccountRules.nicknameKey(title), now: now))
        }
        return (mentions, topics)
    }
}
