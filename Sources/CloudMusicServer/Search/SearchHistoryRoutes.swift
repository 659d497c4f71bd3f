import MusicCore

/// The handlers of `SearchHistoryAPI`.
struct SearchHistoryRoutes {
    let searches: SearchHistoryService

    func register(on api: EndpointRouter) {
        api.on(SearchHistoryAPI.hot, caching: .revalidate, prepared: { _ in try searches.hot() })
        api.on(SearchHistoryAPI.history) { call in try searches.history(viewer: call.caller) }
        api.on(SearchHistoryAPI.record) { call in try searches.record(call.body, viewer: call.caller) }
        api.on(SearchHistoryAPI.delete) { call in
            try searches.delete(id: call.path.id.rawValue, viewer: call.caller)
            return Done()
        }
        api.on(SearchHistoryAPI.clear) { call in
            try searches.clear(viewer: call.caller)
            return Done()
        }
    }
}
