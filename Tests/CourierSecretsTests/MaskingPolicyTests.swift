@testable import CourierSecrets
import Foundation
import Testing

/// The matcher masks every occurrence of every form, and mask-then-cut never shows part of one.
@Suite struct MaskingPolicyTests {
    func policy(_ secrets: String...) -> MaskingPolicy {
        let registry = SecretRegistry()
        for secret in secrets { registry.register(secret) }
        return registry.policy
    }

    @Test("plain, base64 inside Basic credentials, percent-encoded, JSON-escaped forms are all masked")
    func forms() {
        let policy = policy("p@ss word-1")
        #expect(policy.mask("password=p@ss word-1;") == "password=***;")
        #expect(policy.mask("GET /?p=p%40ss%20word-1 HTTP/1.1") == "GET /?p=*** HTTP/1.1")
        #expect(policy.mask("p=p%40ss+word-1&x=1") == "p=***&x=1")
        for user in ["a", "ab", "abc", "ada"] {
            let basic = "Authorization: Basic " + Data("\(user):p@ss word-1".utf8).base64EncodedString()
            let masked = policy.mask(basic)
            #expect(masked.contains("***"), "\(basic)")
            #expect(!masked.contains(String(Data("p@ss word-1".utf8).base64EncodedString().dropLast(4))))
        }
    }

    @Test("overlapping secrets and secrets inside others are all masked")
    func overlapping() {
        let policy = policy("abcdef12", "ef12ghij", "cdef")
        #expect(policy.mask("xx abcdef12ghij yy") == "xx *** yy")
        #expect(policy.mask("cdef and abcdef12") == "*** and ***")
        #expect(policy.mask("ef12ghijabcdef12") == "***")
    }

    @Test("matches at the start and the end of the text")
    func bufferEnds() {
        let policy = policy("s3cret-value")
        #expect(policy.mask("s3cret-value") == "***")
        #expect(policy.mask("s3cret-value tail") == "*** tail")
        #expect(policy.mask("head s3cret-value") == "head ***")
        #expect(policy.mask("s3cret-valu") == "s3cret-valu")
        #expect(policy.mask(Array("xs3cret-value".utf8)) == Array("x***".utf8))
    }

    @Test("a secret followed by a combining mark, and in NFD, is masked (bytes, not graphemes)")
    func unicode() {
        let policy = policy("pässwört")
        #expect(policy.mask("x pässwört\u{301} y") == "x ***\u{301} y")
        let nfd = "pässwört".decomposedStringWithCanonicalMapping
        let masked = policy.mask("[" + nfd + "]")
        #expect(Array(masked.utf8) == Array("[***]".utf8))
        #expect(policy.mask(#"{"p":"p\u00e4ssw\u00f6rt"}"#) == #"{"p":"***"}"#)
    }

    @Test("a short captured secret is masked as written only")
    func shortSecret() {
        let policy = policy("ab1")
        #expect(policy.mask("x ab1 y") == "x *** y")
        #expect(policy.mask(Data("ab1".utf8).base64EncodedString()) == Data("ab1".utf8).base64EncodedString())
    }

    @Test("10,000 secrets: each is masked, other text is left alone")
    func manySecrets() {
        let registry = SecretRegistry()
        let secrets = (0..<10_000).map { "tok-\($0)-\(String($0 * 7919, radix: 36))-z" }
        for (index, secret) in secrets.enumerated() { registry.register(secret, name: "n\(index)") }
        let policy = registry.policy
        let text = secrets.enumerated().filter { $0.offset % 97 == 0 }.map { "a \($0.element) b" }.joined(separator: "\n")
        let masked = policy.mask(text)
        #expect(!secrets.contains { masked.contains($0) })
        #expect(masked.components(separatedBy: "***").count - 1 == (0..<10_000).filter { $0 % 97 == 0 }.count)
        #expect(policy.mask("nothing secret here at all") == "nothing secret here at all")
        #expect(policy.name(of: secrets[42]) == "n42")
    }

