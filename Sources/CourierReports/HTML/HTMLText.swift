/// Escaping for HTML text and double-quoted attribute values.
///
/// Everything a workflow or a server wrote goes through here before it reaches
/// the page, so a body holding `<script>` is shown as text and never runs.
enum HTMLText {
    /// Escapes `& < > " '` and replaces control characters (from binary or
    /// hostile bodies) other than tab and newline with U+FFFD.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\t", "\n": out.unicodeScalars.append(scalar)
            case "\r": out += "\u{21B5}"
            default:
                let v = scalar.value
                let control = v < 0x20 || (v >= 0x7F && v <= 0x9F) || (v >= 0xFDD0 && v <= 0xFDEF) || v & 0xFFFE == 0xFFFE
                out.unicodeScalars.append(control ? "\u{FFFD}" : scalar)
            }
        }
        return out
    }
}
