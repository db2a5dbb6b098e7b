import Foundation
import Testing

/// `courier run DIR` finds workflows by their top-level `steps:`, honours `.courierignore`
/// and `--exclude`, and selecting nothing is a usage error (issue 10, section 5).
@Suite struct DiscoveryTests {
    static func workflow(_ name: String, tags: [String] = []) -> String {
        """
        name: \(name)
        tags: [\(tags.joined(separator: ", "))]
        steps:
          - name: \(name) step
            request: { url: "{{ base_url }}/\(name)" }
            expect: { status: 200 }
        """
    }

    static let dockerCompose = """
        version: "3.8"
        x-common: &common
          restart: unless-stopped
        services:
          api:
            <<: *common
            image: example/api:latest
            ports: ["8080:8080"]
        """

    static let cloudBuild = """
        steps:
          - name: gcr.io/cloud-builders/docker
            args: [build, -t, gcr.io/project/app, .]
        images: [gcr.io/project/app]
        """

    /// `courier ARGS --var base_url=<recorder>` in `workspace`.
    func courier(_ arguments: [String], _ workspace: Workspace, _ recorder: RequestRecorder) async throws -> ProcessResult {
        try await Courier.run(arguments + ["--var", "base_url=\(recorder.baseURL)"], in: workspace.url)
    }

    func occurrences(of text: String, in output: String) -> Int {
        output.components(separatedBy: text).count - 1
    }

    @Test("a docker-compose.yml and a vars file beside workflows are skipped, listed once each")
    func otherYAMLFilesAreSkipped() async throws {
        let workspace = try Workspace()
        try workspace.write("suite/a.yaml", Self.workflow("alpha"))
        try workspace.write("suite/docker-compose.yml", Self.dockerCompose)
        try workspace.write("suite/config/staging.yaml", "base_url: https://staging.example.com\ntoken: abc\n")
        try workspace.write("suite/b/beta.yml", Self.workflow("beta"))
        let recorder = try RequestRecorder()
        let result = try await courier(["run", "suite", "--junit", "junit.xml"], workspace, recorder)
        #expect(result.status == 0, result.context)
        #expect(occurrences(of: "suite/docker-compose.yml: skipped: not a workflow (no 'steps:')\n", in: result.stderr) == 1, result.context)
        #expect(occurrences(of: "suite/config/staging.yaml: skipped: not a workflow (no 'steps:')\n", in: result.stderr) == 1, result.context)
        #expect(recorder.received.count == 2)
        // Reports list workflows only: a skipped file is not a test.
        let report = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"))
        #expect(report.suites.map(\.name) == ["alpha", "beta"])

        // validate and list find the same; -q hides the skipped lines.
        let validate = try await Courier.run(["validate", "suite", "--var", "base_url"], in: workspace.url)
        #expect(validate.status == 0, validate.context)
        #expect(validate.stdout == "2 workflows valid\n", validate.context)
        #expect(occurrences(of: "skipped: not a workflow", in: validate.stderr) == 2, validate.context)
        let quiet = try await Courier.run(["validate", "-q", "suite", "--var", "base_url"], in: workspace.url)
        #expect(quiet.status == 0 && quiet.stdout.isEmpty && quiet.stderr.isEmpty, quiet.context)
        let list = try await Courier.run(["list", "suite"], in: workspace.url)
        #expect(list.status == 0, list.context)
        #expect(list.stdout == "suite/a.yaml: alpha\n  alpha step\nsuite/b/beta.yml: beta\n  beta step\n", list.context)
    }

    @Test("a vars file saved as latin-1 is judged by its keys: skipped, not an encoding error")
    func nonUTF8NonWorkflowIsSkipped() async throws {
        let workspace = try Workspace()
        try workspace.write("suite/a.yaml", Self.workflow("alpha"))
        try Data("city: Z\u{FC}rich\n".utf8.map { $0 }).write(to: workspace.url.appendingPathComponent("suite/ok.yaml"))
        try Data([0x63, 0x61, 0x66, 0x65, 0x3A, 0x20, 0x63, 0x61, 0x66, 0xE9, 0x0A]).write(to: workspace.url.appendingPathComponent("suite/latin1.yaml"))
        let result = try await Courier.run(["validate", "suite", "--var", "base_url"], in: workspace.url)
        #expect(result.status == 0, result.context)
        #expect(result.stderr.contains("suite/latin1.yaml: skipped: not a workflow (no 'steps:')"), result.context)
        #expect(result.stdout == "1 workflow valid\n", result.context)
    }

