/// One audio file of an audiobook: its tags as TagLib names them, and its length.
public struct AudiobookFile: Sendable, Equatable {
    /// Every tag with all its values, keys upper case ("TITLE", "ALBUM", "COMPOSER", "NARRATOR", ...).
    public var properties: [String: [String]]
    public var durationMilliseconds: Int

    /// File name extensions (lower case) of a book's parts: the music formats and `.m4b`.
    public static let extensions = AudioFileReader.supportedExtensions.union(["m4b"])

    /// Reads one part; throws for anything that is not a readable audio file.
    public static func read(path: String) throws(AudioMetadataError) -> AudiobookFile {
        let file = try AudioFileReader.open(path, extensions: extensions)
        let properties = try AudioFileReader.audioStream(of: file)
        return AudiobookFile(
            properties: file.allProperties, durationMilliseconds: properties.durationMilliseconds)
    }

    /// The first non-empty value of the first of `keys` present, cleaned and at most 1 KB.
    public func first(_ keys: String...) -> String? {
        for key in keys {
            for value in properties[key] ?? [] {
                if let clean = AudioFileReader.clean(value, limit: AudioFileReader.maximumTagBytes) {
                    return clean
                }
            }
        }
        return nil
    }

    /// A long text (a description), at most 64 KB.
    public func long(_ keys: String...) -> String? {
        for key in keys {
            for value in properties[key] ?? [] {
                if let clean = AudioFileReader.clean(value, limit: AudioFileReader.maximumLyricsBytes) {
                    return clean
                }
            }
        }
        return nil
    }

    /// The year of the DATE tag.
    public var year: Int? { AudioFileReader.year(first("DATE", "YEAR", "ORIGINALDATE")) }
}
