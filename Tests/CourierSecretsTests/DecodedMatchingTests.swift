@testable import CourierSecrets
import Foundation
import Testing

/// Issue 21: secrets are matched on the decoded view of a text, so a server that re-quotes
/// or re-escapes any part of a value in its own way (werkzeug, Go, .NET) leaks nothing.
@Suite struct DecodedMatchingTests {
    // MARK: - The matrix

    /// The character classes the matrix encodes independently.
    enum CharacterClass: CaseIterable {
        case unreserved, generalDelimiters, subDelimiters, space, quotes, markup, nonASCII

        func contains(_ scalar: Unicode.Scalar) -> Bool {
            switch self {
            case .unreserved: return scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-._~".unicodeScalars.contains(scalar))
            case .generalDelimiters: return "/:@".unicodeScalars.contains(scalar)
            case .subDelimiters: return "&=+;".unicodeScalars.contains(scalar)
            case .space: return scalar == " "
            case .quotes: return "\"'".unicodeScalars.contains(scalar)
            case .markup: return "<>&".unicodeScalars.contains(scalar)
            case .nonASCII: return !scalar.isASCII
            }
        }
    }

    /// How an encoded character is written.
    enum Encoding: String, CaseIterable {
        case percentUpper, percentLower, formPlus, jsonLower, jsonUpper, htmlDecimal, htmlHex, percentAndJSON

        /// `scalar` encoded; `index` picks the escape of a mix.
        func encode(_ scalar: Unicode.Scalar, index: Int) -> String {
            switch self {
            case .percentUpper: return Self.percent(scalar, upper: true)
            case .percentLower: return Self.percent(scalar, upper: false)
            case .formPlus: return scalar == " " ? "+" : Self.percent(scalar, upper: true)
            case .jsonLower: return Self.json(scalar, upper: false)
            case .jsonUpper: return Self.json(scalar, upper: true)
            case .htmlDecimal: return "&#\(scalar.value);"
            case .htmlHex: return "&#x\(String(scalar.value, radix: 16));"
            case .percentAndJSON:
                return [Self.percent(scalar, upper: true), Self.json(scalar, upper: false),
                        Self.percent(scalar, upper: false), Self.json(scalar, upper: true)][index % 4]
            }
        }

        static func percent(_ scalar: Unicode.Scalar, upper: Bool) -> String {
            String(scalar).utf8.map { String(format: upper ? "%%%02X" : "%%%02x", $0) }.joined()
        }

        static func json(_ scalar: Unicode.Scalar, upper: Bool) -> String {
            String(scalar).utf16.map { String(format: upper ? "\\u%04X" : "\\u%04x", $0) }.joined()
        }
    }

    /// The canaries of the suite: every class above, a newline, a character beyond U+FFFF.
    static let canaries = [
        "Cn21aq7Vbz \"x@y+z/a&b<c\u{E4}\nd-ok",
        "K3y-_.~ /:@ &=+; \"' <>& \u{E4}\u{FC}\u{20AC}\u{1F511} end",
        "p@ss w0rd&x=1",
        "dGhpcy9pcytrZXk9PQ==/+abc:@",
    ]

