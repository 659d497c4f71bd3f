print("cloudmusic-server")
