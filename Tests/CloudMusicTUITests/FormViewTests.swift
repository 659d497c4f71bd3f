import CloudMusicTUI
import Testing

@Suite struct FormViewTests {
    static let fields = [
        FormView.Field(label: "Phone", value: "13800000000"),
        FormView.Field(label: "Password", value: "secret12", secret: true),
    ]
    static let hint = "Tab next field · Enter submit · Ctrl-R register/login"

    func render(
        fields: [FormView.Field] = Self.fields, focused: Int = 1, message: String? = "Wrong password",
        error: Bool = true, width: Int = 80, height: Int = 24
    ) -> [Line] {
        FormView.render(
            title: "Log in", fields: fields, focused: focused, message: message, messageIsError: error,
            hint: Self.hint, width: width, height: height)
    }

    @Test func boxedFormIsCentredWithMaskedSecretAndCursor() {
        let screen = render()
        ViewTest.expectShape(screen, width: 80, height: 24)
        let margin = String(repeating: " ", count: 10)
        func boxed(_ inner: String) -> String {
            margin + "│ " + TerminalWidth.pad(inner, to: 56) + " │" + margin
        }
        // Box of 7 rows plus the hint, centred: rows 8...15.
        #expect((0..<8).allSatisfy { ViewTest.isBlank(screen[$0]) })
        #expect(screen[8].text == margin + "┌─ Log in " + String(repeating: "─", count: 49) + "┐" + margin)
        #expect(screen[8].contains(StyledSpan("Log in", .accent)))
        #expect(screen[9].text == boxed(""))
        #expect(screen[10].text == boxed("  Phone    13800000000"))
        #expect(screen[11].text == boxed("› Password ••••••••▏"))
        #expect(screen[12].text == boxed(""))
        #expect(screen[13].text == boxed("Wrong password"))
        #expect(screen[13].contains { $0.style == .error && $0.text.hasPrefix("Wrong password") })
        #expect(screen[14].text == margin + "└" + String(repeating: "─", count: 58) + "┘" + margin)
        #expect(screen[15] == [StyledSpan(TerminalWidth.pad(Self.hint, to: 80, alignment: .center), .dim)])
        #expect(!screen.contains { $0.text.contains("secret") })
        #expect(screen[11].contains(StyledSpan("••••••••", .highlight)))
    }

    @Test func focusMovesTheMarkerAndCursorAndInfoMessagesAreDim() {
        let screen = render(focused: 0, message: "Code sent", error: false)
        #expect(screen[10].text.contains("│ › Phone    13800000000▏"))
        #expect(screen[11].text.contains("│   Password ••••••••   "))
        #expect(!screen[11].text.contains("▏"))
        #expect(ViewTest.text(in: screen[13], .dim).contains("│ Code sent "))
        // A secret counts characters, not bytes or columns.
        let cjk = render(fields: [.init(label: "密码", value: "密码🔒", secret: true)], focused: 0)
        #expect(cjk.contains { $0.text.contains("› 密码 •••▏") })
    }

    @Test func smallTerminalsDropTheBoxAndKeepTheFocusedField() {
        let small = render(width: 15, height: 3)
        #expect(small.map(\.text) == ["  Phone 138000…", "› Pass… …•••••▏", "Wrong password "])
        let one = render(width: 15, height: 1)
        #expect(one.map(\.text) == ["› Pass… …•••••▏"])
        let roomy = render(message: nil, width: 30, height: 4)
        #expect(
            roomy.map(ViewTest.trimmed) == [
                "Log in", "  Phone    13800000000", "› Password ••••••••▏", "Tab next field · Enter submit…",
            ])
    }

    @Test func everySizeIsExact() {
        let messy =
            Self.fields + [FormView.Field(label: ViewTest.messy, value: ViewTest.messy, secret: false)]
        for (width, height) in ViewTest.sizes {
            for focused in [0, 2, 7] {
                for message in [nil, ViewTest.messy + ViewTest.messy] {
                    ViewTest.expectShape(
                        render(
                            fields: messy, focused: focused, message: message, width: width, height: height),
                        width: width, height: height, "form")
                }
            }
        }
    }
}