    static func encoded(_ value: String, classes: Set<CharacterClass>, as encoding: Encoding) -> String {
        var out = ""
        for (index, scalar) in value.unicodeScalars.enumerated() {
            if classes.contains(where: { $0.contains(scalar) }) {
                out += encoding.encode(scalar, index: index)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func subsets() -> [Set<CharacterClass>] {
        let all = CharacterClass.allCases
        return (0..<(1 << all.count)).map { bits in Set(all.indices.filter { bits & (1 << $0) != 0 }.map { all[$0] }) }
    }

    @Test("every class left as is or encoded, independently, in every encoding and mix", arguments: canaries)
    func matrix(_ canary: String) {
        let policy = MaskingPolicy(secrets: [(value: canary, name: nil)])
        var failures: [String] = []
        for encoding in Encoding.allCases {
            for classes in Self.subsets() {
                let text = Self.encoded(canary, classes: classes, as: encoding)
                let masked = policy.mask("<<" + text + ">>")
                if masked != "<<***>>" { failures.append("\(encoding) \(classes.map { "\($0)" }.sorted()): \(text) → \(masked)") }
            }
        }
        #expect(failures.isEmpty, "\(failures.count) of \(Encoding.allCases.count * 128) leaked, first: \(failures.prefix(5).joined(separator: "\n"))")
    }

    @Test("each character written in its own escape: percent, JSON, entities mixed by position")
    func everyEscapeMixed() {
        let canary = Self.canaries[1]
        let policy = MaskingPolicy(secrets: [(value: canary, name: nil)])
        let escapes: [(Unicode.Scalar) -> String] = [
            { String($0) }, { Encoding.percent($0, upper: true) }, { Encoding.json($0, upper: false) },
            { "&#\($0.value);" }, { Encoding.percent($0, upper: false) }, { "&#X\(String($0.value, radix: 16, uppercase: true));" },
            { Encoding.json($0, upper: true) },
        ]
        for rotation in escapes.indices {
            var text = ""
            for (index, scalar) in canary.unicodeScalars.enumerated() { text += escapes[(index + rotation) % escapes.count](scalar) }
            #expect(policy.mask("[" + text + "]") == "[***]", "\(text)")
        }
    }

    /// xorshift64: the same sequence every run.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return state
        }
    }

    @Test("an encoded secret between random escape-heavy text: gone from the text and from its decoded view")
    func randomNeighbours() {
        var random = Generator(state: 0x2545F4914F6CDD1D)
        let noise = ["%", "%2", "%4", "%41", "\\", "\\u", "\\u00", "\\n", "&", "&#", "&#3", "&amp;", "+", " ", "a", "3", "f", ";", "#", "x"]
        let secrets = Self.canaries + ["3fa8c9d2e1b04477", "s3cret-value%", "npm_Tok3nValue", "#12;abc-def", "u0041-zzzz"]
        for secret in secrets {
            let policy = MaskingPolicy(secrets: [(value: secret, name: nil)])
            let decodedSecret = EscapeDecoding.decoded(Array(secret.utf8))
            for _ in 0..<300 {
                let encoding = Encoding.allCases.randomElement(using: &random)!
                var encoded = ""
                for (index, scalar) in secret.unicodeScalars.enumerated() {
                    encoded += Bool.random(using: &random) ? encoding.encode(scalar, index: index) : String(scalar)
                }
                let before = (0..<Int.random(in: 0...4, using: &random)).map { _ in noise.randomElement(using: &random)! }.joined()
                let after = (0..<Int.random(in: 0...4, using: &random)).map { _ in noise.randomElement(using: &random)! }.joined()
                let masked = policy.mask(before + encoded + after)
                #expect(!masked.contains(encoded), "\(before + encoded + after) → \(masked)")
                let view = EscapeDecoding.decoded(Array(masked.utf8))
                #expect(!view.starts(with: decodedSecret) && LeakSearch.firstIndex(of: decodedSecret, in: view) == nil,
                        "\(before + encoded + after) → \(masked)")
            }
        }
    }

    // MARK: - The echo styles of issue 21

    @Test("werkzeug's re-quoted URL: / : @ kept, space and & = + encoded")
    func werkzeug() {
        let policy = MaskingPolicy(secrets: [(value: "p@ss w0rd&x=1", name: nil)])
        #expect(policy.mask("GET /echo?p=p@ss%20w0rd%26x%3D1 HTTP/1.1") == "GET /echo?p=*** HTTP/1.1")
        #expect(policy.mask("url: http://h/echo?p=p@ss%20w0rd%26x%3d1&y=2") == "url: http://h/echo?p=***&y=2")
        let key = MaskingPolicy(secrets: [(value: "ab/cd+ef==:gh@ij&k", name: nil)])
        #expect(key.mask("?k=ab/cd%2Bef%3D%3D:gh@ij%26k") == "?k=***")
    }

    @Test("Go's and .NET's JSON: \\u0026 \\u003c \\u003e \\u0027 \\u002B in either case")
    func goAndDotNet() {
        let secret = "a&b<c>d'e+f-1234"
        let policy = MaskingPolicy(secrets: [(value: secret, name: nil)])
        #expect(policy.mask(#"{"v":"a\u0026b\u003cc\u003ed'e+f-1234"}"#) == #"{"v":"***"}"#)
        #expect(policy.mask(#"{"v":"a\u0026b\u003Cc\u003Ed\u0027e\u002Bf-1234"}"#) == #"{"v":"***"}"#)
        #expect(policy.mask(#"{"v":"a\U0026b"}"#) == #"{"v":"a\U0026b"}"#)  // not an escape: nothing of a secret
    }

    // MARK: - Edges of the decoded view

