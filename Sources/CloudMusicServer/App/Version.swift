/// The server's version, reported by `cloudmusic-server version` and `GET /v1/server`.
public enum CloudMusicVersion {
    public static let current = "0.1.0"
    public static let apiVersion = "v1"
}