    @Test("a file named on the command line is always a workflow")
    func namedFilesAreWorkflows() async throws {
        let workspace = try Workspace()
        try workspace.write("docker-compose.yml", Self.dockerCompose)
        let recorder = try RequestRecorder()
        let result = try await courier(["run", "docker-compose.yml"], workspace, recorder)
        #expect(result.status == 2, result.context)
        #expect(result.stderr.contains("docker-compose.yml:1:1: error: missing required key 'steps' in workflow"), result.context)
        #expect(!result.stderr.contains("skipped"), result.context)
        #expect(recorder.received.isEmpty)
    }

    @Test("a top-level key close to 'steps' still makes a workflow, and an error")
    func stepsTypoIsAnError() async throws {
        let workspace = try Workspace()
        try workspace.write("suite/a.yaml", Self.workflow("alpha"))
        try workspace.write("suite/typo.yaml", "name: typo\nstpes:\n  - request: { url: \"{{ base_url }}/typo\" }\n")
        let recorder = try RequestRecorder()
        let result = try await courier(["run", "suite"], workspace, recorder)
        #expect(result.status == 2, result.context)
        #expect(result.stderr.contains("suite/typo.yaml:2:1: error: unknown key 'stpes' in workflow; did you mean 'steps'?"), result.context)
        #expect(!result.stderr.contains("skipped"), result.context)
        #expect(!result.stderr.contains("if this is not a Courier workflow"), result.context)
        #expect(recorder.received.isEmpty)
    }

    @Test("another tool's file with top-level steps fails with a note saying how to exclude it")
    func otherToolsStepsGetANote() async throws {
        let workspace = try Workspace()
        try workspace.write("suite/a.yaml", Self.workflow("alpha"))
        try workspace.write("suite/cloudbuild.yaml", Self.cloudBuild)
        let recorder = try RequestRecorder()
        let result = try await courier(["run", "suite"], workspace, recorder)
        #expect(result.status == 2, result.context)
        #expect(result.stderr.contains("suite/cloudbuild.yaml:2:5: error: a step needs 'request' or 'include'"), result.context)
        #expect(occurrences(of: "note: if this is not a Courier workflow, list it in .courierignore or pass --exclude\n", in: result.stderr) == 1,
                result.context)
        #expect(recorder.received.isEmpty)