    @Test("a secret right after a lone %, \\ or & that would join its first bytes into an escape")
    func leadingBoundary() {
        let hex = MaskingPolicy(secrets: [(value: "3fa8c9d2e1b04477", name: nil)])
        #expect(hex.mask("50%3fa8c9d2e1b04477 x") == "50%*** x")  // the `%` is no part of the key
        #expect(hex.mask("x 3fa8c9d2e1b04477") == "x ***")
        let letters = MaskingPolicy(secrets: [(value: "npm_Tok3nValue", name: nil)])
        #expect(letters.mask(#"C:\npm_Tok3nValue"#) == #"C:\***"#)
    }

    @Test("a secret ending in what begins an escape, followed by bytes that complete it")
    func trailingBoundary() {
        let policy = MaskingPolicy(secrets: [(value: "s3cret-value%", name: nil)])
        let masked = policy.mask("s3cret-value%41 tail")
        #expect(!masked.contains("s3cret-value"), "\(masked)")
        #expect(policy.mask("[s3cret-value%25]") == "[***]")
    }

    @Test("a secret whose decoded view is too short is masked as written, and masks nothing else")
    func escapeLikeSecret() {
        let policy = MaskingPolicy(secrets: [(value: "&amp;", name: nil)])
        #expect(policy.mask("a & b &amp; c") == "a & b *** c")
        let percent = MaskingPolicy(secrets: [(value: "%41%42%43%44%45", name: nil)])
        #expect(percent.mask("x ABCDE y") == "x *** y")
        #expect(percent.mask("x %41%42%43%44%45 y") == "x *** y")
    }

    @Test("+ stands for a space and a space for +: a little more is masked, never less")
    func plusFolding() {
        let policy = MaskingPolicy(secrets: [(value: "a+b c-1234", name: nil)])
        for text in ["a+b c-1234", "a b c-1234", "a+b+c-1234", "a%2Bb%20c-1234", "a\\u002bb+c-1234"] {
            #expect(policy.mask("(" + text + ")") == "(***)", "\(text)")
        }
    }

    @Test("what only looks like an escape stands for itself, also where the text ends inside it")
    func notEscapes() {
        for text in ["%zz", "%4", "\\x41", "\\u12", "&#;", "&#x;", "&nbsp;", "&#99999999;", "\\ud800x",
                     "%", "\\", "&", "&#", "&#x1F5", "&am", "\\u"] {
            #expect(EscapeDecoding.decoded(Array(text.utf8)) == Array(text.utf8), "\(text)")
        }
        #expect(EscapeDecoding.decoded(Array(#"\ud83d\udd11 &#x1F511; %F0%9F%94%91"#.utf8)) == Array("🔑 🔑 🔑".utf8))
        #expect(EscapeDecoding.decoded(Array("&#0000065;&#X41;&#65;".utf8)) == Array("AAA".utf8))
        // A high surrogate not followed by a low one is no escape; what follows it still is.
        #expect(EscapeDecoding.decoded(Array(#"\ud83d\u0041"#.utf8)) == Array(#"\ud83dA"#.utf8))
    }

    @Test("mask then cut: a cut inside an escape or inside an encoded secret shows none of it")
    func cutInsideEscapes() {
        let policy = MaskingPolicy(secrets: [(value: "p@ss w0rd&x=1", name: nil)])
        for text in ["x=p%40ss%20w0", "x=p%40ss%2", "x=p@ss\\u00", "x=p@ss&#3", "x=p\\u0040ss w0rd\\u0026x"] {
            let cut = policy.maskThenCut(text, limit: 100, isPrefix: true)
            #expect(cut.text == "x=", "\(text) → \(cut.text)")
            #expect(cut.omittedBytes == text.utf8.count - 2)
        }
        // Cut before it reached the policy (a preview ending in `…`): the encoded beginning is masked.
        #expect(policy.mask("value p%40ss%20w…") == "value ***…")
        // Where a streaming writer must hold back: an encoded form spans more than its decoded bytes.
        #expect(policy.longestForm >= Encoding.json("&", upper: false).utf8.count * "p@ss w0rd&x=1".utf8.count)
    }

    @Test("a short secret is still masked as written only, not in its decoded forms")
    func shortSecretStaysRaw() {
        let policy = MaskingPolicy(secrets: [(value: "ab1", name: nil)])
        #expect(policy.mask("x ab1 y") == "x *** y")
        #expect(policy.mask("x %61b1 y") == "x %61b1 y")
    }
}

/// Byte search (not `String.contains`, which compares by grapheme clusters).
enum LeakSearch {
    static func firstIndex(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return start
        }
        return nil
    }
}
