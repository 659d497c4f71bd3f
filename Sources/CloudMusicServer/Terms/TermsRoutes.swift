import MusicCore

/// The handlers of `TermsAPI`.
struct TermsRoutes {
    let terms: TermsService

    func register(on api: EndpointRouter) {
        api.on(TermsAPI.current) { call in try terms.current(viewer: call.caller) }
        api.on(TermsAPI.accept) { call in try terms.accept(call.body, viewer: call.caller) }
        api.on(TermsAPI.acceptances) { call in try terms.acceptances(viewer: call.caller) }
        api.on(TermsAPI.adminList) { call in try terms.list(kind: call.query.kind, paging: call.query.paging)
        }
        api.on(TermsAPI.publish) { call in try terms.publish(call.body, createdBy: call.caller.userID) }
    }
}
