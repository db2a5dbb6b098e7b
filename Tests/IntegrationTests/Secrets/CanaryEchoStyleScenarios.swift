/// Issue 21: servers that echo a secret re-encoded their own way. werkzeug/Flask re-quote a URL
/// keeping `/ : @` (`p@ss%20w0rd%26x%3D1`); Go's and .NET's JSON writers escape `&`, `<`, `>`
/// (and .NET `'`, `+`, `"`, non-ASCII) as `\u0026`… with lower- or upper-case hex; and
/// `/echo-matrix` writes the secret in every encoding of the matrix (each character class left
/// as is or encoded: percent in either case, `+` for a space, `\u00XX` in either case, HTML
/// numeric entities, percent and JSON mixed). Every such form is among the ones searched for
/// (`Tests/Support/secret_forms.py`), in every output and with `--curl`.
extension CanaryScenario {
    static let echoStyles: [CanaryScenario] = [(61, "werkzeug"), (62, "go"), (63, "dotnet")].map { number, style in
        CanaryScenario(number: number, title: "echo style \(style): query, JSON and form values re-encoded, with --curl") { c in
            Setup(files: ["flow.yaml": """
                name: canary \(number)
                secrets:
                  pw: "{{ env.CANARY_A }}"
                continue_on_failure: true
                steps:
                  - name: query and json
                    request:
                      method: POST
                      url: "\(c.base)/echo-style/\(style)"
                      query: { p: "{{ pw }}" }
                      json: { pw: "{{ pw }}", note: "key={{ pw }};" }
                    \(failOnPurpose)
                  - name: form
                    request:
                      method: POST
                      url: "\(c.base)/echo-style/\(style)?raw={{ pw | url_encode }}"
                      form: { pw: "{{ pw }}" }
                    \(failOnPurpose)
                """],
                  environment: ["CANARY_A": c.canary()],
                  arguments: ["--curl"],
                  secrets: [.string("pw", c.canary())])
        }
    }

    /// 8 encodings × 15 sets of classes (each alone, all, all but each): 120 variants, 10 a
    /// step so each response fits the console's 2 KiB.
    static let encodingMatrix: [CanaryScenario] = [
        CanaryScenario(number: 64, title: "encoding matrix: every class as is or encoded, in every encoding and mix") { c in
            let steps = (0..<12).map { part in
                """
                  - name: matrix part \(part)
                    request:
                      method: POST
                      url: "\(c.base)/echo-matrix?part=\(part)&size=10"
                      body: "{{ pw }}"
                    \(failOnPurpose)
                """
            }.joined(separator: "\n")
            return Setup(files: ["flow.yaml": """
                name: canary 64
                secrets:
                  pw: "{{ env.CANARY_A }}"
                continue_on_failure: true
                steps:
                \(steps)
                  - name: past the last part
                    request:
                      method: POST
                      url: "\(c.base)/echo-matrix?part=12&size=10"
                      body: "{{ pw }}"
                    expect: { status: 416 }
                """],
                  environment: ["CANARY_A": c.canary()],
                  secrets: [.string("pw", c.canary())])
        },
    ]
}