    @Test("registering a known value again keeps the policy; a new one recompiles it")
    func registry() {
        let registry = SecretRegistry()
        registry.register("first-secret", name: "first")
        let before = registry.policy
        registry.register("first-secret")
        #expect(registry.count == 1)
        #expect(registry.policy.secrets.count == before.secrets.count)
        registry.register("second-secret")
        #expect(registry.policy.mask("first-secret second-secret") == "*** ***")
        #expect(MaskingPolicy.shellVariable(forName: "api-key") == "COURIER_SECRET_API_KEY")
    }

    @Test("secrets registered one at a time, the policy used after each: every one stays masked")
    func trickled() {
        let registry = SecretRegistry()
        var secrets: [String] = []
        for index in 0..<100 {
            let secret = "trickled-\(index)-token"
            secrets.append(secret)
            registry.register(secret)
            let policy = registry.policy
            #expect(policy.mask(secret) == "***", "\(secret) after \(index + 1) registrations")
        }
        let text = secrets.joined(separator: " | ")
        #expect(registry.policy.mask(text) == Array(repeating: "***", count: 100).joined(separator: " | "))
        // The beginning of the earliest secret before a cut marker, found in its own generation.
        #expect(registry.policy.mask("x trickled-0-…") == "x ***…")
    }

    @Test("mask then cut, at every cut position around a secret: no prefix of it ever shows")
    func maskThenCutEverywhere() {
        let secret = "Zq8-secret-Xw3"
        let policy = policy(secret)
        let text = "0123456789" + secret + "abcdefghij"
        for limit in 0...(text.utf8.count + 2) {
            let cut = policy.maskThenCut(text, limit: limit)
            #expect(cut.text.utf8.count <= limit)
            #expect(!cut.text.contains("Zq8"), "limit \(limit): \(cut.text)")
            #expect(cut.text.hasSuffix("*") == false || cut.text.hasSuffix("***"), "limit \(limit): \(cut.text)")
            #expect(("0123456789***abcdefghij").hasPrefix(cut.text))
            // What was left out, counted in the input's bytes (the secret's 14 bytes shown as 3).
            if cut.text.utf8.count >= 13 {
                #expect(cut.omittedBytes == text.utf8.count - (cut.text.utf8.count + secret.utf8.count - 3))
            } else {
                #expect(cut.omittedBytes == text.utf8.count - cut.text.utf8.count)
            }
        }
    }

    @Test("a text that was cut before (a prefix) loses a secret's beginning at its end")
    func prefixAtEnd() {
        let policy = policy("Zq8-secret-Xw3")
        for length in 1..<14 {
            let text = "body: " + String("Zq8-secret-Xw3".prefix(length))
            let cut = policy.maskThenCut(text, limit: 100, isPrefix: true)
            #expect(cut.text == "body: ", "\(length): \(cut.text)")
            #expect(cut.omittedBytes == length)
        }
        #expect(policy.maskThenCut("body: plain", limit: 100, isPrefix: true).text == "body: plain")
    }

    @Test("text cut before it was masked: the beginning of a secret before a cut marker (…) is masked")
    func cutMarker() {
        let policy = policy("Zq8-secret-Xw3")
        #expect(policy.mask("got \"abc Zq8-sec…\"") == "got \"abc ***…\"")
        #expect(policy.mask("x Zq8-sec… (120 more bytes)") == "x ***… (120 more bytes)")
        // Shorter beginnings are left: one hex digit or letter starts some form everywhere.
        #expect(policy.mask("got \"abc Zq8…\"") == "got \"abc Zq8…\"")
        #expect(policy.mask("an ellipsis… alone") == "an ellipsis… alone")
    }

    @Test("cuts fall on UTF-8 character boundaries")
    func characterBoundary() {
        let policy = MaskingPolicy.empty
        let cut = policy.maskThenCut("aü€b", limit: 4)
        #expect(cut.text == "aü")
        #expect(cut.omittedBytes == 4)
    }
}
