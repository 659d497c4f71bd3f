import Foundation
import ServerTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Hot searches and search history end to end, and refusals written in the reader's language.
@Suite struct SearchHistoryAPITests {
    @Test func aPersonsHistoryIsKeptNewestFirstAndCanBeDeletedAndCleared() async throws {
        let world = try await DiscoveryWorld.start()
        defer { _ = world.server.stop() }
        let server = world.server
        for query in ["Blue", "  loud   one ", "Ｂｌｕｅ"] {
            let reply = try await server.call(
                "POST", "/v1/searches/history", json: ["query": query], token: world.bob)
            #expect(reply.status == 201, "\(reply.json)")
        }
        // The same words however typed (full-width, case, spaces) are one entry, moved to the top.
        var history = try await server.call("GET", "/v1/searches/history", token: world.bob).list
        #expect(history.map { $0["query"] as? String } == ["Ｂｌｕｅ", "loud one"])
        #expect(try await server.call("GET", "/v1/searches/history", token: world.cy).list.isEmpty)
        // Nobody deletes another person's entries.
        let id = history[1]["id"] as! String
        #expect(try await server.call("DELETE", "/v1/searches/history/\(id)", token: world.cy).status == 404)
        #expect(try await server.call("DELETE", "/v1/searches/history/\(id)", token: world.bob).status == 200)
        history = try await server.call("GET", "/v1/searches/history", token: world.bob).list
        #expect(history.map { $0["query"] as? String } == ["Ｂｌｕｅ"])
        #expect(try await server.call("DELETE", "/v1/searches/history", token: world.bob).status == 200)
        #expect(try await server.call("GET", "/v1/searches/history", token: world.bob).list.isEmpty)
        // Signed out: no history; bad words are refused with a sentence.
        #expect(try await server.call("GET", "/v1/searches/history").status == 401)
        let long = try await server.call(
            "POST", "/v1/searches/history", json: ["query": String(repeating: "a", count: 101)],
            token: world.bob)
        #expect(long.status == 400 && long.message == "'query' can be at most 100 characters.")
        let empty = try await server.call(
            "POST", "/v1/searches/history", json: ["query": "  "], token: world.bob)
        #expect(empty.status == 400)
        // At most 30 different words a minute; the same words again are not new ones.
        for n in 0..<30 {
            let kept = try await server.call(
                "POST", "/v1/searches/history", json: ["query": "q\(n)"], token: world.cy)
            #expect(kept.status == 201)
        }
        let fast = try await server.call(
            "POST", "/v1/searches/history", json: ["query": "one more"], token: world.cy)
        #expect(fast.status == 429 && fast.retryAfter == 60)
        #expect(try await server.call("GET", "/v1/searches/history", token: world.cy).list.count == 30)
    }

    @Test func hotSearchesCountPeopleOnceADayAndAddTheWeeksPlays() async throws {
        let world = try await DiscoveryWorld.start()
        defer { _ = world.server.stop() }
        let server = world.server
        // Bob searches "Sweet" three times (one person, once a day); Cy and Ann search "Blue"; two play Louder.
        for _ in 0..<3 {
            try await server.call("POST", "/v1/searches/history", json: ["query": "Sweet"], token: world.bob)
        }
        for token in [world.cy, world.ann] {
            try await server.call("POST", "/v1/searches/history", json: ["query": "blue"], token: token)
        }
        try await world.play("Louder", token: world.bob)
        try await world.play("Louder", token: world.cy)
        let hot = try await server.call("GET", "/v1/searches/hot")
        #expect(hot.status == 200)
        let scores = Dictionary(
            uniqueKeysWithValues: hot.list.map { ($0["query"] as! String, $0["score"] as! Int) })
        #expect(scores == ["blue": 6, "Sweet": 3, "Louder": 2], "\(hot.list)")
        #expect(hot.list.first?["query"] as? String == "blue")
        let etag = try #require(hot.response.value(forHTTPHeaderField: "ETag"))
        #expect(try await server.request("/v1/searches/hot", headers: ["If-None-Match": etag]).0 == 304)
    }

