import CourierDiagnostics
import CourierResults
import CourierWorkflow

/// The slice a run or a listing asked for, resolved from `--shard`, `--shard-by` and
/// `--shard-total` (or `COURIER_SHARD`, `COURIER_SHARD_TOTAL`) and, for `auto`, the CI's own
/// variables. Resolved before anything is loaded: a wrong value is a usage error (exit 2).
struct ShardRequest: Equatable {
    let shard: Shard
    let strategy: Shard.Strategy
    /// Where the slice came from when it was not `--shard K/N` itself, as the first line of
    /// output says it: `GitLab: CI_NODE_INDEX=2, CI_NODE_TOTAL=3`, `COURIER_SHARD=2/3`.
    let origin: String?

    /// The options `run` and `list` share.
    static let options: [ArgumentParser.Option] = [
        .init(names: ["--shard"], value: "K/N",
              help: "only the K-th of N slices of the selected workflows (1-based); auto: from the CI's variables"),
        .init(names: ["--shard-by"], value: "HOW",
              help: "hash (default: a workflow's slice depends on its path alone) or count (sizes within one)"),
        .init(names: ["--shard-total"], value: "N", help: "the number of slices, for --shard auto in a Kubernetes Indexed Job"),
    ]

    /// Nil when no slice was asked for.
    static func resolve(_ parsed: ArgumentParser.Parsed, environment: [String: String]) throws(UsageError) -> ShardRequest? {
        func variable(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        let fromOption = parsed.last("--shard")
        guard let text = fromOption ?? variable("COURIER_SHARD") else {
            for option in ["--shard-by", "--shard-total"] where parsed.last(option) != nil {
                throw UsageError("\(option) needs --shard")
            }
            return nil
        }
        let source = fromOption == nil ? "COURIER_SHARD" : "--shard"
        var strategy = Shard.Strategy.hash
        if let how = parsed.last("--shard-by") {
            guard let chosen = Shard.Strategy(rawValue: how) else {
                throw UsageError("--shard-by takes hash or count, not '\(how)'")
            }
            strategy = chosen
        }
        let totalOption = parsed.last("--shard-total")
        if let totalOption, Shard.number(Substring(totalOption)).map({ $0 < 1 }) ?? true {
            throw UsageError("--shard-total takes a positive number, not '\(totalOption)'")
        }
        guard text == "auto" else {
            guard let shard = Shard(text) else {
                throw UsageError("\(source) takes K/N, the K-th of N slices with 1 ≤ K ≤ N (e.g. 2/3), or auto, not '\(text)'")
            }
            if totalOption != nil {
                throw UsageError("--shard-total is for --shard auto in a Kubernetes Indexed Job; \(source) \(text) already says the total")
            }
            return ShardRequest(shard: shard, strategy: strategy, origin: fromOption == nil ? "COURIER_SHARD=\(text)" : nil)
        }
        let present = CIShardVariables.known.filter { variable($0.indexVariable) != nil }
        guard let ci = present.first else {
            throw UsageError("\(source) auto: no CI says which parallel job this is (none of "
                + CIShardVariables.known.map(\.summary).joined(separator: ", ") + " is set); use --shard K/N")
        }
        guard present.count == 1 else {
            throw UsageError("\(source) auto: more than one CI's variables are set ("
                + present.map { "\($0.indexVariable) for \($0.name)" }.joined(separator: ", ") + "); use --shard K/N")
        }
        let indexText = variable(ci.indexVariable) ?? ""
        let totalText: String
        let totalOrigin: String
        if let name = ci.totalVariable {
            guard let value = variable(name) else {
                throw UsageError("\(source) auto: \(ci.indexVariable) is set but \(name) is not (\(ci.name))")
            }
            totalText = value
            totalOrigin = "\(name)=\(value)"
            if let totalOption, Shard.number(Substring(totalOption)) != Shard.number(Substring(value)) {
                throw UsageError("--shard-total \(totalOption) disagrees with \(name)=\(value) (\(ci.name))")
            }
        } else if let value = totalOption ?? variable("COURIER_SHARD_TOTAL") {
            totalText = value
            totalOrigin = totalOption != nil ? "--shard-total \(value)" : "COURIER_SHARD_TOTAL=\(value)"
        } else {
            throw UsageError("\(source) auto: \(ci.indexVariable) is set (\(ci.name)) but not the number of slices: "
                + "pass --shard-total N or set COURIER_SHARD_TOTAL")
        }
        let origin = "\(ci.name): \(ci.indexVariable)=\(indexText), \(totalOrigin)"
        guard let index = Shard.number(Substring(indexText)), let total = Shard.number(Substring(totalText)),
              let shard = Shard(index: index - ci.firstIndex + 1, total: total) else {
            throw UsageError("\(source) auto: \(origin) is not a slice (\(ci.indexVariable) counts from \(ci.firstIndex), "
                + "up to \(ci.firstIndex == 0 ? "the total minus one" : "the total"))")
        }
        return ShardRequest(shard: shard, strategy: strategy, origin: origin)
    }

    /// The first line of output: `shard 2/3 (GitLab: CI_NODE_INDEX=2, CI_NODE_TOTAL=3): 1 of 3 selected workflows`,
    /// and for a slice that holds none of them (exit 0: other slices have them) a note saying so.
    func headline(taken: Int, of selected: Int) -> String {
        let workflows = "\(selected) selected workflow\(selected == 1 ? "" : "s")"
        return "shard \(shard)" + (strategy == .count ? " by count" : "") + (origin.map { " (\($0))" } ?? "")
            + ": \(taken) of \(workflows)\n"
            + (taken == 0 ? "note: shard \(shard) holds none of the \(workflows); nothing to run\n" : "")
    }

    /// The positions of `keys` in this slice, in their order.
    func positions(of keys: [String]) -> [Int] {
        shard.positions(of: keys, by: strategy)
    }
}

extension ShardRequest {
    /// The workflows of `selected` in this slice, in path order, each placed by the key
    /// discovery gave its file (see ``WorkflowDiscovery/Candidate/shardKey``).
    func slice(_ selected: [Workflow], found: WorkflowDiscovery.Found) -> [Workflow] {
        var keys: [String: String] = [:]
        for candidate in found.candidates { keys[candidate.path] = candidate.shardKey }
        return positions(of: selected.map { keys[$0.file] ?? $0.file }).map { selected[$0] }
    }

    /// The diagnostics of the files in this slice, for the report of an invalid run: each file's
    /// errors are then in one slice's report, and the slices' reports merge. A file discovery did
    /// not find (an included fragment) is placed by its path; what has no file, in slice 1.
    /// Every slice still fails (exit 2) and prints every diagnostic.
    func diagnosticsInSlice(_ diagnostics: [Diagnostic], found: WorkflowDiscovery.Found) -> [Diagnostic] {
        var keys: [String: String] = [:]
        for candidate in found.candidates { keys[candidate.path] = candidate.shardKey }
        return diagnostics.filter { diagnostic in
            guard let file = diagnostic.range?.file else { return shard.index == 1 }
            // By hash also with `--shard-by count`: the deal is of the selected workflows, and an
            // invalid file never became one.
            return shard.positions(of: [keys[file] ?? file], by: .hash) == [0]
        }
    }

    /// What the reports record: `run.shard`.
    var recorded: RunShard { RunShard(index: shard.index, total: shard.total) }
}
