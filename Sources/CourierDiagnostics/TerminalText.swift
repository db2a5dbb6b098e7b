/// Text for a console: what is shown, and Courier's own terminal controls (colour,
/// erasing the status line) between it.
///
/// Shown text may come from anywhere — a response body, a header, a step name a
/// server's value filled in, a workflow file — and may hold escape sequences that move
/// the cursor, clear the screen or set the window title (`ESC[1A`, `ESC[2J`, OSC). Only
/// the controls Courier writes itself are pieces of their own; the console's door
/// (`ConsoleWriter`) masks each text piece and then shows its control characters as
/// escapes (``escapingControls(_:)``), so a server can erase no `FAIL` line and
/// print no `PASS` line of its own.
///
///     var line: TerminalText = "  "
///     line += .styled("FAIL", .boldRed, when: color)
///     line += " \(name)\n"   // `name` is text, whatever it holds
package struct TerminalText: Sendable, Equatable, ExpressibleByStringInterpolation {
    package enum Piece: Sendable, Equatable {
        case text(String)
        case control(TerminalControl)
    }

    /// Adjacent text is kept as one piece: without colour a block is one text, masked whole.
    package private(set) var pieces: [Piece] = []

    package init() {}

    package init(_ text: String) {
        append(text)
    }

    package init(stringLiteral value: String) {
        self.init(value)
    }

    package init(stringInterpolation: Interpolation) {
        self = stringInterpolation.text
    }

    package struct Interpolation: StringInterpolationProtocol {
        var text = TerminalText()
        package init(literalCapacity: Int, interpolationCount: Int) {}
        package mutating func appendLiteral(_ literal: String) { text.append(literal) }
        package mutating func appendInterpolation(_ value: TerminalText) { text.append(value) }
        package mutating func appendInterpolation(_ value: some CustomStringConvertible) { text.append(value.description) }
    }

    /// `text` between `style` and a reset when `color`, else `text` alone.
    package static func styled(_ text: TerminalText, _ style: TerminalControl, when color: Bool) -> TerminalText {
        guard color else { return text }
        var out = TerminalText()
        out.pieces.append(.control(style))
        out.append(text)
        out.pieces.append(.control(.reset))
        return out
    }

    package static func control(_ control: TerminalControl) -> TerminalText {
        var out = TerminalText()
        out.pieces.append(.control(control))
        return out
    }

    package var isEmpty: Bool { pieces.isEmpty }

    /// The text without any control: for a report, a test, a width.
    package var plainText: String {
        var out = ""
        for case .text(let text) in pieces { out += text }
        return out
    }

    package mutating func append(_ text: String) {
        guard !text.isEmpty else { return }
        if case .text(let last)? = pieces.last {
            pieces[pieces.count - 1] = .text(last + text)
        } else {
            pieces.append(.text(text))
        }
    }

    package mutating func append(_ other: TerminalText) {
        for piece in other.pieces {
            switch piece {
            case .text(let text): append(text)
            case .control: pieces.append(piece)
            }
        }
    }

    package static func + (lhs: TerminalText, rhs: TerminalText) -> TerminalText {
        var out = lhs
        out.append(rhs)
        return out
    }

    package static func += (lhs: inout TerminalText, rhs: TerminalText) {
        lhs.append(rhs)
    }

    package static func += (lhs: inout TerminalText, rhs: String) {
        lhs.append(rhs)
    }

    /// The bytes for the terminal: each text piece passed through `mask` first (so a
    /// secret holding ESC is still found, and `***` is never split), then its control
    /// characters escaped; Courier's own controls as they are.
    package func written(masking mask: (String) -> String) -> String {
        var out = ""
        for piece in pieces {
            switch piece {
            case .text(let text): out += Self.escapingControls(mask(text))
            case .control(let control): out += control.sequence
            }
        }
        return out
    }

    // MARK: - Escaping

    /// `text` with every C0 control but tab and line feed, DEL and every C1 control
    /// written as `\u001b`: visible, and inert on a terminal.
    package static func escapingControls(_ text: String) -> String {
        // Most text holds none: one pass over the bytes, and the text itself is returned.
        guard text.utf8.contains(where: isControlByte) || containsC1(text.utf8) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            if isShownEscaped(scalar) {
                out += "\\u"
                let hex = String(scalar.value, radix: 16)
                out += String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    package static func isShownEscaped(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A: false
        case 0x00...0x1F, 0x7F...0x9F: true
        default: false
        }
    }

    private static func isControlByte(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != 0x09 && byte != 0x0A) || byte == 0x7F
    }

    /// C1 controls are U+0080…U+009F: `C2 80`…`C2 9F` in UTF-8.
    private static func containsC1(_ bytes: String.UTF8View) -> Bool {
        var afterC2 = false
        for byte in bytes {
            if afterC2 && (0x80...0x9F).contains(byte) { return true }
            afterC2 = byte == 0xC2
        }
        return false
    }
}

/// The terminal controls Courier writes itself: a closed list, so nothing else
/// reaches a terminal raw.
package enum TerminalControl: Sendable, Equatable {
    case bold, dim, red, green, blue, boldRed, boldGreen, boldMagenta, boldCyan
    case reset
    /// Carriage return, then erase the line: where a status line was.
    case eraseLine

    package var sequence: String {
        switch self {
        case .bold: "\u{1B}[1m"
        case .dim: "\u{1B}[2m"
        case .red: "\u{1B}[31m"
        case .green: "\u{1B}[32m"
        case .blue: "\u{1B}[34m"
        case .boldRed: "\u{1B}[1;31m"
        case .boldGreen: "\u{1B}[1;32m"
        case .boldMagenta: "\u{1B}[1;35m"
        case .boldCyan: "\u{1B}[1;36m"
        case .reset: "\u{1B}[0m"
        case .eraseLine: "\r\u{1B}[2K"
        }
    }
}
