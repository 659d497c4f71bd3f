/// A category of the discovery screens: a genre of the library with a picture and what it holds.
public struct Category: Codable, Sendable, Equatable, Identifiable {
    /// The genre's id (`GET v1/songs?genre=` takes it).
    public var id: String
    public var name: String
    /// The cover of the genre's most played album (most songs when nothing was played), or nil.
    public var icon: String?
    public var songsCount: Int
    /// Albums with at least one song of the genre.
    public var albumsCount: Int
    /// Public sheets tagged with the genre's name (`GET v1/sheets?tag=` lists them).
    public var sheetsCount: Int

    public init(id: String, name: String, icon: String?, songsCount: Int, albumsCount: Int, sheetsCount: Int)
    {
        self.id = id
        self.name = name
        self.icon = icon
        self.songsCount = songsCount
        self.albumsCount = albumsCount
        self.sheetsCount = sheetsCount
    }
}
