@testable import courier
import Testing

/// How a slice is asked for: `--shard K/N`, `--shard auto` (or `COURIER_SHARD`) and each CI's variables.
@Suite struct ShardRequestTests {
    static func resolve(_ arguments: [String], _ environment: [String: String] = [:]) throws(UsageError) -> ShardRequest? {
        try ShardRequest.resolve(try RunCommand.parser.parse(arguments), environment: environment)
    }

    static func message(_ arguments: [String], _ environment: [String: String] = [:]) -> String? {
        do {
            _ = try resolve(arguments, environment)
            return nil
        } catch {
            return error.message
        }
    }

    @Test("--shard K/N as written, by hash unless --shard-by count")
    func explicit() throws {
        #expect(try Self.resolve(["--shard", "2/3"]) == ShardRequest(shard: Shard(index: 2, total: 3)!, strategy: .hash, origin: nil))
        #expect(try Self.resolve(["--shard=2/3", "--shard-by", "count"])?.strategy == .count)
        #expect(try Self.resolve(["--shard", "2/3"])?.headline(taken: 1, of: 3) == "shard 2/3: 1 of 3 selected workflows\n")
        #expect(try Self.resolve(["--shard", "1/2", "--shard-by", "count"])?.headline(taken: 1, of: 1)
                == "shard 1/2 by count: 1 of 1 selected workflow\n")
    }

    @Test("without --shard or COURIER_SHARD there is no slice, whatever CI variables are set")
    func neverSilently() throws {
        let everyCI = ["CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "3", "BUILDKITE_PARALLEL_JOB": "1", "BUILDKITE_PARALLEL_JOB_COUNT": "3",
                       "CIRCLE_NODE_INDEX": "1", "CIRCLE_NODE_TOTAL": "3", "JOB_COMPLETION_INDEX": "1", "COURIER_SHARD_TOTAL": "3"]
        #expect(try Self.resolve([], everyCI) == nil)
    }

    /// (environment, the slice, the origin the first line names).
    @Test("--shard auto reads each CI's variables (GitLab 1-based, the others 0-based)", arguments: [
        (["CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "3"], "1/3", "GitLab: CI_NODE_INDEX=1, CI_NODE_TOTAL=3"),
        (["CI_NODE_INDEX": "3", "CI_NODE_TOTAL": "3"], "3/3", "GitLab: CI_NODE_INDEX=3, CI_NODE_TOTAL=3"),
        (["BUILDKITE_PARALLEL_JOB": "0", "BUILDKITE_PARALLEL_JOB_COUNT": "4"], "1/4",
         "Buildkite: BUILDKITE_PARALLEL_JOB=0, BUILDKITE_PARALLEL_JOB_COUNT=4"),
        (["CIRCLE_NODE_INDEX": "2", "CIRCLE_NODE_TOTAL": "3"], "3/3", "CircleCI: CIRCLE_NODE_INDEX=2, CIRCLE_NODE_TOTAL=3"),
        (["JOB_COMPLETION_INDEX": "1", "COURIER_SHARD_TOTAL": "3"], "2/3",
         "Kubernetes Indexed Job: JOB_COMPLETION_INDEX=1, COURIER_SHARD_TOTAL=3"),
    ])
    func eachCI(environment: [String: String], slice: String, origin: String) throws {
        let request = try Self.resolve(["--shard", "auto"], environment)
        #expect(request?.shard == Shard(slice))
        #expect(request?.origin == origin)
        #expect(request?.headline(taken: 2, of: 5) == "shard \(slice) (\(origin)): 2 of 5 selected workflows\n")
        // COURIER_SHARD=auto is the same request.
        var withVariable = environment
        withVariable["COURIER_SHARD"] = "auto"
        #expect(try Self.resolve([], withVariable)?.shard == Shard(slice))
    }

    @Test("a Kubernetes Indexed Job takes its total from --shard-total, which beats COURIER_SHARD_TOTAL")
    func kubernetesTotal() throws {
        let request = try Self.resolve(["--shard", "auto", "--shard-total", "4"], ["JOB_COMPLETION_INDEX": "3", "COURIER_SHARD_TOTAL": "9"])
        #expect(request?.shard == Shard(index: 4, total: 4))
        #expect(request?.origin == "Kubernetes Indexed Job: JOB_COMPLETION_INDEX=3, --shard-total 4")
    }

    @Test("COURIER_SHARD=K/N is --shard K/N, named on the first line; --shard beats it")
    func variable() throws {
        #expect(try Self.resolve([], ["COURIER_SHARD": "2/3"]) == ShardRequest(shard: Shard(index: 2, total: 3)!, strategy: .hash,
                                                                                origin: "COURIER_SHARD=2/3"))
        #expect(try Self.resolve(["--shard", "1/2"], ["COURIER_SHARD": "2/3"])?.shard == Shard(index: 1, total: 2))
        #expect(Self.message([], ["COURIER_SHARD": "4/3"])?.hasPrefix("COURIER_SHARD takes K/N") == true)
    }

    /// (arguments, environment, the start of the usage error).
    @Test("bad values are usage errors", arguments: [
        (["--shard", "0/3"], [:], "--shard takes K/N, the K-th of N slices with 1 ≤ K ≤ N (e.g. 2/3), or auto, not '0/3'"),
        (["--shard", "4/3"], [:], "--shard takes K/N"),
        (["--shard", "x/y"], [:], "--shard takes K/N"),
        (["--shard", "auto"], [:], "--shard auto: no CI says which parallel job this is (none of GitLab CI_NODE_INDEX/CI_NODE_TOTAL, "),
        (["--shard", "auto"], ["CI_NODE_INDEX": "0", "CI_NODE_TOTAL": "3"],
         "--shard auto: GitLab: CI_NODE_INDEX=0, CI_NODE_TOTAL=3 is not a slice (CI_NODE_INDEX counts from 1"),
        (["--shard", "auto"], ["BUILDKITE_PARALLEL_JOB": "3", "BUILDKITE_PARALLEL_JOB_COUNT": "3"],
         "--shard auto: Buildkite: BUILDKITE_PARALLEL_JOB=3, BUILDKITE_PARALLEL_JOB_COUNT=3 is not a slice (BUILDKITE_PARALLEL_JOB counts from 0"),
        (["--shard", "auto"], ["CIRCLE_NODE_INDEX": "x", "CIRCLE_NODE_TOTAL": "3"], "--shard auto: CircleCI: CIRCLE_NODE_INDEX=x"),
        (["--shard", "auto"], ["CI_NODE_INDEX": "1"], "--shard auto: CI_NODE_INDEX is set but CI_NODE_TOTAL is not (GitLab)"),
        (["--shard", "auto"], ["JOB_COMPLETION_INDEX": "0"], "--shard auto: JOB_COMPLETION_INDEX is set (Kubernetes Indexed Job) but not the number of slices"),
        (["--shard", "auto"], ["CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "2", "CIRCLE_NODE_INDEX": "0", "CIRCLE_NODE_TOTAL": "2"],
         "--shard auto: more than one CI's variables are set (CI_NODE_INDEX for GitLab, CIRCLE_NODE_INDEX for CircleCI)"),
        (["--shard", "auto", "--shard-total", "4"], ["CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "3"], "--shard-total 4 disagrees with CI_NODE_TOTAL=3 (GitLab)"),
        (["--shard", "1/3", "--shard-total", "3"], [:], "--shard-total is for --shard auto in a Kubernetes Indexed Job"),
        (["--shard", "auto", "--shard-total", "0"], ["JOB_COMPLETION_INDEX": "0"], "--shard-total takes a positive number, not '0'"),
        (["--shard", "1/3", "--shard-by", "size"], [:], "--shard-by takes hash or count, not 'size'"),
        (["--shard-by", "count"], [:], "--shard-by needs --shard"),
        (["--shard-total", "3"], ["JOB_COMPLETION_INDEX": "0"], "--shard-total needs --shard"),
    ] as [([String], [String: String], String)])
    func badValues(arguments: [String], environment: [String: String], start: String) {
        let message = Self.message(arguments, environment)
        #expect(message?.hasPrefix(start) == true, "\(message ?? "no error")")
    }
}
