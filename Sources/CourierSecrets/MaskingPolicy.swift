/// What every output of a run goes through: replaces each secret, in every
/// form ``SecretForms`` derives, by `***`.
///
/// Applied to the final bytes of an output (a console line, a whole report),
/// after rendering, so no escaping or encoding a reporter adds can hide a form
/// from it. Forms are looked for in the decoded view of the text
/// (``EscapeDecoding``), so a server's own re-quoting of any part of a secret
/// (`p@ss%20word-1`, `p@ss\u0020word-1`) hides it no better. Masking masked text
/// again changes nothing: `***` holds no secret.
/// Immutable: a ``SecretRegistry`` compiles a new policy after registrations.
///
///     let registry = SecretRegistry()
///     registry.register("p@ss word-1", name: "password")
///     registry.policy.mask("url: /login?p=p@ss%20word-1")   // "url: /login?p=***"
package struct MaskingPolicy: Sendable {
    /// What a secret is replaced with.
    package static let mask = "***"

    /// A policy that masks nothing (no secret registered).
    package static let empty = MaskingPolicy(secrets: [])

    /// The registered values and their names (`secrets:` key), in order.
    package let secrets: [(value: String, name: String?)]
    /// One matcher per generation of registrations (see ``SecretRegistry``): a
    /// value registered late does not make every earlier one be compiled again.
    private let matchers: [SecretMatcher]

    package init(secrets: [(value: String, name: String?)]) {
        self.init(secrets: secrets, matchers: [Self.matcher(for: secrets[...])])
    }

    init(secrets: [(value: String, name: String?)], matchers: [SecretMatcher]) {
        self.secrets = secrets
        self.matchers = matchers.filter { !$0.isEmpty }
        longestForm = self.matchers.map(\.longestPattern).max() ?? 0
    }

    /// A matcher for every form of every value in `secrets`, searched in the decoded view of a
    /// text (see ``EscapeDecoding``); a short secret's value as written only.
    static func matcher(for secrets: ArraySlice<(value: String, name: String?)>) -> SecretMatcher {
        var decoded: [[UInt8]] = [], raw: [[UInt8]] = []
        var seen = Set<[UInt8]>()
        for secret in secrets {
            let forms = SecretForms.forms(of: secret.value)
            if secret.value.count < SecretForms.minimumLength {
                raw += forms.map { Array($0.utf8) }
                continue
            }
            for form in forms {
                let patterns = EscapeDecoding.patterns(for: Array(form.utf8), minimumBytes: SecretForms.minimumFormBytes)
                for pattern in patterns.decoded where seen.insert(pattern).inserted { decoded.append(pattern) }
                if let pattern = patterns.raw { raw.append(pattern) }
            }
        }
        return SecretMatcher(decoded: decoded, raw: raw)
    }

    package var isEmpty: Bool { matchers.isEmpty }

    /// How many bytes of a text a form spans at most, escapes of the decoded view included:
    /// a writer streaming one text in several writes holds back this many bytes less one, so
    /// no form straddles two.
    package let longestForm: Int

    /// Every byte range covered by a form, sorted and joined.
    private func coveredRanges(in input: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        matchers.reduce([]) { SecretMatcher.merged($0, $1.coveredRanges(in: input)) }
    }

    /// The longest end of `window` that begins some form.
    private func partialMatchLength(atEndOf window: UnsafeBufferPointer<UInt8>) -> Int {
        matchers.map { $0.partialMatchLength(atEndOf: window) }.max() ?? 0
    }

    // MARK: - Masking

    package func mask(_ text: String) -> String {
        guard !isEmpty else { return text }
        var text = text
        let result: Masked? = text.withUTF8 { masked($0) }
        return result.map { String(decoding: $0.bytes, as: UTF8.self) } ?? text
    }

    package func mask(_ bytes: [UInt8]) -> [UInt8] {
        guard !isEmpty else { return bytes }
        return bytes.withUnsafeBufferPointer { masked($0) }?.bytes ?? bytes
    }

    /// `text` with every form replaced by `replacement` instead of `***` (the `Courier`
    /// library's `<redacted>`): the same matching, another placeholder.
    package func mask(_ text: String, replacement: String) -> String {
        guard !isEmpty else { return text }
        var text = text
        let result: Masked? = text.withUTF8 { masked($0, replacement: Array(replacement.utf8)) }
        return result.map { String(decoding: $0.bytes, as: UTF8.self) } ?? text
    }

    /// The masked bytes, and where each replacement landed: `(masked offset, original range)`.
    /// Nil when nothing matched.
    private func masked(_ input: UnsafeBufferPointer<UInt8>, replacement: [UInt8] = Array(MaskingPolicy.mask.utf8)) -> Masked? {
        let ranges = SecretMatcher.merged(coveredRanges(in: input), cutSecrets(in: input))
        guard !ranges.isEmpty else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(input.count)
        var replaced: [(at: Int, original: Range<Int>)] = []
        var position = 0
        for range in ranges {
            out.append(contentsOf: UnsafeBufferPointer(rebasing: input[position..<range.lowerBound]))
            replaced.append((out.count, range))
            out.append(contentsOf: replacement)
            position = range.upperBound
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: input[position...]))
        return Masked(bytes: out, replaced: replaced)
    }

    /// The ellipsis that ends every cut value (`… (N more bytes)`, a preview's `…`).
    private static let cutMarker: [UInt8] = Array("…".utf8)
    /// Shortest beginning of a form masked before a cut marker: shorter ones are
    /// too common in ordinary text (every hex digit starts some hex form).
    package static let minimumCutPrefix = 4

    /// Beginnings of forms right before a cut marker: text cut before it reached
    /// this policy (the engine shortens values in messages) shows no first
    /// characters of a secret either.
    private func cutSecrets(in input: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        let marker = Self.cutMarker
        var found: [Range<Int>] = []
        var index = 0
        while index + marker.count <= input.count {
            if input[index] == marker[0] && input[index + 1] == marker[1] && input[index + 2] == marker[2] {
                let window = UnsafeBufferPointer(rebasing: input[max(0, index - longestForm)..<index])
                let partial = partialMatchLength(atEndOf: window)
                if partial >= Self.minimumCutPrefix { found.append((index - partial)..<index) }
                index += marker.count
            } else {
                index += 1
            }
        }
        return found
    }

    private struct Masked {
        var bytes: [UInt8]
        var replaced: [(at: Int, original: Range<Int>)]
    }

    // MARK: - Mask, then cut

    /// A text masked and cut to a budget.
    package struct Cut: Sendable, Equatable {
        /// The masked text, at most `limit` bytes.
        package var text: String
        /// How many bytes of the input (before masking) the cut left out; 0 when nothing was cut.
        package var omittedBytes: Int
    }

    /// Masks `text`, then cuts it to at most `limit` UTF-8 bytes on a character
    /// boundary, never inside a `***` and never after the beginning of a form
    /// (a secret cut in the middle would show its first characters).
    ///
    /// `isPrefix`: `text` is already the beginning of something longer (a body
    /// cut before it got here): its end is a cut too, and is treated as one.
    ///
    ///     policy.maskThenCut("token=abcd1234", limit: 9)   // "token=" (abcd1234 registered)
    package func maskThenCut(_ text: String, limit: Int, isPrefix: Bool = false) -> Cut {
        // Nothing to mask and nothing to cut: the text as it is (every small response body).
        if isEmpty && !isPrefix && text.utf8.count <= limit { return Cut(text: text, omittedBytes: 0) }
        var text = text
        return text.withUTF8 { input in
            let result = masked(input)
            let bytes = result?.bytes ?? Array(input)
            let replaced = result?.replaced ?? []
            let limit = max(0, limit)
            if bytes.count <= limit && !isPrefix {
                return Cut(text: String(decoding: bytes, as: UTF8.self), omittedBytes: 0)
            }
            var end = min(limit, bytes.count)
            end = boundary(before: end, in: bytes, replaced: replaced)
            // A form begun but cut off shows its first characters: cut before it.
            let window = max(0, end - longestForm)
            let partial = bytes.withUnsafeBufferPointer { all in
                partialMatchLength(atEndOf: UnsafeBufferPointer(rebasing: all[window..<end]))
            }
            if partial > 0 { end = boundary(before: end - partial, in: bytes, replaced: replaced) }
            let kept = originalOffset(of: end, replaced: replaced)
            return Cut(text: String(decoding: bytes[..<end], as: UTF8.self), omittedBytes: input.count - kept)
        }
    }

    /// `end` moved back to the start of a UTF-8 sequence, and out of a `***`.
    private func boundary(before end: Int, in bytes: [UInt8], replaced: [(at: Int, original: Range<Int>)]) -> Int {
        var end = end
        while end > 0 && end < bytes.count && bytes[end] & 0xC0 == 0x80 { end -= 1 }
        let maskLength = Self.mask.utf8.count
        if let inside = replaced.last(where: { $0.at < end && end < $0.at + maskLength }) { end = inside.at }
        return end
    }

    /// Where a position of the masked text (outside any `***`) was in the input.
    private func originalOffset(of position: Int, replaced: [(at: Int, original: Range<Int>)]) -> Int {
        let maskLength = Self.mask.utf8.count
        guard let last = replaced.last(where: { $0.at + maskLength <= position }) else { return position }
        return last.original.upperBound + (position - last.at - maskLength)
    }

    // MARK: - Names

    /// The name a secret was declared with (`secrets: { api_key: … }`), for
    /// output that names rather than hides it (`$COURIER_SECRET_API_KEY`).
    package func name(of value: String) -> String? {
        secrets.first { $0.value == value }?.name ?? nil
    }

    /// `COURIER_SECRET_API_KEY` for `api_key`: upper case, anything but letters and digits as `_`.
    package static func shellVariable(forName name: String) -> String {
        "COURIER_SECRET_" + String(name.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)) ? Character(String(scalar).uppercased()) : "_"
        })
    }
}
