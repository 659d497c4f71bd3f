// TEMPORARY stub of the AudioMetadata contract.
public struct AudioTags: Sendable, Equatable, Codable {
    public var title: String?; public var artists: [String] = []; public var album: String?; public var albumArtists: [String] = []
    public var trackNumber: Int?; public var trackTotal: Int?; public var discNumber: Int?; public var discTotal: Int?
    public var year: Int?; public var genres: [String] = []; public var isCompilation = false; public var lyrics: String?
    public var musicBrainzTrackID: String?; public var musicBrainzAlbumID: String?; public var musicBrainzArtistID: String?
}
public struct AudioProperties: Sendable, Equatable, Codable { public var durationMilliseconds: Int; public var bitRate: Int; public var sampleRate: Int; public var channels: Int }
public struct AudioFileInfo: Sendable, Equatable { public var tags: AudioTags; public var properties: AudioProperties }
public struct AudioMetadataError: Error, Sendable { public var path: String; public var reason: String }
public enum AudioFileReader {
    public static let supportedExtensions: Set<String> = ["mp3"]
    public static func read(path: String) throws -> AudioFileInfo { fatalError() }
}
public enum LibraryGenerator {
    public static func makeDemoLibrary(at folder: String, progress: ((Int, Int) -> Void)? = nil) throws {}
    public static func makeBenchmarkLibrary(at folder: String, trackCount: Int, progress: ((Int, Int) -> Void)? = nil) throws {}
}
