import MusicCore
import Testing
