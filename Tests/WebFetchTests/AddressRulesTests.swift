import Foundation
import Testing

@testable import WebFetch

@Suite struct AddressRulesTests {
    @Test(arguments: [
        ("127.0.0.1", AddressRules.Restriction.loopback),
        ("127.9.9.9", .loopback),
        ("10.0.0.5", .privateNetwork),
        ("172.16.3.4", .privateNetwork),
        ("172.31.255.255", .privateNetwork),
        ("192.168.1.1", .privateNetwork),
        ("169.254.169.254", .metadata),
        ("169.254.170.2", .metadata),
        ("100.100.100.200", .metadata),
        ("169.254.1.1", .linkLocal),
        ("100.64.0.1", .sharedAddressSpace),
        ("0.0.0.0", .unspecified),
        ("224.0.0.1", .multicast),
        ("255.255.255.255", .reserved),
        ("198.18.0.1", .reserved),
        ("::1", .loopback),
        ("::", .unspecified),
        ("fe80::1", .linkLocal),
        ("fc00::1", .privateNetwork),
        ("fd12:3456::1", .privateNetwork),
        ("ff02::1", .multicast),
        ("fd00:ec2::254", .metadata),
        ("::ffff:127.0.0.1", .loopback),
        ("::ffff:10.0.0.5", .privateNetwork),
        ("::ffff:169.254.169.254", .metadata),
        ("::127.0.0.1", .loopback),
        ("64:ff9b::a00:5", .privateNetwork),
        ("2002:7f00:1::", .loopback),
        ("2001:db8::1", .reserved),
        ("[::1]", .loopback),
    ])
    func restrictedAddressesAreRefused(_ text: String, _ expected: AddressRules.Restriction) throws {
        let address = try #require(IPAddress(text))
        #expect(AddressRules.restriction(of: address) == expected)
        #expect(AddressRules().refusal(of: address) == expected)
    }

    @Test(arguments: [
        "93.184.216.34", "8.8.8.8", "172.32.0.1", "172.15.255.255", "100.128.0.1", "169.253.0.1",
        "2606:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::",
    ])
    func publicAddressesAreFetched(_ text: String) throws {
        let address = try #require(IPAddress(text))
        #expect(AddressRules.restriction(of: address) == nil)
    }

    @Test func theAllowListPermitsOnlyWhatItNames() throws {
        let rules = AddressRules(allowed: [
            try #require(NetworkRange("127.0.0.2")), try #require(NetworkRange("10.0.0.0/8")),
        ])
        #expect(rules.refusal(of: IPAddress("127.0.0.2")!) == nil)
        #expect(rules.refusal(of: IPAddress("::ffff:127.0.0.2")!) == nil)
        #expect(rules.refusal(of: IPAddress("127.0.0.1")!) == .loopback)
        #expect(rules.refusal(of: IPAddress("::1")!) == .loopback)
        #expect(rules.refusal(of: IPAddress("10.200.3.4")!) == nil)
        #expect(rules.refusal(of: IPAddress("192.168.0.1")!) == .privateNetwork)
        #expect(rules.refusal(of: IPAddress("169.254.169.254")!) == .metadata)
    }

    @Test func networkRangesAreReadStrictly() {
        #expect(NetworkRange("10.0.0.0/8")?.prefixLength == 8)
        #expect(NetworkRange("fd00::/8")?.prefixLength == 8)
        #expect(NetworkRange("127.0.0.2")?.prefixLength == 32)
        #expect(NetworkRange("::1")?.prefixLength == 128)
        for bad in [
            "10.0.0.0/33", "::/129", "10.0.0.0/", "/8", "example.com", "10.0.0.0/8/8", "010.0.0.1",
            "10.0.0.0/+8", "10.0.0.0/ 8",
        ] {
            #expect(NetworkRange(bad) == nil, "\(bad)")
        }
        #expect(NetworkRange("10.0.0.0/8")!.contains(IPAddress("10.255.0.1")!))
        #expect(!NetworkRange("10.0.0.0/8")!.contains(IPAddress("11.0.0.1")!))
        #expect(NetworkRange("192.168.4.0/22")!.contains(IPAddress("192.168.7.255")!))
        #expect(!NetworkRange("192.168.4.0/22")!.contains(IPAddress("192.168.8.0")!))
    }

    @Test func messagesSayWhatToDo() {
        let error = FetchError(
            .restrictedAddress(IPAddress("10.0.0.5")!, .privateNetwork),
            url: URL(string: "http://intranet.example/feed")!, subject: "feed")
        #expect(
            error.message
                == "The feed's address points into a private network (10.0.0.5); an administrator can allow it."
        )
        let large = FetchError(
            .tooLarge(limit: 10_000_000), url: URL(string: "http://a.example/")!, subject: "feed")
        #expect(large.message == "The feed is larger than 10 MB.")
        let redirects = FetchError(
            .tooManyRedirects(6), url: URL(string: "http://a.example/")!, subject: "feed")
        #expect(redirects.message.hasPrefix("Too many redirects (6)"))
    }
}
