import MusicCore

/// The handlers of `CategoriesAPI`.
struct CategoryRoutes {
    let categories: CategoryService

    func register(on api: EndpointRouter) {
        api.on(CategoriesAPI.list) { call in try categories.list(paging: call.query.paging) }
    }
}
