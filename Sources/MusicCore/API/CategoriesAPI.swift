/// Categories: the library's genres with a picture and their song, album and sheet counts.
public enum CategoriesAPI {
    public static let list = Endpoint<NoPath, CategoryListQuery, NoBody, Page<Category>, OptionalSignIn>(
        "list", .GET, "/v1/categories",
        "Genres with a picture and their song, album and sheet counts, those with most songs first")

    public static let group = APIGroup(
        "categories", "Genres as categories: a picture and what each holds", [list])
}

public struct CategoryListQuery: APIParameters, Equatable {
    public var paging = Paging(size: 50)
    public init() {}
    public init(page: Int, size: Int = 50) { paging = Paging(page: page, size: size) }
    public static let fields: [ParameterField<Self>] = Paging.fields(\.paging, maxSize: 500)
}
