/// `--curl` and `--dry-run` (issue 13): the command printed for a failed request names
/// each secret as a shell variable, a dry run prints every request; no form of a secret
/// may appear, wherever it was sent. (No
/// header here: the canary's newline cannot go into one; CurlCommandTests covers headers.)
extension CanaryScenario {
    static let curl: [CanaryScenario] = [
        CanaryScenario(number: 43, title: "--curl: a secret in the query, a JSON and a text body") { c in
            Setup(files: ["flow.yaml": """
                name: canary 43
                secrets:
                  pw: "{{ env.CANARY_A }}"
                steps:
                  - name: json body
                    request:
                      method: POST
                      url: "\(c.base)/echo"
                      query: { k: "{{ pw }}" }
                      json: { pw: "{{ pw }}" }
                    \(failOnPurpose)
                  - name: text body
                    request:
                      method: PUT
                      url: "\(c.base)/echo?raw={{ pw }}"
                      body: "pw={{ pw }}"
                    \(failOnPurpose)
                """],
                  environment: ["CANARY_A": c.canary()],
                  arguments: ["--curl"],
                  secrets: [.string("pw", c.canary())])
        },
        CanaryScenario(number: 46, title: "--curl: a secret in a form body (--data-urlencode) and Basic credentials (-u)") { c in
            Setup(files: ["flow.yaml": """
                name: canary 46
                secrets:
                  pw: "{{ env.CANARY_A }}"
                steps:
                  - name: form body
                    request:
                      method: POST
                      url: "\(c.base)/echo"
                      form: { user: bob, pw: "{{ pw }}" }
                    \(failOnPurpose)
                  - name: basic auth
                    request:
                      url: "\(c.base)/echo"
                      auth: { basic: { username: bob, password: "{{ pw }}" } }
                    \(failOnPurpose)
                """],
                  environment: ["CANARY_A": c.canary()],
                  arguments: ["--curl"],
                  secrets: [.string("pw", c.canary(), user: "bob")])
        },
        CanaryScenario(number: 66, title: "--curl and --dry-run: a Digest password (--digest -u)") { c in
            Setup(files: ["flow.yaml": """
                name: canary 66
                secrets:
                  pw: "{{ env.CANARY_A }}"
                steps:
                  - name: digest auth
                    request:
                      url: "\(c.base)/digest-echo"
                      auth: { digest: { username: bob, password: "{{ pw }}" } }
                    \(failOnPurpose)
                  - name: digest in defaults
                    request: { url: "\(c.base)/echo" }
                    \(failOnPurpose)
                defaults:
                  auth: { digest: { username: bob, password: "{{ pw }}" } }
                """],
                  environment: ["CANARY_A": c.canary()],
                  arguments: ["--curl"],
                  secrets: [.string("pw", c.canary(), user: "bob")])
        },
        CanaryScenario(number: 44, title: "--dry-run: a secret in the query, a JSON and a text body, base64, and a secret capture") { c in
            Setup(files: ["flow.yaml": """
                name: canary 44
                secrets:
                  pw: "{{ env.CANARY_A }}"
                steps:
                  - name: json body
                    request:
                      method: POST
                      url: "\(c.base)/echo"
                      query: { k: "{{ pw }}" }
                      json: { pw: "{{ pw }}" }
                    capture:
                      token: { json: $.json.pw, secret: true }
                  - name: after a capture
                    request:
                      url: "\(c.base)/echo?t={{ token }}&k={{ pw | base64_encode }}"
                      body: "pw={{ pw }}"
                """],
                  environment: ["CANARY_A": c.canary()],
                  arguments: ["--dry-run"],
                  secrets: [.string("pw", c.canary())],
                  expectedStatus: 0)
        },
    ]
}
