/// Every endpoint of the API, by group: what the server registers, the SDK calls, the OpenAPI document
/// describes and the web player's client is generated from.
public enum APIContract {
    public static let groups: [APIGroup] = [
        ServerAPI.group, CatalogAPI.group, AccountsAPI.group, SheetsAPI.group, CommentsAPI.group,
        FeedsAPI.group,
        FollowsAPI.group, NotificationsAPI.group, FilesAPI.group, AdsAPI.group, HomeAPI.group,
        SearchHistoryAPI.group,
        CategoriesAPI.group,
        AppVersionsAPI.group, TermsAPI.group,
        VideosAPI.group, RecommendationsAPI.group,
        AppPasswordsAPI.group, MessagesAPI.group, EventsAPI.group,
        ShopAPI.group,
        PodcastsAPI.group, AudiobooksAPI.group,
        NewsAPI.group,
    ]

    /// Every endpoint, in group order.
    public static var endpoints: [any DescribedEndpoint] { groups.flatMap(\.endpoints) }
}
