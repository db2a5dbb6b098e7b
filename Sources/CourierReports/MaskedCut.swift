import CourierDiagnostics
import CourierSecrets

/// Cutting shown values the masked way: mask first, then cut (``MaskingPolicy/maskThenCut(_:limit:isPrefix:)``),
/// with ``ShownText``'s "… (N more bytes)" marker.
package enum MaskedCut {
    package static func text(omitted: Int) -> String { ShownText.marker(omitted: omitted) }

    /// `text` masked and cut to `maxBytes`. A value that already ends in the
    /// marker (the engine cut it to the report budget) is a prefix: a secret
    /// cut off at its end loses its beginning too, and both cuts are counted.
    package static func cut(_ text: String, maxBytes: Int, policy: MaskingPolicy) -> String {
        var body = text
        var earlier = 0
        if text.hasSuffix(" more bytes)"), let open = text.range(of: "… (", options: .backwards) {
            let digits = text[open.upperBound...].prefix { $0.isASCII && $0.isNumber }
            if let count = Int(digits), text[open.lowerBound...] == ShownText.marker(omitted: count) {
                earlier = count
                body = String(text[..<open.lowerBound])
            }
        }
        let cut = policy.maskThenCut(body, limit: maxBytes, isPrefix: earlier > 0)
        let omitted = earlier + cut.omittedBytes
        return omitted > 0 ? cut.text + ShownText.marker(omitted: omitted) : cut.text
    }
}
