import CourierEngine
import CourierReports
import CourierResults
import CourierSecrets
import Dispatch
import Foundation
import Synchronization

/// Writes the reports a run asked for (`--junit`, later `--json`, `--html`),
/// one write at a time, whichever thread asks: the engine's "main steps have
/// stopped" callback, the end of the run, or a second signal.
///
/// Every report is masked with the run's `secrets` as it is written.
final class ReportSink: Sendable {
    let requests: [ReportRequest]
    private let secrets: SecretRegistry
    /// Keeps background writes in order, before the final one.
    private let queue = DispatchQueue(label: "courier.reports")
    /// One writer at a time: a FIFO or `-` must never get two reports interleaved.
    private let lock = NSLock()
    /// Indices of requests going to a stream (`-`, a FIFO, a device) that got their
    /// report: a stream takes one report, the last word, never a partial one and then another.
    private let streamed = Mutex<Set<Int>>([])

    /// The slice the run ran (`--shard`), recorded in every report it writes, the reports of
    /// an invalid run or of an empty selection too.
    private let shard: RunShard?
    /// What reports name workflow files against (JUnit `classname` and `file`).
    private let root: ProjectRoot?

    init(_ requests: [ReportRequest], secrets: SecretRegistry, shard: RunShard? = nil, root: ProjectRoot? = nil) {
        self.requests = requests
        self.secrets = secrets
        self.shard = shard
        self.root = root
    }

    /// Writes a partial report without waiting (from the engine's thread, which must
    /// not block on disks), to files only: a stream waits for the final report.
    func writeInBackground(_ run: RunResult) {
        guard !requests.isEmpty else { return }
        queue.async {
            // A failure here shows again, and is reported, when the final reports are written.
            _ = self.writeLocked(run, partial: true)
        }
    }

    /// Writes every report after the background writes queued before; returns
    /// one message per report that could not be written (the others still are).
    func write(_ run: RunResult) -> [String] {
        guard !requests.isEmpty else { return [] }
        return queue.sync { writeLocked(run, partial: false) }
    }

    /// For a second signal: writes now, waiting at most 2 s for a write in progress.
    func writeBeforeExit(_ run: RunResult) -> [String] {
        let locked = lock.lock(before: Date(timeIntervalSinceNow: 2))
        defer { if locked { lock.unlock() } }
        return writeAll(run, partial: false)
    }

    private func writeLocked(_ run: RunResult, partial: Bool) -> [String] {
        lock.lock()
        defer { lock.unlock() }
        return writeAll(run, partial: partial)
    }

    private func writeAll(_ run: RunResult, partial: Bool) -> [String] {
        var run = run
        run.shard = run.shard ?? shard
        var failures: [String] = []
        for (index, request) in requests.enumerated() {
            if !ReportWriter.replacesWhole(request.path) {
                let first = streamed.withLock { written in partial ? false : written.insert(index).inserted }
                guard first else { continue }
            }
            do {
                try request.write(run, maskingWith: secrets, root: root)
            } catch {
                failures.append("\(request.format.title): \(error)")
            }
        }
        return failures
    }
}
