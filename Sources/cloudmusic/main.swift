print("cloudmusic")
