/// Which addresses may be fetched: every public one, and the restricted ones (this machine, private networks,
/// link-local, metadata services, ...) only where an administrator's allow-list says so.
///
/// Checked on the address a socket is about to connect to (after DNS, at every hop), so neither a name that
/// resolves inward nor a DNS answer that changes between a check and the connection gets through.
public struct AddressRules: Sendable, Equatable {
    /// Why an address is restricted; the words finish "The feed's address points ...".
    public enum Restriction: String, Sendable, Equatable {
        case loopback = "to this machine"
        case privateNetwork = "into a private network"
        case linkLocal = "to a link-local address"
        case sharedAddressSpace = "into a carrier-grade NAT network"
        case multicast = "to a multicast address"
        case unspecified = "to an unspecified address"
        case metadata = "to a cloud metadata service"
        case reserved = "to a reserved address"
    }

    /// The administrator's allow-list: restricted addresses inside these blocks may be fetched.
    public var allowed: [NetworkRange]

    public init(allowed: [NetworkRange] = []) {
        self.allowed = allowed
    }

    /// Why `address` may not be fetched, or nil when it may.
    public func refusal(of address: IPAddress) -> Restriction? {
        guard let restriction = Self.restriction(of: address) else { return nil }
        return allowed.contains { $0.contains(address) } ? nil : restriction
    }

    /// The restricted block `address` lies in, if any (whatever the allow-list says).
    public static func restriction(of address: IPAddress) -> Restriction? {
        if let inner = address.embeddedIPv4 {
            // What the tunnel or translation leads to is what matters; an embedded public address is public.
            return restriction(of: inner)
        }
        for (range, restriction) in address.isIPv4 ? restrictedIPv4 : restrictedIPv6
        where range.contains(address) {
            return restriction
        }
        return nil
    }

    /// Most specific first: metadata addresses sit inside the link-local, shared and private blocks.
    private static let restrictedIPv4: [(NetworkRange, Restriction)] =
        ([
            ("169.254.169.254/32", .metadata),  // AWS, GCP, Azure, OpenStack, DigitalOcean, ...
            ("169.254.170.2/32", .metadata),  // AWS ECS task metadata
            ("100.100.100.200/32", .metadata),  // Alibaba Cloud
            ("192.0.0.192/32", .metadata),  // Oracle Cloud
            ("0.0.0.0/8", .unspecified),
            ("10.0.0.0/8", .privateNetwork),
            ("100.64.0.0/10", .sharedAddressSpace),
            ("127.0.0.0/8", .loopback),
            ("169.254.0.0/16", .linkLocal),
            ("172.16.0.0/12", .privateNetwork),
            ("192.0.0.0/24", .reserved),
            ("192.0.2.0/24", .reserved),
            ("192.88.99.0/24", .reserved),
            ("192.168.0.0/16", .privateNetwork),
            ("198.18.0.0/15", .reserved),
            ("198.51.100.0/24", .reserved),
            ("203.0.113.0/24", .reserved),
            ("224.0.0.0/4", .multicast),
            ("240.0.0.0/4", .reserved),
        ] as [(String, Restriction)]).map { (NetworkRange($0.0)!, $0.1) }

    private static let restrictedIPv6: [(NetworkRange, Restriction)] =
        ([
            ("fd00:ec2::254/128", .metadata),  // AWS over IPv6
            ("::/128", .unspecified),
            ("::1/128", .loopback),
            ("::/96", .reserved),  // IPv4-compatible, deprecated (those with an address are read above)
            ("64:ff9b:1::/48", .privateNetwork),  // local-use NAT64
            ("100::/64", .reserved),  // discard
            ("2001::/32", .reserved),  // Teredo: leads anywhere
            ("2001:db8::/32", .reserved),  // documentation
            ("fc00::/7", .privateNetwork),  // unique local
            ("fe80::/10", .linkLocal),
            ("fec0::/10", .privateNetwork),  // site-local, deprecated
            ("ff00::/8", .multicast),
        ] as [(String, Restriction)]).map { (NetworkRange($0.0)!, $0.1) }
}
