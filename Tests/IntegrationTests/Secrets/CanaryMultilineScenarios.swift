/// A secret holding a line break, put where a line break ends the field (issue 13). Sent as it
/// was, only its first line arrived and the echo server handed that line back alone; now the
/// request is refused before sending (`invalid_header`, header injection), and the error must
/// not quote it either. No line of the secret may show.
extension CanaryScenario {
    static let multiline: [CanaryScenario] = [
        simple(45, "multi-line secret in a header: refused before sending, never quoted") { c in
            """
                  url: "\(c.base)/echo"
                  headers: { X-Key: "{{ pw }}" }
            """
        },
    ]
}
