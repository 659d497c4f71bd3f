import Foundation

/// An IPv4 or IPv6 address, as the network sees it (4 or 16 bytes).
public struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    /// Network order; 4 bytes for IPv4, 16 for IPv6.
    public let bytes: [UInt8]

    /// Reads "10.0.0.5", "::1" or "[fe80::1]"; nil for anything else (names, "010.0.0.5", ports).
    public init?(_ text: String) {
        var text = Substring(text)
        if text.hasPrefix("["), text.hasSuffix("]") { text = text.dropFirst().dropLast() }
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, String(text), &v4) == 1 {
            bytes = withUnsafeBytes(of: v4) { Array($0) }
        } else if inet_pton(AF_INET6, String(text), &v6) == 1 {
            bytes = withUnsafeBytes(of: v6) { Array($0) }
        } else {
            return nil
        }
    }

    init(bytes: [UInt8]) {
        precondition(bytes.count == 4 || bytes.count == 16)
        self.bytes = bytes
    }

    /// The address of a `struct sockaddr` of family AF_INET or AF_INET6; nil for any other family.
    init?(socketAddress: UnsafeRawPointer, family: Int32) {
        switch family {
        case AF_INET:
            let address = socketAddress.loadUnaligned(as: sockaddr_in.self)
            bytes = withUnsafeBytes(of: address.sin_addr) { Array($0) }
        case AF_INET6:
            let address = socketAddress.loadUnaligned(as: sockaddr_in6.self)
            bytes = withUnsafeBytes(of: address.sin6_addr) { Array($0) }
        default:
            return nil
        }
    }

    public var isIPv4: Bool { bytes.count == 4 }

    /// The IPv4 address of an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`), which is how a dual-stack socket
    /// reaches it.
    public var mappedIPv4: IPAddress? {
        guard bytes.count == 16, bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xff, bytes[11] == 0xff
        else { return nil }
        return IPAddress(bytes: Array(bytes[12..<16]))
    }

    /// The IPv4 address an IPv6 address carries and leads to: IPv4-mapped (`::ffff:a.b.c.d`), IPv4-compatible
    /// (`::a.b.c.d`), NAT64 (`64:ff9b::a.b.c.d`) and 6to4 (`2002:aabb:ccdd::`).
    public var embeddedIPv4: IPAddress? {
        guard bytes.count == 16 else { return nil }
        if let mapped = mappedIPv4 { return mapped }
        if bytes[0..<12].allSatisfy({ $0 == 0 }), !bytes[12..<15].allSatisfy({ $0 == 0 }) {
            return IPAddress(bytes: Array(bytes[12..<16]))
        }
        if bytes[0..<12] == [0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0] {
            return IPAddress(bytes: Array(bytes[12..<16]))
        }
        if bytes[0] == 0x20, bytes[1] == 0x02 {
            return IPAddress(bytes: Array(bytes[2..<6]))
        }
        return nil
    }

    public var description: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = isIPv4 ? AF_INET : AF_INET6
        _ = bytes.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &text, socklen_t(text.count)) }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether the first `length` bits equal those of `other` (of the same family).
    func hasPrefix(_ other: IPAddress, length: Int) -> Bool {
        guard bytes.count == other.bytes.count else { return false }
        var left = length
        for index in 0..<bytes.count where left > 0 {
            let bits = min(8, left)
            let mask = UInt8(truncatingIfNeeded: 0xff << (8 - bits))
            if bytes[index] & mask != other.bytes[index] & mask { return false }
            left -= bits
        }
        return true
    }
}

/// A block of addresses in CIDR notation ("10.0.0.0/8", "fd00::/8"; a bare address is a block of one).
public struct NetworkRange: Hashable, Sendable, CustomStringConvertible {
    public let address: IPAddress
    public let prefixLength: Int

    /// Reads a CIDR block; nil when it is not one (a prefix longer than the family allows, a name).
    public init?(_ text: String) {
        let parts = text.trimmingCharacters(in: .whitespaces).split(
            separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2, let address = IPAddress(String(parts[0])) else {
            return nil
        }
        let bits = address.bytes.count * 8
        if parts.count == 2 {
            guard !parts[1].isEmpty, parts[1].allSatisfy({ $0.isASCII && $0.isNumber }),
                let length = Int(parts[1]), (0...bits).contains(length)
            else { return nil }
            prefixLength = length
        } else {
            prefixLength = bits
        }
        self.address = address
    }

    init(_ address: IPAddress, _ prefixLength: Int) {
        self.address = address
        self.prefixLength = prefixLength
    }

    /// Whether `ip` lies in the block; an IPv4 block also holds the IPv4-mapped IPv6 forms of its addresses.
    public func contains(_ ip: IPAddress) -> Bool {
        if ip.hasPrefix(address, length: prefixLength) { return true }
        guard address.isIPv4, let inner = ip.mappedIPv4 else { return false }
        return inner.hasPrefix(address, length: prefixLength)
    }

    public var description: String { "\(address)/\(prefixLength)" }
}
