import CourierEngine
import CourierResults
import Dispatch
import Foundation
import Synchronization

/// SIGINT (Ctrl-C), SIGTERM (`docker stop`, CI cancellation) and SIGHUP (a closed
/// terminal) during a run: the first one stops the run gracefully (the current
/// request is cancelled, reports of what ran are written, teardowns run within
/// their deadline, reports are written again, exit 128 + its number); a second
/// one quits at once, after writing the reports of what has finished.
final class StopSignals {
    static let handled: [(number: Int32, name: String)] = [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM"), (SIGHUP, "SIGHUP")]

    private let sources: [any DispatchSourceSignal]
    /// Signals ignored when courier started: left ignored, also by `remove`.
    private let ignoredAtStart: Set<Int32>

    private init(sources: [any DispatchSourceSignal], ignoredAtStart: Set<Int32>) {
        self.sources = sources
        self.ignoredAtStart = ignoredAtStart
    }

    /// `first` gets the first signal; `again` gets that same first signal when
    /// another one arrives, and must not return (it ends the process).
    static func install(first: @escaping @Sendable (Interruption) -> Void,
                        again: @escaping @Sendable (Interruption) -> Never) -> StopSignals {
        let received = Mutex<Interruption?>(nil)
        let ignoredAtStart = Set(handled.map(\.number).filter(isIgnored))
        let sources = handled.compactMap { signalNumber, name -> (any DispatchSourceSignal)? in
            // A signal ignored when we started stays ignored (`nohup`, background jobs of a script).
            guard !ignoredAtStart.contains(signalNumber) else { return nil }
            // Dispatch sees the signal only once its default action (death) is off.
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                let interruption = Interruption(signal: signalNumber, signalName: name)
                let earlier = received.withLock { stored -> Interruption? in
                    if let stored { return stored }
                    stored = interruption
                    return nil
                }
                if let earlier {
                    Output.err("\n\(name) after \(earlier.signalName): writing the reports of what finished and quitting now\n")
                    again(earlier)
                }
                let how = signalNumber == SIGINT ? "Ctrl-C" : "send \(name)"
                Output.err("\ninterrupted by \(name): stopping the current step, running teardowns (\(how) again to quit now)\n")
                first(interruption)
            }
            source.resume()
            return source
        }
        return StopSignals(sources: sources, ignoredAtStart: ignoredAtStart)
    }

    /// Back to the default actions: from now on a signal ends the process at once.
    func remove() {
        for source in sources { source.cancel() }
        for (number, _) in Self.handled where !ignoredAtStart.contains(number) { signal(number, SIG_DFL) }
    }

    /// Whether the signal's disposition is SIG_IGN (`(void (*)(int)) 1`).
    private static func isIgnored(_ signalNumber: Int32) -> Bool {
        var current = sigaction()
        guard sigaction(signalNumber, nil, &current) == 0 else { return false }
        return unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == 1
    }
}