    @Test func refusalsAreWrittenInTheLanguageAcceptLanguagePicks() async throws {
        let world = try await DiscoveryWorld.start()
        defer { _ = world.server.stop() }
        let server = world.server
        let wrong: [String: Any] = ["email": "bob@example.com", "password": "not the password"]
        let chinese = try await server.call(
            "POST", "/v1/sessions", json: wrong, headers: ["Accept-Language": "zh-CN,zh;q=0.9,en;q=0.8"])
        let english = try await server.call("POST", "/v1/sessions", json: wrong)
        #expect(chinese.status == 401 && english.status == 401)
        #expect(chinese.json["status"] as? Int == english.json["status"] as? Int)
        #expect(chinese.message == "手机号、邮箱或密码错误。")
        #expect(english.message == "The phone number or email, or the password, is wrong.")
        #expect(chinese.response.value(forHTTPHeaderField: "Content-Language") == "zh-CN")
        // The router's own refusals (a bad query, an id that is not one) and the authentication's too.
        let size = try await server.call("GET", "/v1/songs?size=500", headers: ["Accept-Language": "zh-TW"])
        #expect(size.status == 400 && size.message == "“size”必须是 1 到 100 之间的整数。")
        let missing = try await server.call("GET", "/v1/sheets/abc", headers: ["Accept-Language": "zh"])
        #expect(missing.status == 404 && missing.message == "歌单不存在。")
        let signedOut = try await server.call("GET", "/v1/queue", headers: ["Accept-Language": "zh-Hans-CN"])
        #expect(signedOut.status == 401 && signedOut.message == "请先登录。")
        let french = try await server.call(
            "GET", "/v1/queue", headers: ["Accept-Language": "fr-FR, de;q=0.8"])
        #expect(french.message == "Please sign in first.")
        // A taken nickname and a weak password, as the issue saw them in English.
        let taken = try await server.call(
            "POST", "/v1/users",
            json: ["email": "new@example.com", "password": "correct horse 42", "nickname": "Bob"],
            headers: ["Accept-Language": "zh-CN"])
        #expect(taken.status == 409 && taken.message == "这个昵称已被占用，请换一个。")
        let weak = try await server.call(
            "POST", "/v1/users",
            json: ["email": "new@example.com", "password": "12345678", "nickname": "New"],
            headers: ["Accept-Language": "zh-CN"])
        #expect(weak.status == 400 && weak.message.contains("密码"), "\(weak.json)")
    }

    @Test func theHTTPLayersOwnRefusalsAreWrittenInTheReadersLanguageToo() async throws {
        // A small body limit: a body over it is still sent whole before the 413 is read (a megabyte could be
        // reset mid-send).
        let server = try await TestServer.start(.empty, extraArguments: ["--max-body", "1K"])
        defer { _ = server.stop() }
        let zh = ["Accept-Language": "zh-CN"]
        let nothing = try await server.call("GET", "/v1/no-such-thing", headers: zh)
        #expect(nothing.status == 404 && nothing.message == "这个地址什么都没有。", "\(nothing.json)")
        #expect(nothing.response.value(forHTTPHeaderField: "Content-Language") == "zh-CN")
        #expect(
            try await server.call("GET", "/v1/no-such-thing").message == "There is nothing at this address.")
        let verb = try await server.call("PUT", "/v1/songs", headers: zh)
        #expect(verb.status == 405 && verb.message == "这个地址不接受 PUT 请求。", "\(verb.json)")
        // A JSON body's field of the wrong type: the field's name as sent, the type in Chinese.
        let typed = try await server.call(
            "POST", "/v1/sessions", json: ["email": 5, "password": "x"], headers: zh)
        #expect(typed.status == 400 && typed.message == "字段“email”应该是文本。", "\(typed.json)")
        let broken = try await server.call(
            "POST", "/v1/sessions", body: Data("{".utf8), headers: ["Accept-Language": "zh"])
        #expect(broken.status == 400 && broken.message == "请求内容不是有效的 JSON。", "\(broken.json)")
        // The edge's limits: too many parameters (414) and too large a body (413), with their numbers.
        let many = try await server.call(
            "GET", "/v1/songs?" + Array(repeating: "a=1", count: 1_001).joined(separator: "&"), headers: zh)
        #expect(many.status == 414 && many.message == "地址中有 1001 个查询参数，最多只能有 1000 个。", "\(many.json)")
        let large = try await server.call(
            "POST", "/v1/sessions", body: Data(repeating: 0x20, count: 2_000), headers: zh)
        #expect(large.status == 413 && large.message == "请求内容太大了，超过了 1 KB 的上限。", "\(large.json)")
    }
}
