/// The tags of one audio file, normalised: several artists or genres are separate entries.
///
/// A nil or empty field means the file does not say; callers fall back to folder and file names.
public struct AudioTags: Sendable, Equatable, Codable {
    public var title: String?
    public var artists: [String]
    public var album: String?
    public var albumArtists: [String]
    public var trackNumber: Int?
    public var trackTotal: Int?
    public var discNumber: Int?
    public var discTotal: Int?
    public var year: Int?
    public var genres: [String]
    public var isCompilation: Bool
    public var lyrics: String?
    public var musicBrainzTrackID: String?
    public var musicBrainzAlbumID: String?
    public var musicBrainzArtistID: String?
    /// ReplayGain in dB and peaks as fractions of full scale (REPLAYGAIN_TRACK_GAIN ...).
    public var replayGain = ReplayGain()
    /// Beats per minute, rounded.
    public var bpm: Int?
    /// How the title, the artist, the album and the album artist sort (TITLESORT, ARTISTSORT, ...).
    public var titleSort: String?
    public var artistSort: String?
    public var albumSort: String?
    public var albumArtistSort: String?
    public var comment: String?

    public init(
        title: String? = nil, artists: [String] = [], album: String? = nil, albumArtists: [String] = [],
        trackNumber: Int? = nil, trackTotal: Int? = nil, discNumber: Int? = nil, discTotal: Int? = nil,
        year: Int? = nil, genres: [String] = [], isCompilation: Bool = false, lyrics: String? = nil,
        musicBrainzTrackID: String? = nil, musicBrainzAlbumID: String? = nil,
        musicBrainzArtistID: String? = nil
    ) {
        self.title = title
        self.artists = artists
        self.album = album
        self.albumArtists = albumArtists
        self.trackNumber = trackNumber
        self.trackTotal = trackTotal
        self.discNumber = discNumber
        self.discTotal = discTotal
        self.year = year
        self.genres = genres
        self.isCompilation = isCompilation
        self.lyrics = lyrics
        self.musicBrainzTrackID = musicBrainzTrackID
        self.musicBrainzAlbumID = musicBrainzAlbumID
        self.musicBrainzArtistID = musicBrainzArtistID
    }
}

/// ReplayGain values of a file: gains in dB, peaks as fractions of full scale; nil when not tagged.
public struct ReplayGain: Sendable, Equatable, Codable {
    public var trackGain: Double?
    public var trackPeak: Double?
    public var albumGain: Double?
    public var albumPeak: Double?

    public init(
        trackGain: Double? = nil, trackPeak: Double? = nil, albumGain: Double? = nil, albumPeak: Double? = nil
    ) {
        self.trackGain = trackGain
        self.trackPeak = trackPeak
        self.albumGain = albumGain
        self.albumPeak = albumPeak
    }

    public var isEmpty: Bool { trackGain == nil && trackPeak == nil && albumGain == nil && albumPeak == nil }
}

/// The audio stream of a file.
public struct AudioProperties: Sendable, Equatable, Codable {
    public var durationMilliseconds: Int
    /// Average bit rate in kbit/s.
    public var bitRate: Int
    /// Samples per second, e.g. 44100.
    public var sampleRate: Int
    public var channels: Int
    /// Bits per sample of a lossless stream; 0 for lossy formats, which have none.
    public var bitDepth: Int

    public init(durationMilliseconds: Int, bitRate: Int, sampleRate: Int, channels: Int, bitDepth: Int = 0) {
        self.durationMilliseconds = durationMilliseconds
        self.bitRate = bitRate
        self.sampleRate = sampleRate
        self.channels = channels
        self.bitDepth = bitDepth
    }
}

/// What `AudioFileReader.read` finds in one file.
public struct AudioFileInfo: Sendable, Equatable {
    public var tags: AudioTags
    public var properties: AudioProperties

    public init(tags: AudioTags, properties: AudioProperties) {
        self.tags = tags
        self.properties = properties
    }
}

/// A file could not be read, written or generated; `reason` is a sentence a person can act on.
public struct AudioMetadataError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }
}
