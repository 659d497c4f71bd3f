import CloudMusicTUI
import Testing

@Suite struct TerminalWidthTests {}
