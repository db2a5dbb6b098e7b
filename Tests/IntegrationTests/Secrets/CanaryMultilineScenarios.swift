/// A secret holding a line break, sent where a line break ends the field (issue 13): in a
/// header only its first line arrives, and the echo server hands that line back alone, in its
/// JSON body and in `-v`'s block of what libcurl sent. No line of the secret may show.
extension CanaryScenario {
    static let multiline: [CanaryScenario] = [
        simple(45, "multi-line secret in a header: only its first line is sent and echoed") { c in
            """
                  url: "\(c.base)/echo"
                  headers: { X-Key: "{{ pw }}" }
            """
        },
    ]
}
