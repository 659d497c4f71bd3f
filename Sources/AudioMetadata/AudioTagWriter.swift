import Foundation

/// Writes tags into audio files through TagLib's property map.
public enum AudioTagWriter {
    /// Replaces the standard tags of the file at `path` with `tags` (absent values are removed);
    /// other tags in the file are kept.
    public static func write(_ tags: AudioTags, to path: String) throws(AudioMetadataError) {
        let file = try TagLibFile(path: path)
        func one(_ value: String?) -> [String] { value.map { [$0] } ?? [] }
        func pair(_ number: Int?, _ total: Int?) -> [String] {
            guard let number else { return [] }
            return [total.map { "\(number)/\($0)" } ?? "\(number)"]
        }
        let properties: [(key: String, values: [String])] = [
            ("TITLE", one(tags.title)),
            // One joined value: most formats (ID3v2.3, MP4) keep only one artist string.
            ("ARTIST", tags.artists.isEmpty ? [] : [tags.artists.joined(separator: "; ")]),
            ("ALBUM", one(tags.album)),
            ("ALBUMARTIST", tags.albumArtists.isEmpty ? [] : [tags.albumArtists.joined(separator: "; ")]),
            ("TRACKNUMBER", pair(tags.trackNumber, tags.trackTotal)),
            ("DISCNUMBER", pair(tags.discNumber, tags.discTotal)),
            ("DATE", tags.year.map { ["\($0)"] } ?? []),
            ("GENRE", tags.genres.isEmpty ? [] : [tags.genres.joined(separator: "; ")]),
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
