// CloudMusicServer
