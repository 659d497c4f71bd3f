// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "CloudMusic",
    products: [
        .executable(name: "cloudmusic-server", targets: ["cloudmusic-server"]),
        .library(name: "MusicCore", targets: ["MusicCore"]),
        .library(name: "CloudMusicKit", targets: ["CloudMusicKit"]),
        .executable(name: "cloudmusic", targets: ["cloudmusic"]),
    ],
    targets: [
        // C libraries from Debian, each wrapped once by the module above it.
        .systemLibrary(
            name: "CMicroHTTPD", pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(
            name: "CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(
            name: "CSodium", pkgConfig: "libsodium",
            providers: [.apt(["libsodium-dev"])]),
        .systemLibrary(
            name: "CTagLib", pkgConfig: "taglib_c",
            providers: [.apt(["libtagc0-dev"])]),
        .systemLibrary(
            name: "CMPV", pkgConfig: "mpv",
            providers: [.apt(["libmpv-dev"])]),
        .systemLibrary(
            name: "CNCurses",
            providers: [.apt(["libncurses-dev"])]),
        .systemLibrary(
            name: "CDBus", pkgConfig: "dbus-1",
            providers: [.apt(["libdbus-1-dev"])]),
        // cracklib, with its dictionary from cracklib-runtime (no pkg-config file).
        .systemLibrary(
            name: "CCrack",
            providers: [.apt(["libcrack2-dev", "cracklib-runtime"])]),
        .systemLibrary(
            name: "CZlib", pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(
            name: "CPostgres", pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]),
        // libcurl (OpenSSL flavour) and libxml2: what is fetched from the internet, and how it is read.
        .systemLibrary(
            name: "CCurl", pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(
            name: "CLibXML2", pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]),
        // OpenSSL's libcrypto: RSA, X.509 and AES-GCM for payment providers (libsodium has none of them).
        .systemLibrary(
            name: "COpenSSL", pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]),
        // TagLib 1.13's C API has no property map (it came in TagLib 2.0): this C++ file adds it.
        .target(
            name: "CTagLibProperties", dependencies: ["CTagLib"],
            linkerSettings: [.linkedLibrary("tag"), .linkedLibrary("stdc++")]),

        // Generic layers: they know nothing of music.
        .target(name: "Logging"),
        .target(name: "HTTPServer", dependencies: ["CMicroHTTPD", "Logging"]),
        .target(name: "Storage", dependencies: ["CSQLite"]),
        // libpq, wrapped once: PostgreSQL behind the same engine-neutral surface as Storage's SQLite.
        .target(name: "PostgresStorage", dependencies: ["CPostgres", "Storage"]),
        .target(name: "AudioMetadata", dependencies: ["CTagLib", "CTagLibProperties"]),
        // libsodium and libcrypto, each wrapped once (the only importer of CSodium and of COpenSSL): passwords,
        // digests, randomness; RSA signatures, certificates and AES-GCM for payments.
        .target(name: "Cryptography", dependencies: ["CSodium", "COpenSSL"]),
        // The rules for new passwords: normalisation, invisible characters, length, and cracklib's dictionary.
        .target(name: "PasswordPolicy", dependencies: ["CCrack"]),

        // Input from the internet (podcasts, news): libcurl wrapped once (fetching, with the SSRF rules),
        // libxml2 wrapped once (a safe streaming XML reader, HTML events), and what is built on them.
        .target(name: "WebFetch", dependencies: ["CCurl", "MusicCore"]),
        .target(name: "Markup", dependencies: ["CLibXML2"]),
        .target(name: "WebFeeds", dependencies: ["Markup", "MusicCore"]),
        .target(name: "HTMLSanitizer", dependencies: ["Markup", "MusicCore"]),

        // Pure logic shared by server and clients: no I/O, no C.
        .target(name: "MusicCore"),
        // Payment providers (Alipay, WeChat Pay, our sandbox): requests signed, notifications verified and
        // decoded; what to do with them is the shop's.
        .target(name: "Payments", dependencies: ["Cryptography", "MusicCore"]),

        // The server's features.
        .target(
            name: "CloudMusicServer",
            dependencies: [
                "HTTPServer", "Logging", "Storage", "MusicCore", "AudioMetadata", "Cryptography",
                "PasswordPolicy",
                "CZlib", "Payments", "WebFetch", "WebFeeds", "HTMLSanitizer",
            ]),
        .executableTarget(name: "cloudmusic-server", dependencies: ["CloudMusicServer"]),

        // The client SDK: API client, repositories, MusicListManager, the player (libmpv), downloads.
        .target(name: "CloudMusicKit", dependencies: ["MusicCore", "Storage", "CMPV"]),
        // The desktop's media keys and now-playing widgets: an MPRIS2 service on the D-Bus session bus.
        .target(name: "MPRIS", dependencies: ["CDBus", "CloudMusicKit", "MusicCore"]),
        // The terminal player's config file, remembered login and control socket (`cloudmusic pause`).
        .target(name: "PlayerControl", dependencies: ["MusicCore"]),
        // The terminal player: screens as pure functions of state, the ncurses shell, and the app.
        .target(
            name: "CloudMusicTUI",
            dependencies: [
                "CloudMusicKit", "MusicCore", "CNCurses", "MPRIS", "PlayerControl", "HTMLSanitizer",
            ]),
        .executableTarget(name: "cloudmusic", dependencies: ["CloudMusicTUI"]),

        // Test helper: writes through Storage until it is killed (crash-consistency tests).
        .executableTarget(name: "storage-torture", dependencies: ["Storage"]),

        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer"]),
        .testTarget(name: "StorageTests", dependencies: ["Storage", "storage-torture"]),
        // PostgreSQL tests: the throwaway cluster of scripts/pg-cluster (CLOUDMUSIC_TEST_POSTGRES_URL), a fresh
        // database per test; and the engine-neutral tests, run on both engines.
        .target(
            name: "PostgresTestSupport", dependencies: ["PostgresStorage", "Storage", "ServerTestSupport"],
            path: "Tests/PostgresTestSupport"),
        .testTarget(
            name: "PostgresStorageTests", dependencies: ["PostgresStorage", "Storage", "PostgresTestSupport"]),
        // SQLite and PostgreSQL through Storage's engine-neutral surface, against the direct SQLite path.
        .executableTarget(
            name: "storage-bench", dependencies: ["Storage", "PostgresStorage"],
            path: "Benchmarks/storage/Bench"),
        .testTarget(name: "MusicCoreTests", dependencies: ["MusicCore"]),
        .testTarget(name: "PasswordPolicyTests", dependencies: ["PasswordPolicy"]),
        .testTarget(name: "CryptographyTests", dependencies: ["Cryptography", "ServerTestSupport"]),
        .testTarget(name: "PaymentsTests", dependencies: ["Payments", "Cryptography", "ServerTestSupport"]),
        .testTarget(
            name: "CloudMusicTUITests",
            dependencies: [
                "CloudMusicTUI", "CloudMusicKit", "MusicCore", "ServerTestSupport", "OriginTestSupport",
                "cloudmusic", "cloudmusic-server",
            ]),
        .testTarget(
            name: "MPRISTests", dependencies: ["MPRIS", "CloudMusicKit", "MusicCore", "ServerTestSupport"]),
        .testTarget(name: "PlayerControlTests", dependencies: ["PlayerControl", "MusicCore"]),
        // Test helpers: the real server on the demo library, child processes, a private D-Bus session bus.
        .target(name: "ServerTestSupport", path: "Tests/ServerTestSupport"),
        .testTarget(
            name: "CloudMusicKitTests",
            dependencies: [
                "CloudMusicKit", "MusicCore", "Storage", "ServerTestSupport", "OriginTestSupport",
                "cloudmusic-server", "kit-download-torture",
            ]),
        // Test helper: downloads slowly until it is killed (the resume-after-kill test).
        .executableTarget(
            name: "kit-download-torture", dependencies: ["CloudMusicKit"], path: "Tests/KitDownloadTorture"),
        .executableTarget(
            name: "client-bench", dependencies: ["CloudMusicKit", "MusicCore"],
            path: "Benchmarks/client/Bench"),
        .testTarget(name: "AudioMetadataTests", dependencies: ["AudioMetadata", "MusicCore"]),
        .testTarget(
            name: "CloudMusicServerTests",
            dependencies: [
                "CloudMusicServer", "HTTPServer", "Storage", "MusicCore", "AudioMetadata", "Cryptography",
                "ServerTestSupport", "Payments", "OriginTestSupport",
                "cloudmusic-server",
            ]),
        // The Subsonic API (/rest) over the real server on the demo library; XML checked against the schema in
        // Support/ (with Python's xmlschema from the test venv, see scripts/install-deps).
        .testTarget(
            name: "SubsonicTests",
            dependencies: [
                "CloudMusicServer", "MusicCore", "Storage", "ServerTestSupport", "OriginTestSupport",
                "cloudmusic-server",
            ],
            exclude: ["Support"]),
        // The web server the fetcher's and the feed parser's tests fetch from (origin.py, on 127.0.0.2).
        .target(
            name: "OriginTestSupport", dependencies: ["ServerTestSupport"], path: "Tests/OriginTestSupport",
            exclude: ["origin.py"]),
        .testTarget(
            name: "WebFetchTests", dependencies: ["WebFetch", "OriginTestSupport", "ServerTestSupport"]),
        .testTarget(name: "MarkupTests", dependencies: ["Markup", "OriginTestSupport"]),
        .testTarget(
            name: "WebFeedsTests",
            dependencies: ["WebFeeds", "WebFetch", "MusicCore", "OriginTestSupport", "ServerTestSupport"]),
        .testTarget(name: "HTMLSanitizerTests", dependencies: ["HTMLSanitizer", "Markup", "MusicCore"]),
        .executableTarget(
            name: "library-bench-gen", dependencies: ["AudioMetadata"], path: "Benchmarks/library/Generate"),
        .executableTarget(
            name: "podcast-bench", dependencies: ["WebFeeds", "WebFetch", "Markup", "MusicCore"],
            path: "Benchmarks/podcasts/Bench"),
        .executableTarget(
            name: "recommendation-bench", dependencies: ["CloudMusicServer", "Storage", "MusicCore"],
            path: "Benchmarks/recommendations/Bench"),
    ],
    swiftLanguageModes: [.v6]
)