        // Either way out works.
        let excluded = try await courier(["run", "suite", "--exclude", "cloudbuild.yaml"], workspace, recorder)
        #expect(excluded.status == 0, excluded.context)
        try workspace.write("suite/.courierignore", "# Google Cloud Build\ncloudbuild.yaml\n")
        let ignored = try await courier(["run", "suite"], workspace, recorder)
        #expect(ignored.status == 0, ignored.context)
        #expect(recorder.received.count == 2)
    }

    @Test("a file whose YAML breaks before any 'steps:' fails as a possibly broken workflow, with the note")
    func brokenYAMLIsAnErrorWithTheNote() async throws {
        let workspace = try Workspace()
        try workspace.write("chart/templates/deployment.yaml", """
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              labels: {{- include "chart.labels" . | nindent 4 }}
            """)
        let result = try await Courier.run(["validate", "chart"], in: workspace.url)
        #expect(result.status == 2, result.context)
        #expect(result.stderr.contains("chart/templates/deployment.yaml:4:"), result.context)
        #expect(result.stderr.contains("note: if this is not a Courier workflow, list it in .courierignore or pass --exclude\n"), result.context)
        let excluded = try await Courier.run(["validate", "chart", "--exclude", "templates/"], in: workspace.url)
        #expect(excluded.status == 2, excluded.context)
        #expect(excluded.stderr == "error: no workflows selected: no workflow files found in chart; 1 left out by .courierignore or --exclude\n",
                excluded.context)
    }

    @Test(".courierignore: anchors, directories, negation and ignore files in subdirectories")
    func courierignore() async throws {
        let workspace = try Workspace()
        for path in ["suite/a.yaml", "suite/ci/drone.yml", "suite/ci/keep.yaml", "suite/deploy/k8s.yaml",
                     "suite/nested/x.yaml", "suite/nested/deep/y.yaml", "suite/nested/deep/z.yaml"] {
            try workspace.write(path, Self.workflow(URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent))
        }
        try workspace.write("suite/.courierignore", """
            # other tools' files
            /ci/*
            !/ci/keep.yaml
            deploy/
            """)
        // Applies below its directory, relative to it; a later line (and a deeper file) wins.
        try workspace.write("suite/nested/.courierignore", "deep/*.yaml\n!z.yaml\n")
        let list = try await Courier.run(["list", "suite"], in: workspace.url)
        #expect(list.status == 0, list.context)
        #expect(list.stdout.split(separator: "\n").filter { !$0.hasPrefix(" ") }.map { String($0.split(separator: ":")[0]) }
                    == ["suite/a.yaml", "suite/ci/keep.yaml", "suite/nested/deep/z.yaml", "suite/nested/x.yaml"], list.context)

        // --exclude adds to it, relative to the directory given; the command line has the last word.
        let excluded = try await Courier.run(["list", "suite", "--exclude", "nested/**", "--exclude", "a.yaml"], in: workspace.url)
        #expect(excluded.status == 0, excluded.context)
        #expect(excluded.stdout.split(separator: "\n").filter { !$0.hasPrefix(" ") }.map { String($0.split(separator: ":")[0]) }
                    == ["suite/ci/keep.yaml"], excluded.context)
    }

    @Test("selecting nothing is exit 2, says what was found, sends nothing", arguments: [
        (["suite", "--tag", "nope"], "error: no workflows selected: 2 workflows found in suite, none has tag 'nope'\n"),
        (["suite", "--filter", "^zzz"], "error: no workflows selected: 2 workflows found in suite, none matches --filter '^zzz'\n"),
        (["suite", "--exclude-tag", "smoke"], "error: no workflows selected: 2 workflows found in suite, each has an excluded tag (--exclude-tag smoke)\n"),
        (["empty"], "error: no workflows selected: no workflow files found in empty\n"),
        (["suite/config"], "error: no workflows selected: 1 YAML file found in suite/config, it is not a workflow (no 'steps:')\n"),
        (["suite", "--exclude", "*.yaml"], "error: no workflows selected: no workflow files found in suite; 3 left out by .courierignore or --exclude\n"),
    ])
    func emptySelection(arguments: [String], message: String) async throws {
        let workspace = try Workspace()
        try workspace.write("suite/a.yaml", Self.workflow("alpha", tags: ["smoke"]))
        try workspace.write("suite/b.yaml", Self.workflow("beta", tags: ["smoke"]))
        try workspace.write("suite/config/staging.yaml", "base_url: https://staging.example.com\n")
        try FileManager.default.createDirectory(at: workspace.url.appendingPathComponent("empty"), withIntermediateDirectories: true)
        let recorder = try RequestRecorder()
        let result = try await courier(["run"] + arguments + ["-q", "--junit", "junit.xml"], workspace, recorder)
        #expect(result.status == 2, result.context)
        #expect(result.stderr == message, result.context)
        #expect(!result.stdout.contains("PASSED"), result.context)
        #expect(recorder.received.isEmpty)
        // The report says so in one errored test case.
        let junit = try workspace.read("junit.xml")
        #expect(junit.contains(#"<testcase name="select workflows" classname="courier""#), "\(junit)")
        #expect(junit.contains(#"errors="1""#), "\(junit)")
    }

    @Test("validate and list of a directory without workflows are exit 2 too")
    func validateAndListOfNothing() async throws {
        let workspace = try Workspace()
        try workspace.write("config/docker-compose.yml", Self.dockerCompose)
        for command in ["validate", "list"] {
            let result = try await Courier.run([command, "config"], in: workspace.url)
            #expect(result.status == 2, result.context)
            #expect(result.stderr.hasSuffix("error: no workflows selected: 1 YAML file found in config, it is not a workflow (no 'steps:')\n"),
                    result.context)
            #expect(result.stdout.isEmpty, result.context)
        }
    }
}
