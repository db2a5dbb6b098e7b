@testable import CourierWorkflow
import Foundation
import Testing

/// The fast reader must give libyaml's events exactly, for every text it accepts:
/// both readers run over the project's YAML files, mutations of them and generated
/// documents, and their events are compared one by one (marks included).
@Suite struct CommonYAMLReaderTests {
    enum Verdict: Equatable {
        case declined
        case agreed
        case differ(libyaml: [String], fast: [String])
    }

    /// Runs both readers on `text`.
    static func compare(_ text: String) -> Verdict {
        Array(text.utf8).withUnsafeBufferPointer { input in
            var fast = YAMLEventLog()
            guard CommonYAMLReader.read(input, into: &fast) else { return .declined }
            var reference = YAMLEventLog()
            guard case .finished = LibYAMLEvents.read(input, file: "t.yaml", into: &reference) else {
                return .differ(libyaml: ["(libyaml refused the text)"], fast: fast.events)
            }
            return reference.events == fast.events ? .agreed : .differ(libyaml: reference.events, fast: fast.events)
        }
    }

    static func expectAgreement(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        if case .differ(let reference, let fast) = compare(text) {
            Issue.record("readers differ on:\n\(text)\n--- libyaml:\n\(reference.joined(separator: "\n"))\n--- fast:\n\(fast.joined(separator: "\n"))",
                         sourceLocation: sourceLocation)
        }
    }

    static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// The YAML files of the repository (example workflows, fixtures, fuzz findings).
    static func repositoryYAML() -> [(String, String)] {
        let root = repositoryRoot
        var found: [(String, String)] = []
        for folder in ["Workflows", "Tests", "Examples", "Benchmarks", "docs"] {
            guard let walker = FileManager.default.enumerator(at: root.appendingPathComponent(folder), includingPropertiesForKeys: nil) else { continue }
            for case let url as URL in walker where ["yaml", "yml"].contains(url.pathExtension) {
                if let text = try? String(contentsOf: url, encoding: .utf8) { found.append((url.path, text)) }
            }
        }
        return found.sorted { $0.0 < $1.0 }
    }

    // MARK: Cases that must be read fast

    @Test("everyday workflow shapes are read by the fast reader, with libyaml's events", arguments: [
        "name: bench\nsteps:\n  - request: { url: \"http://127.0.0.1:1/x?i=1\" }\n    expect: { status: 200 }\n",
        "steps:\n- name: a\n  request:\n    method: POST\n    url: '{{ base }}/users'\n    json: {\"name\": \"x\", \"n\": 1}\n  capture:\n    id: $.id\n",
        "a:\n- x\n-\n- y: 1\n  z:\nb: [1, \"2\", {c: d}]\nc: \n",
        "# top\n\n  # x\nkey: # c\n  \"a b\": 'it''s'   \n  c: -1  # d\n  e: x#y\n",
        "{\"a\":1, b: [x]}\n",
        "a: b",
        "a:",
        "- a\n- b: c\n  d: [e, {f: g}]\n-\n  - h\n",
        "a:\n  - x\n  - y # c\nb: {}\nc: []\n",
        "key:   \"\\u00e9\\n\\t\\\"q\\\" \\\\ x\"\n",
        "k: v\n\n\n# trailing\n",
        "- a: 1\n  b:\n  - x\n  c: 2\n",
        "a: caf\u{e9}\nname: \"\u{65e5}\u{672c} \u{1F389}\" # \u{e9}t\u{e9}\nb: [\u{fc}, '\u{f1}']\n\u{e9}: {\u{e9}: \u{e9}}\n",
        "a:\n  [1, 2]\nb:\n  {x: 1}\n",
        "- \n- \n  - a\n",
        "  a: 1\n  b: 2",
    ])
    func everydayShapes(_ text: String) {
        #expect(Self.compare(text) == .agreed)
    }

    @Test("whatever the fast reader does not know is left to libyaml", arguments: [
        "a: &x 1\nb: *x\n", "a: !!str 1\n", "a: |\n  text\n", "a: >\n  text\n", "? a\n: b\n", "---\na: 1\n",
        "a: 1\n...\n", "%YAML 1.2\n---\na: 1\n", "a:\tb\n", "a: b\r\n", "a: b\u{85}c\n", "a: b\u{2028}c\n", "a: \u{FEFF}b\n", "a: \u{1}\n", "a: b\n  c\n", "a: [b,\n c]\n",
        "a: \"b\n c\"\n", "a: b: c\n", "a: {b: c,}\n", "a: [b: c]\n", "a: {b:c}\n", "", "# only a comment\n", "plain scalar\n",
        "a: {{ x }}\n", "- - a\n", "a: \"\\x41\"\n", "a: -\n", "a: @b\n", "a: `b`\n",
    ])
    func declined(_ text: String) {
        #expect(Self.compare(text) == .declined)
    }

    // MARK: Differential checks

