/// Where a CI says which parallel job this is, for `--shard auto`: one row per CI, read by
/// one evaluation (``ShardRequest``). Only read when asked (`auto`): a variable left over in
/// an environment must never slice a run nobody asked to slice.
struct CIShardVariables {
    /// As the first line of output names it: `GitLab`.
    let name: String
    let indexVariable: String
    /// Nil for a Kubernetes Indexed Job, which has no such variable: the total comes from
    /// `--shard-total N` or `COURIER_SHARD_TOTAL`.
    let totalVariable: String?
    /// The index of the first job: 1 (GitLab) or 0.
    let firstIndex: Int

    static let known: [CIShardVariables] = [
        .init(name: "GitLab", indexVariable: "CI_NODE_INDEX", totalVariable: "CI_NODE_TOTAL", firstIndex: 1),
        .init(name: "Buildkite", indexVariable: "BUILDKITE_PARALLEL_JOB", totalVariable: "BUILDKITE_PARALLEL_JOB_COUNT", firstIndex: 0),
        .init(name: "CircleCI", indexVariable: "CIRCLE_NODE_INDEX", totalVariable: "CIRCLE_NODE_TOTAL", firstIndex: 0),
        .init(name: "Kubernetes Indexed Job", indexVariable: "JOB_COMPLETION_INDEX", totalVariable: nil, firstIndex: 0),
    ]

    /// `GitLab CI_NODE_INDEX/CI_NODE_TOTAL`, for the message that none is set.
    var summary: String {
        "\(name) \(indexVariable)" + (totalVariable.map { "/\($0)" } ?? " with --shard-total N")
    }
}
