import CourierDiagnostics
@testable import CourierWorkflow
import Testing

/// Whether a YAML file found in a directory is a workflow: judged by its top-level keys only.
@Suite struct WorkflowSnifferTests {
    static let table: [(String, String, WorkflowSniffer.Verdict)] = [
        ("a workflow", "name: x\nsteps:\n  - request: { url: http://h/ }\n", .workflow(looksLikeCourier: true)),
        ("an include step counts", "steps:\n  - include: _login.yaml\n", .workflow(looksLikeCourier: true)),
        ("a typo of steps", "stpes:\n  - request: { url: http://h/ }\n", .workflow(looksLikeCourier: true)),
        ("a capitalised key", "Steps: []\n", .workflow(looksLikeCourier: false)),
        ("Cloud Build", "steps:\n  - name: gcr.io/cloud-builders/docker\n    args: [build, .]\n", .workflow(looksLikeCourier: false)),
        ("Drone", "kind: pipeline\nsteps:\n- name: test\n  image: golang\n  commands: [go test]\n", .workflow(looksLikeCourier: false)),
        ("docker-compose with anchors and merge keys",
         "x-base: &base\n  restart: always\nservices:\n  web:\n    <<: *base\n    image: nginx\n", .notWorkflow),
        ("a vars file", "base_url: http://h\ntoken: abc\n", .notWorkflow),
        ("tags and setup alone", "tags: [a]\nsetup:\n  - request: { url: http://h/ }\n", .notWorkflow),
        ("a list at the top", "- request: { url: http://h/ }\n", .notWorkflow),
        ("a scalar", "just text\n", .notWorkflow),
        ("an empty file", "", .notWorkflow),
        ("comments only", "# nothing here\n", .notWorkflow),
        ("CloudFormation tags", "Resources:\n  B:\n    Type: AWS::S3::Bucket\n    Properties: { BucketName: !Sub '${AWS::StackName}' }\n", .notWorkflow),
        ("several documents: the first decides", "kind: A\n---\nsteps: []\n", .notWorkflow),
        ("steps nested deeper do not count", "jobs:\n  build:\n    steps:\n      - run: make\n", .notWorkflow),
        ("broken before any steps", "name: [unclosed\nsteps: []\n", .unparsable),
        ("broken after steps", "steps:\n  - request: { url: http://h/ }\n    bad: [\n", .workflow(looksLikeCourier: true)),
        ("setup is not steps", "setup: []\n", .notWorkflow),
    ]

    @Test(arguments: table.indices)
    func verdict(index: Int) {
        let (what, text, expected) = Self.table[index]
        #expect(WorkflowSniffer.verdict(of: text) == expected, "\(what)")
    }

    @Test func onlyKeysWithinTwoEditsOfStepsCount() {
        for key in ["steps", "step", "stpes", "STEPS", "setps", "stepss"] { #expect(WorkflowSniffer.isStepsKey(key), "\(key)") }
        for key in ["setup", "stages", "tags", "name", "vars", "teardown", "services"] { #expect(!WorkflowSniffer.isStepsKey(key), "\(key)") }
    }
}
