/// App releases as the v1 API sends them, and the version numbers they are compared by.

/// The platforms apps are published for.
public enum AppPlatform: String, Codable, Sendable, CaseIterable, SchemaEnum {
    case ios, android, web
}

/// A published version of an app.
public struct AppVersion: Codable, Sendable, Equatable, Identifiable {
    public var id: String
    public var platform: AppPlatform
    /// A semantic version, such as `1.4.0` or `2.0.0-beta.1`.
    public var version: String
    /// The platform's build number.
    public var build: Int
    /// What changed, shown in the update dialog.
    public var notes: String
    /// Where to get it: a store page or a download address.
    public var uri: String?
    /// Whether the app must update before it can be used. In an update check it is true when this or any
    /// version between the app's own and this one is forced.
    public var force: Bool
    public var createdAt: String
    public var updatedAt: String

    public init(
        id: String, platform: AppPlatform, version: String, build: Int, notes: String, uri: String?,
        force: Bool, createdAt: String, updatedAt: String
    ) {
        self.id = id
        self.platform = platform
        self.version = version
        self.build = build
        self.notes = notes
        self.uri = uri
        self.force = force
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// A version number compared as Semantic Versioning 2.0 says: `major.minor.patch`, then a pre-release
/// (`-beta.2`, lower than the release) compared identifier by identifier; build metadata (`+42`) is ignored.
/// A missing minor or patch is 0 (`1.2` is `1.2.0`), and a leading `v` is allowed.
public struct SemanticVersion: Sendable, Equatable, Comparable, CustomStringConvertible {
    public var major: Int
    public var minor: Int
    public var patch: Int
    /// Dot-separated pre-release identifiers; empty for a release.
    public var prerelease: [String]

    public init(major: Int, minor: Int = 0, patch: Int = 0, prerelease: [String] = []) {
        self.major = major
        self.minor = minor
        self.patch = patch
        self.prerelease = prerelease
    }

    /// Parses `text`, or nil when it is not a version.
    /// What `init?(_:)` reads, as a regular expression (the contract documents and checks a version with it).
    public static let pattern =
        #"^[vV]?(0|[1-9][0-9]{0,8})(\.(0|[1-9][0-9]{0,8})){0,2}(-(0|[1-9][0-9]*|[0-9]*[A-Za-z-][0-9A-Za-z-]*)(\.(0|[1-9][0-9]*|[0-9]*[A-Za-z-][0-9A-Za-z-]*))*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$"#

    public init?(_ text: String) {
        var rest = Substring(text)
        if rest.first == "v" || rest.first == "V" { rest = rest.dropFirst() }
        if let plus = rest.firstIndex(of: "+") {
            let build = rest[rest.index(after: plus)...]
            guard Self.identifiersAreValid(build, numeric: false) else { return nil }
            rest = rest[..<plus]
        }
        var prerelease: [String] = []
        if let dash = rest.firstIndex(of: "-") {
            let tail = rest[rest.index(after: dash)...]
            guard Self.identifiersAreValid(tail, numeric: true) else { return nil }
            prerelease = tail.split(separator: ".").map(String.init)
            rest = rest[..<dash]
        }
        let numbers = rest.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(numbers.count) else { return nil }
        var values: [Int] = []
        for number in numbers {
            guard Self.isNumber(number), let value = Int(number) else { return nil }
            values.append(value)
        }
        while values.count < 3 { values.append(0) }
        self.init(major: values[0], minor: values[1], patch: values[2], prerelease: prerelease)
    }

    public var description: String {
        "\(major).\(minor).\(patch)" + (prerelease.isEmpty ? "" : "-" + prerelease.joined(separator: "."))
    }

    public static func < (a: SemanticVersion, b: SemanticVersion) -> Bool {
        if (a.major, a.minor, a.patch) != (b.major, b.minor, b.patch) {
            return (a.major, a.minor, a.patch) < (b.major, b.minor, b.patch)
        }
        // A release is higher than any of its pre-releases.
        if a.prerelease.isEmpty || b.prerelease.isEmpty {
            return !a.prerelease.isEmpty && b.prerelease.isEmpty
        }
        for (x, y) in zip(a.prerelease, b.prerelease) where x != y {
            switch (Int(x), Int(y)) {
            case (let m?, let n?): return m < n
            case (.some, nil): return true
            case (nil, .some): return false
            case (nil, nil): return x < y
            }
        }
        return a.prerelease.count < b.prerelease.count
    }

    /// Digits without a leading zero (but `0` itself), at most 9 of them.
    private static func isNumber(_ text: Substring) -> Bool {
        !text.isEmpty && text.count <= 9 && text.utf8.allSatisfy { (0x30...0x39).contains($0) }
            && (text.count == 1 || text.first != "0")
    }

    /// Non-empty identifiers of ASCII letters, digits and hyphens; numeric ones without leading zeros
    /// when `numeric` (pre-releases).
    private static func identifiersAreValid(_ text: Substring, numeric: Bool) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return !parts.isEmpty
            && parts.allSatisfy { part in
                guard !part.isEmpty,
                    part.utf8.allSatisfy({
                        (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0)
                            || $0 == 0x2D
                    })
                else { return false }
                let allDigits = part.utf8.allSatisfy { (0x30...0x39).contains($0) }
                return !numeric || !allDigits || part.count == 1 || part.first != "0"
            }
    }
}
