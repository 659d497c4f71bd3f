import Foundation
import MusicCore
import HTTPServer
import Storage

/// The running server: its data folder, database and routes.
public final class ServerApp: Sendable {
    public let options: ServerOptions
    public let database: Database
    public let logger: Logger
    let library: LibraryService
    let media: MediaService
    let scans: ScanService
    let accounts: AccountService
    let sheets: SheetService
    let comments: CommentService
    let feeds: FeedService
    let files: UploadService
    let passwords: AppPasswordService
    /// What Subsonic apps say they are playing.
    let nowPlaying = NowPlaying()
    /// Request counts and latencies, shared by the HTTP server and `GET /metrics`.
    let metrics = Metrics()

    /// Opens (creating when missing) the data folder and database, and brings the schema up to date.
    public init(options: ServerOptions, logger: Logger) throws {
        self.options = options
        self.logger = logger
        do {
            try FileManager.default.createDirectory(
                atPath: options.dataFolder, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        } catch {
            throw UsageError(
                message: "Cannot create the data folder \(options.dataFolder): \(error.localizedDescription)")
        }
        database = try Database(path: options.databasePath)
        let applied = try Schema.migrator.migrate(database)
        if !applied.isEmpty { logger.info("migrated schema to version \(applied.last!)") }
        library = LibraryService(database: database)
        media = try MediaService(cacheFolder: options.dataFolder + "/cache", maxTranscodes: options.maxTranscodes)
        scans = ScanService(database: database, folders: options.musicFolders, logger: logger)
        let accountStore = AccountStore(database: database)
        let outbox = OutboxSender(store: accountStore, clock: { Int64(Date().timeIntervalSince1970) })
        let sender: any CodeSender =
            options.smtpHost.map {
                SMTPSender(host: $0, port: options.smtpPort, from: options.smtpFrom, fallback: outbox)
            } ?? outbox
        var accountSettings = AccountService.Settings()
        accountSettings.signupCodes = options.signupCodes
        accounts = AccountService(
            store: accountStore, sender: sender, avatarFolder: options.dataFolder + "/avatars",
            settings: accountSettings)
        sheets = SheetService(database: database, coverFolder: options.dataFolder + "/sheet-covers")
        passwords = try AppPasswordService(database: database, keyFile: options.dataFolder + "/app-passwords.key")
        let files = UploadService(store: FileStore(database: database), folder: options.dataFolder + "/files")
        self.files = files
        var feeds = FeedService(store: FeedStore(database: database))
        // A moment's pictures must be ones its author uploaded.
        feeds.picture = { uri, userID in
            try files.uploadedFile(uri: uri, by: userID).map {
                FeedImage(uri: $0.uri, icon: $0.icon, width: $0.width, height: $0.height)
            }
        }
        self.feeds = feeds
        comments = CommentService(
            store: CommentStore(database: database), sheets: sheets, catalog: CatalogStore(), feeds: feeds)
    }

    /// Every endpoint of the API, registered through its declaration.
    public func makeRouter() -> Router {
        let router = Router()
        let accounts = self.accounts
        let api = EndpointRouter(router: router) { endpoint in
            Authentication(accounts: accounts, access: endpoint.access, action: endpoint.summary)
        }
        ServerRoutes(metrics: metrics).register(on: api)
        LibraryRoutes(library: library, media: media, scans: scans).register(on: api)
        AccountRoutes(accounts: accounts, sheets: sheets).register(on: api)
        SheetRoutes(sheets: sheets, accounts: accounts).register(on: api)
        CommentRoutes(comments: comments).register(on: api)
        FeedRoutes(feeds: feeds).register(on: api)
        FollowRoutes(store: FollowStore(database: database), accounts: accounts).register(on: api)
        NotificationRoutes(store: NotificationStore(database: database)).register(on: api)
        FileRoutes(files: files).register(on: api)
        AppPasswordRoutes(passwords: passwords).register(on: api)
        SubsonicRoutes(
            service: SubsonicService(
                database: database, sheets: sheets, library: library, scans: scans, nowPlaying: nowPlaying),
            passwords: passwords, media: media, accounts: accounts, logger: logger,
            envelope: SubsonicEnvelope(serverVersion: CloudMusicVersion.current)
        ).register(on: router)
        WebRoutes(folder: options.webFolder, logger: logger).register(on: router)
        return router
    }

    public func httpConfiguration() -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.host = options.host
        configuration.port = options.port
        configuration.threads = options.threads
        configuration.corsOrigins = options.corsOrigins
        configuration.maxBodyBytes = options.maxBodyBytes
        configuration.maxUploadBytes = options.maxUploadBytes
        configuration.logger = logger
        return configuration
    }

    /// Runs until SIGINT or SIGTERM, then finishes in-flight requests and returns.
    public func serve(onStart: (Int) -> Void = { _ in }) throws {
        let server = HTTPServer(configuration: httpConfiguration(), router: makeRouter(), metrics: metrics)
        try server.start()
        accounts.prepare()
        files.removeLeftovers()
        sheets.clicks.start(logger: logger)
        if !options.musicFolders.isEmpty { try scans.start() }
        if options.watchFolders {
            let scans = self.scans
            LibraryWatcher(folders: options.musicFolders, logger: logger) { _ = try? scans.start() }?.start()
        }
        onStart(server.port)
        server.runUntilSignalled()
        do { try sheets.clicks.stop() } catch { logger.error("event=click_flush_failed error=\"\(error)\"") }
    }
}
