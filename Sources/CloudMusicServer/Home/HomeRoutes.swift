import MusicCore

/// The handlers of `HomeAPI`.
struct HomeRoutes {
    let home: HomeService

    func register(on api: EndpointRouter) {
        api.on(HomeAPI.home, caching: .perViewer, prepared: { call in try home.home(viewer: call.caller) })
        api.on(HomeAPI.layout) { call in try home.layout(viewer: call.caller) }
        api.on(HomeAPI.saveLayout) { call in try home.saveLayout(call.body, viewer: call.caller) }
        api.on(HomeAPI.resetLayout) { call in try home.resetLayout(viewer: call.caller) }
        api.on(HomeAPI.settings) { _ in try home.adminSettings() }
        api.on(HomeAPI.saveSettings) { call in try home.saveSettings(call.body) }
    }
}
