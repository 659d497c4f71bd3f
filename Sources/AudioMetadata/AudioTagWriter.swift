import Foundation

/// Writes tags into audio files through TagLib's property map.
public enum AudioTagWriter {
    /// Replaces the standard tags of the file at `path` with `tags` (absent values are removed);
    /// other tags in the file are kept.
    public static func write(_ tags: AudioTags, to path: String) throws(AudioMetadataError) {
        // The reader's checks first (a FIFO would block TagLib forever), and never write a tag
        // into something that is not audio (a text file named .mp3): TagLib would add one.
        let file = try AudioFileReader.open(path)
        _ = try AudioFileReader.audioStream(of: file)
        // TagLib takes C strings, so a NUL would silently cut a value short; the reader drops NULs,
        // so the writer does too, and a value that is nothing but NULs is absent.
        func one(_ value: String?) -> [String] {
            guard let value else { return [] }
            let clean = value.contains("\0") ? value.replacingOccurrences(of: "\0", with: "") : value
            return clean.isEmpty ? [] : [clean]
        }
        func joined(_ list: [String]) -> [String] { one(list.isEmpty ? nil : list.joined(separator: "; ")) }
        func pair(_ number: Int?, _ total: Int?) -> [String] {
            guard let number else { return [] }
            return [total.map { "\(number)/\($0)" } ?? "\(number)"]
        }
        let properties: [(key: String, values: [String])] = [
            ("TITLE", one(tags.title)),
            // One joined value: most formats (ID3v2.3, MP4) keep only one artist string.
            ("ARTIST", joined(tags.artists)),
            ("ALBUM", one(tags.album)),
            ("ALBUMARTIST", joined(tags.albumArtists)),
            ("TRACKNUMBER", pair(tags.trackNumber, tags.trackTotal)),
            ("DISCNUMBER", pair(tags.discNumber, tags.discTotal)),
            ("DATE", tags.year.map { ["\($0)"] } ?? []),
            ("GENRE", joined(tags.genres)),
            ("COMPILATION", tags.isCompilation ? ["1"] : []),
            ("LYRICS", one(tags.lyrics)),
            ("MUSICBRAINZ_TRACKID", one(tags.musicBrainzTrackID)),
            ("MUSICBRAINZ_ALBUMID", one(tags.musicBrainzAlbumID)),
            ("MUSICBRAINZ_ARTISTID", one(tags.musicBrainzArtistID)),
        ]
        guard file.replace(properties) else {
            throw AudioMetadataError(path: path, reason: "this file format cannot store some of these tags")
        }
        try file.save()
    }
}
