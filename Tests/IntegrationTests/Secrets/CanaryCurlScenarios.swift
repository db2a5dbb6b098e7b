/// `--curl` (issue 13): the command printed for a failed request names each secret
/// as a shell variable; no form of it may appear, wherever the secret was sent. (No
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
    ]
}
