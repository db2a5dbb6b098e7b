import CourierEngine
import CourierReports
import Dispatch
import Foundation

/// Writes the reports a run asked for (`--junit`, later `--json`, `--html`),
/// one write at a time, whichever thread asks: the engine's "main steps have
/// stopped" callback, the end of the run, or a second signal.
final class ReportSink: Sendable {
    let requests: [ReportRequest]
    /// Keeps background writes in order, before the final one.
    private let queue = DispatchQueue(label: "courier.reports")
    /// One writer at a time: a FIFO or `-` must never get two reports interleaved.
    private let lock = NSLock()

    init(_ requests: [ReportRequest]) { self.requests = requests }

    /// Writes without waiting (from the engine's thread, which must not block on disks).
    func writeInBackground(_ run: RunResult) {
        guard !requests.isEmpty else { return }
        queue.async {
            // A failure here shows again, and is reported, when the final reports are written.
            _ = self.writeLocked(run)
        }
    }

    /// Writes every report after the background writes queued before; returns
    /// one message per report that could not be written (the others still are).
    func write(_ run: RunResult) -> [String] {
        guard !requests.isEmpty else { return [] }
        return queue.sync { writeLocked(run) }
    }

    /// For a second signal: writes now, waiting at most 2 s for a write in progress.
    func writeBeforeExit(_ run: RunResult) -> [String] {
        let locked = lock.lock(before: Date(timeIntervalSinceNow: 2))
        defer { if locked { lock.unlock() } }
        return writeAll(run)
    }

    private func writeLocked(_ run: RunResult) -> [String] {
        lock.lock()
        defer { lock.unlock() }
        return writeAll(run)
    }

    private func writeAll(_ run: RunResult) -> [String] {
        var failures: [String] = []
        for request in requests {
            do {
                try request.write(run)
            } catch {
                failures.append("\(request.format.title): \(error)")
            }
        }
        return failures
    }
}
