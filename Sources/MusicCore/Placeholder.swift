// MusicCore
