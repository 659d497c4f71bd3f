/// How many terminal columns text takes (wcwidth): CJK and most emoji take two, combining marks none.
public enum TerminalWidth {}