    @Test("the repository's YAML files: accepted ones give libyaml's events") func repositoryFiles() {
        let files = Self.repositoryYAML()
        #expect(files.count >= 20)
        var accepted = 0
        for (path, text) in files {
            switch Self.compare(text) {
            case .agreed: accepted += 1
            case .declined: break
            case .differ(let reference, let fast):
                Issue.record("readers differ on \(path)\n--- libyaml:\n\(reference.joined(separator: "\n"))\n--- fast:\n\(fast.joined(separator: "\n"))")
            }
        }
        // The example workflows are everyday YAML: most of the files must take the fast path.
        #expect(accepted * 2 >= files.count)
    }

    @Test("single-byte mutations of the repository's files") func mutations() {
        var generator = SplitMix(seed: 0x5EED_CAFE)
        let alphabet = Array(" :-#\"'{}[],\n\\xa1.&*!|>?%\u{e9}".utf8)
        var compared = 0
        for (_, text) in Self.repositoryYAML() {
            let bytes = Array(text.utf8)
            guard !bytes.isEmpty else { continue }
            for _ in 0..<60 {
                var mutated = bytes
                let at = Int(generator.next() % UInt64(mutated.count))
                switch generator.next() % 3 {
                case 0: mutated.remove(at: at)
                case 1: mutated.insert(alphabet[Int(generator.next() % UInt64(alphabet.count))], at: at)
                default: mutated[at] = alphabet[Int(generator.next() % UInt64(alphabet.count))]
                }
                let mutatedText = String(decoding: mutated, as: UTF8.self)
                if Self.compare(mutatedText) != .declined { compared += 1 }
                Self.expectAgreement(mutatedText)
            }
        }
        #expect(compared > 100)
    }

    @Test("generated documents") func generated() {
        var generator = SplitMix(seed: 42)
        var compared = 0
        for _ in 0..<4000 {
            let text = Self.document(&generator)
            if Self.compare(text) != .declined { compared += 1 }
            Self.expectAgreement(text)
        }
        #expect(compared > 1000)
    }

    // MARK: Generator

    static let keys = ["a", "name", "url", "expect", "status", "x y", "\"q k\"", "'s k'", "<<", "k-1", "a.b", "on", "1"]
    static let scalars = [
        "b", "1", "-2", "1.5", "true", "null", "~", "", "x y z", "http://h:1/p?q=1#f", "a#b", "a #c", "a:b", "a :b", "\"d q\"",
        "\"e\\\"s\\\\c\\n\"", "\"\\u0041\\u00e9\"", "'s q'", "'it''s'", "\"\"", "''", "-x", "{}", "[]", "[1, 2]", "{a: b}",
        "{\"a\":1, \"b\": [true, null]}", "[a, [b, c], {d: e}]", "{ a: 1 , b : 2 }", "x  ", "\"a\" ", "'b'  # c", "caf\u{e9}", "\"\u{fc}ber\"", "'\u{65e5}\u{672c}'", "\u{1F389} x", "[\u{e9}, {\u{e9}: 1}]", "[a,b]", "{a: [b]}",
        "\"/\\/\"", ".5", "0x1F", "- a", "a: b", "\"unterminated", "[open", "{a: b", "b]", "?", "&a b", "*a", "!t x", "|", ">",
    ]

    static func document(_ generator: inout SplitMix) -> String {
        var lines: [String] = []
        func pick(_ options: [String]) -> String { options[Int(generator.next() % UInt64(options.count))] }
        func block(indent: Int, depth: Int) {
            let pad = String(repeating: " ", count: indent)
            let count = 1 + Int(generator.next() % 3)
            let isSequence = generator.next() % 3 == 0
            for _ in 0..<count {
                if generator.next() % 8 == 0 { lines.append(pad + "# note") }
                if generator.next() % 10 == 0 { lines.append("") }
                let wobble = generator.next() % 25 == 0 ? " " : ""
                let prefix = pad + wobble + (isSequence ? "- " : "")
                let nested = depth < 3 && generator.next() % 3 == 0
                if isSequence && generator.next() % 2 == 0 {
                    // `- key: value` then more keys under it.
                    lines.append(prefix + pick(keys) + ": " + (nested ? "" : pick(scalars)))
                    if nested { block(indent: indent + 4, depth: depth + 1) }
                    if generator.next() % 2 == 0 { lines.append(pad + "  " + pick(keys) + ": " + pick(scalars)) }
                } else if isSequence {
                    lines.append(prefix + (nested ? "" : pick(scalars)))
                    if nested { block(indent: indent + 2, depth: depth + 1) }
                } else {
                    let comment = generator.next() % 6 == 0 ? "  # c" : ""
                    lines.append(prefix + pick(keys) + ":" + (nested ? comment : " " + pick(scalars) + comment))
                    if nested {
                        // Nested more deeply, or a sequence at the key's own indentation.
                        if generator.next() % 3 == 0 {
                            lines.append(pad + "- " + pick(scalars))
                            lines.append(pad + "- " + pick(keys) + ": " + pick(scalars))
                        } else {
                            block(indent: indent + 2, depth: depth + 1)
                        }
                    }
                }
            }
        }
        block(indent: 0, depth: 0)
        let ending = pick(["\n", "", "\n\n", "\n# end", "\n  "])
        return lines.joined(separator: "\n") + ending
    }
}

/// A small deterministic generator (SplitMix64), so a failure reproduces.
struct SplitMix {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
