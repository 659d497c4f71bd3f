import Cryptography
import Foundation
import HTTPServer
import MusicCore
import Storage
import WebFetch

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
    let uploads: UploadService
    /// The folders files may be read from: the music folders and the data folder.
    let files: FileRoots
    let follows: FollowService
    let notifications: NotificationService
    let ads: AdService
    let home: HomeService
    let searchHistory: SearchHistoryService
    let categories: CategoryService
    let appVersions: AppVersionService
    let terms: TermsService
    let clicks: ViewerClicks
    let videos: VideoService
    let videoScans: VideoScanService
    let recommendations: RecommendationService
    let recommendationBackfill: RecommendationBackfill
    let passwords: AppPasswordService
    let messages: MessageService
    let shop: ShopService
    let orders: OrderService
    let podcasts: PodcastService
    let news: NewsService
    let audiobooks: AudiobookService
    let gpodder: GPodderService
    /// Carries committed events to open event streams.
    let eventHub = InProcessEventHub()
    let events: EventLog
    /// Closes the event streams of sessions that end, whichever process ended them.
    let sessionEnds: SessionEnds
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
        events = EventLog(hub: eventHub)
        let sessionEnds = SessionEnds(database: database, hub: eventHub)
        try sessionEnds.check()
        self.sessionEnds = sessionEnds
        files = FileRoots(
            options.musicFolders + options.videoFolders + [options.dataFolder]
                + (options.audiobookFolder.map { [$0] } ?? []), logger: logger)
        let clicks = ViewerClicks(
            database: database,
            writers: [
                .video: { db, counts in try VideoService.addClicks(db, counts) },
                .song: { db, counts in try LibraryService.addClicks(db, counts) },
            ])
        self.clicks = clicks
        var library = LibraryService(database: database, files: files)
        library.clicks = clicks
        self.library = library
        media = try MediaService(
            cacheFolder: options.dataFolder + "/cache", maxTranscodes: options.maxTranscodes, files: files)
        scans = ScanService(database: database, folders: options.musicFolders, logger: logger) { [library] in
            library.forgetSearches()
        }
        let terms = TermsService(database: database)
        self.terms = terms
        let outbox = OutboxSender(database: database, clock: { Int64(Date().timeIntervalSince1970) })
        let sender: any CodeSender =
            options.smtpHost.map {
                SMTPSender(host: $0, port: options.smtpPort, from: options.smtpFrom, fallback: outbox)
            } ?? outbox
        var accountSettings = AccountService.Settings()
        accountSettings.signupCodes = options.signupCodes
        accountSettings.registrationsPerAddress = options.signupsPerAddress
        let sheets = SheetService(
            database: database, coverFolder: options.dataFolder + "/sheet-covers", events: events)
        self.sheets = sheets
        accounts = AccountService(
            database: database, sender: sender, avatarFolder: options.dataFolder + "/avatars",
            sheetCoverPath: { sheets.coverPath(sheetID: $0) }, settings: accountSettings,
            termsAccepted: { try terms.hasAcceptedCurrent(userID: $0) },
            sessionsEnded: { [logger] in
                do { try sessionEnds.check() } catch {
                    logger.error("event=session_ends_failed error=\"\(error)\"")
                }
            })
        let uploads = UploadService(database: database, folder: options.dataFolder + "/files")
        self.uploads = uploads
        var feeds = FeedService(database: database, events: events)
        passwords = try AppPasswordService(
            database: database, keyFile: options.dataFolder + "/app-passwords.key")
        // A moment's pictures must be ones its author uploaded.
        feeds.picture = { uri, userID in
            try uploads.uploadedFile(uri: uri, by: userID).map {
                FeedImage(uri: $0.uri, icon: $0.icon, width: $0.width, height: $0.height)
            }
        }
        self.feeds = feeds
        comments = CommentService(database: database, sheets: sheets, feeds: feeds, events: events)
        follows = FollowService(database: database, accounts: accounts, events: events)
        notifications = NotificationService(database: database, events: events)
        let categories = CategoryService(database: database)
        self.categories = categories
        appVersions = AppVersionService(database: database)
        let stills = options.dataFolder + "/cache/video-stills"
        videos = VideoService(
            database: database, clicks: clicks, transcodes: media.transcodes, files: files,
            stillFolder: stills,
            uploadFolder: options.dataFolder + "/videos")
        let musicScans = scans
        videoScans = VideoScanService(
            scanner: VideoScanner(database: database, folders: options.videoFolders, stillFolder: stills),
            logger: logger, waitForMusic: { musicScans.waitUntilIdle() })
        let recommendations = RecommendationService(database: database)
        self.recommendations = recommendations
        var podcasts = PodcastService(
            database: database,
            fetcher: Fetcher(Fetcher.Configuration(addressRules: AddressRules(allowed: options.fetchAllow))),
            downloadFolder: options.dataFolder + "/podcasts",
            refreshInterval: Int64(max(options.podcastRefreshSeconds, 60)), logger: logger)
        podcasts.cursorSecret = try Crypto.serverKey(at: options.dataFolder + "/album-cursors.key")
        let audiobooks = AudiobookService(database: database, folder: options.audiobookFolder, logger: logger)
        self.audiobooks = audiobooks
        podcasts.audiobookFolder = audiobooks.root
        podcasts.bookChapters = { try audiobooks.chaptersIfPart($0) }
        self.podcasts = podcasts
        shop = ShopService(database: database)
        let home = HomeService(
            database: database, categories: categories, recommendations: recommendations, videos: videos,
            shop: shop, podcasts: podcasts)
        self.home = home
        searchHistory = SearchHistoryService(database: database)
        // The home banner shows ads: a change to them is a change to it.
        ads = AdService(
            database: database, folder: options.dataFolder + "/ads", changed: { home.forgetBanner() })
        messages = MessageService(database: database, accounts: accounts, videos: videos, events: events)
        recommendationBackfill = RecommendationBackfill(database: database)
        orders = OrderService(
            database: database, providers: try options.shop.providers(dataFolder: options.dataFolder),
            logger: logger, expirySeconds: Int64(options.shop.orderExpirySeconds),
            autoCompleteSeconds: Int64(options.shop.orderAutoCompleteSeconds))
        news = NewsService(
            database: database,
            fetcher: Fetcher(Fetcher.Configuration(addressRules: AddressRules(allowed: options.fetchAllow))),
            images: try NewsImageKey(file: options.dataFolder + "/news-images.key"),
            refreshInterval: Int64(max(options.newsRefreshMinutes, 1) * 60), logger: logger)
        gpodder = GPodderService(
            database: database, podcasts: podcasts, accounts: accounts, passwords: passwords)
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
        AccountRoutes(accounts: accounts, files: files).register(on: api)
        SheetRoutes(sheets: sheets, accounts: accounts, files: files).register(on: api)
        CommentRoutes(comments: comments).register(on: api)
        FeedRoutes(feeds: feeds).register(on: api)
        FollowRoutes(follows: follows).register(on: api)
        NotificationRoutes(notifications: notifications).register(on: api)
        FileRoutes(files: uploads, roots: files).register(on: api)
        AdRoutes(ads: ads, files: files).register(on: api)
        HomeRoutes(home: home).register(on: api)
        SearchHistoryRoutes(searches: searchHistory).register(on: api)
        CategoryRoutes(categories: categories).register(on: api)
        AppVersionRoutes(versions: appVersions).register(on: api)
        TermsRoutes(terms: terms).register(on: api)
        VideoRoutes(videos: videos, scans: videoScans, files: files).register(on: api)
        RecommendationRoutes(recommendations: recommendations).register(on: api)
        let subsonic = SubsonicService(
            database: database, sheets: sheets, library: library, scans: scans, nowPlaying: nowPlaying)
        AppPasswordRoutes(passwords: passwords, subsonic: subsonic).register(on: api)
        MessageRoutes(messages: messages).register(on: api)
        let books = AudiobookRoutes(audiobooks: audiobooks, media: media, files: files)
        PodcastRoutes(
            podcasts: podcasts, files: files, bookCover: { try books.cover(bookID: $0, size: $1, $2) }
        )
        .register(on: api)
        books.register(on: api)
        NewsRoutes(news: news).register(on: api)
        EventRoutes(database: database, log: events, accounts: accounts).register(on: api)
        ShopRoutes(shop: shop, orders: orders).register(on: api)
        SubsonicRoutes(
            service: subsonic, passwords: passwords, media: media, files: files, accounts: accounts,
            logger: logger, envelope: .current, podcasts: podcasts
        ).register(on: router)
        GPodderRoutes(gpodder: gpodder, router: router).register()
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
        configuration.willShutDown = { [eventHub] in eventHub.endAll() }
        // The server's own refusals (no route, a body too large, ...) in the v1 envelope, as a handler's are, and
        // in the Subsonic envelope under /rest, where apps read every error from a subsonic-response.
        var errors = ErrorRenderer(APIEnvelope.refusal)
        errors.render(under: "/rest", with: SubsonicRoutes.refusals(envelope: .current))
        errors.render(under: "/api/2", with: GPodderAPI.refusal)
        configuration.errorRenderer = errors
        return configuration
    }

    /// Runs until SIGINT or SIGTERM, then finishes in-flight requests and returns.
    public func serve(onStart: (Int) -> Void = { _ in }) throws {
        let server = HTTPServer(configuration: httpConfiguration(), router: makeRouter(), metrics: metrics)
        try server.start()
        accounts.prepare()
        uploads.removeLeftovers()
        sheets.clicks.start(logger: logger)
        clicks.start(logger: logger)
        recommendationBackfill.start(logger: logger)
        let purge = EventPurge(database: database, log: events, logger: logger)
        purge.start()
        sessionEnds.start(logger: logger)
        let sweeper = OrderSweeper(orders: orders, logger: logger)
        sweeper.start()
        if !options.musicFolders.isEmpty { try scans.start() }
        videoScans.start()
        audiobooks.startScan()
        let podcastSchedule = PodcastScheduler(podcasts: podcasts, logger: logger)
        if options.podcastRefreshSeconds > 0 { podcastSchedule.start() }
        let newsSchedule = NewsScheduler(news: news, logger: logger)
        if options.newsRefreshMinutes > 0 { newsSchedule.start() }
        if options.watchFolders {
            let scans = self.scans
            LibraryWatcher(folders: options.musicFolders, logger: logger) { _ = try? scans.start() }?.start()
            let videoScans = self.videoScans
            if !options.videoFolders.isEmpty {
                LibraryWatcher(folders: options.videoFolders, logger: logger) { videoScans.start() }?.start()
            }
        }
        onStart(server.port)
        server.runUntilSignalled()
        recommendationBackfill.stop()
        podcastSchedule.stop()
        newsSchedule.stop()
        purge.stop()
        sessionEnds.stop()
        sweeper.stop()
        do { try sheets.clicks.stop() } catch { logger.error("event=click_flush_failed error=\"\(error)\"") }
        do { try clicks.stop() } catch { logger.error("event=viewer_click_flush_failed error=\"\(error)\"") }
    }
}
