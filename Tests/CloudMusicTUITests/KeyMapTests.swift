import Testing

@testable import CloudMusicTUI

@Suite struct KeyMapTests {
    @Test func defaultsResolve() {
        let keys = KeyMap()
        #expect(keys.command(for: .space) == .playPause)
        #expect(keys.command(for: .character("/")) == .search)
        #expect(keys.command(for: .character("3")) == .search)
        #expect(keys.command(for: .enter) == .play)
        #expect(keys.command(for: .escape) == .back)
        #expect(keys.command(for: .backspace) == .back)
        #expect(keys.command(for: .character("q")) == .quit)
        #expect(keys.command(for: .character("K")) == .moveUp)
        #expect(keys.command(for: .character("k")) == .up)
        #expect(keys.command(for: .control("r")) == .refresh)
        #expect(keys.command(for: .function(1)) == .help)
        #expect(keys.command(for: .character("z")) == nil)
        #expect(keys.command(for: .function(5)) == nil)
    }

    @Test func noTwoDefaultCommandsShareAKey() {
        var seen: [Key: Command] = [:]
        for command in Command.allCases {
            for key in KeyMap.defaults[command] ?? [] {
                #expect(seen[key] == nil, "\(key) is both \(seen[key].map { "\($0)" } ?? "") and \(command)")
                seen[key] = command
            }
        }
    }

    @Test func everyCommandHasADefaultKeyASummaryAndASection() {
        let keys = KeyMap()
        for command in Command.allCases {
            let bound = KeyMap.defaults[command] ?? []
            #expect(!bound.isEmpty, "\(command)")
            for key in bound { #expect(keys.command(for: key) == command, "\(command)") }
            #expect(!command.summary.isEmpty, "\(command)")
            #expect(!command.section.isEmpty, "\(command)")
            #expect(!keys.label(command).isEmpty, "\(command)")
        }
        #expect(
            Set(Command.allCases.map(\.section)) == [
                "Playback", "Screens", "Lists", "Queue and downloads", "Comments and messages",
            ])
    }

    @Test func configNamesAreTheRawValues() {
        #expect(Command(rawValue: "play_pause") == .playPause)
        #expect(Command(rawValue: "seek_back") == .seekBack)
        #expect(Command(rawValue: "my_music") == .myMusic)
        #expect(Command(rawValue: "next") == .next)
        #expect(Set(Command.allCases.map(\.rawValue)).count == Command.allCases.count)
    }

    @Test func overridesReplaceACommandsKeys() {
        let keys = KeyMap(overrides: [
            .playPause: [.character("x")], .quit: [.control("q"), .character("Q")],
        ])
        #expect(keys.keys[.playPause] == [.character("x")])
        #expect(keys.command(for: .space) == nil)
        // playPause is listed before remove, so x plays or pauses; Delete still removes.
        #expect(keys.command(for: .character("x")) == .playPause)
        #expect(keys.command(for: .delete) == .remove)
        #expect(keys.command(for: .character("q")) == nil)
        #expect(keys.command(for: .control("q")) == .quit)
        #expect(keys.command(for: .character("Q")) == .quit)
        #expect(keys.label(.quit) == "Ctrl-Q Q")
        // Commands not named keep their defaults.
        #expect(keys.command(for: .character("n")) == .next)
        #expect(keys != KeyMap())
        #expect(KeyMap(overrides: [:]) == KeyMap())
    }

    @Test func anOverrideWinsOverADefaultOnTheSameKey() {
        // `remove = n` in the config: the person asked for n to remove, and x and Delete no longer do.
        let keys = KeyMap(overrides: [.remove: [.character("n")]])
        #expect(keys.command(for: .character("x")) == nil)
        #expect(keys.command(for: .character("n")) == .remove)
    }

    @Test func anOverriddenKeyDrivesTheApp() {
        var state = AppFixture.playing([AppFixture.song("s1")])
        state.keyMap = KeyMap(overrides: [.playPause: [.character("x")]])
        #expect(state.press(.space) == [])
        #expect(state.press(.character("x")) == [.togglePlayPause])
    }

    @Test(arguments: [
        (Key.space, "Space"), (.enter, "Enter"), (.tab, "Tab"), (.backTab, "Shift-Tab"),
        (.backspace, "Backspace"),
        (.delete, "Delete"), (.escape, "Esc"), (.left, "←"), (.right, "→"), (.up, "↑"), (.down, "↓"),
        (.pageUp, "PgUp"), (.pageDown, "PgDn"), (.home, "Home"), (.end, "End"), (.function(1), "F1"),
        (.function(12), "F12"), (.control("r"), "Ctrl-R"), (.character("n"), "n"), (.character("晴"), "晴"),
    ])
    func keyLabels(key: Key, label: String) {
        #expect(KeyMap.label(key) == label)
    }

    @Test func commandLabelsJoinTheirKeys() {
        let keys = KeyMap()
        #expect(keys.label(.playPause) == "Space")
        #expect(keys.label(.search) == "/ 3")
        #expect(keys.label(.seekBack) == "←")
        #expect(keys.label(.refresh) == "Ctrl-R")
        #expect(keys.label(.help) == "? F1")
        #expect(keys.label(.back) == "Esc Backspace")
        #expect(keys.label(.volumeUp) == "+ =")
    }
}
