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
///
/// The handler is a plain `sigaction` one that writes the signal's number to a pipe, and
/// the pipe is read on a dispatch queue. A dispatch signal source would do without the pipe,
/// but it registers asynchronously, after its default action has been turned off: a signal
/// in between was lost (on a busy CI machine, a `docker stop` seconds into the run). The
/// handler is in place when `install` returns, and the pipe keeps a signal until it is read.
final class StopSignals {
    static let handled: [(number: Int32, name: String)] = [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM"), (SIGHUP, "SIGHUP")]

    private let reader: any DispatchSourceRead
    /// Signals whose handler is ours (not those ignored when courier started).
    private let installed: [Int32]

    private init(reader: any DispatchSourceRead, installed: [Int32]) {
        self.reader = reader
        self.installed = installed
    }

    /// `first` gets the first signal; `again` gets that same first signal when
    /// another one arrives, and must not return (it ends the process).
    static func install(first: @escaping @Sendable (Interruption) -> Void,
                        again: @escaping @Sendable (Interruption) -> Never) -> StopSignals {
        let pipe = SignalPipe.open()
        let received = Mutex<Interruption?>(nil)
        let reader = DispatchSource.makeReadSource(fileDescriptor: pipe.read, queue: .global())
        reader.setEventHandler {
            var numbers = [UInt8](repeating: 0, count: 16)
            let count = numbers.withUnsafeMutableBytes { Glibc.read(pipe.read, $0.baseAddress, $0.count) }
            for number in numbers.prefix(max(0, count)) {
                guard let name = handled.first(where: { $0.number == Int32(number) })?.name else { continue }
                handle(Interruption(signal: Int32(number), signalName: name), received: received, first: first, again: again)
            }
        }
        reader.resume()
        // A signal ignored when we started stays ignored (`nohup`, background jobs of a script).
        let installed = handled.map(\.number).filter { !isIgnored($0) }
        for number in installed { setAction(number, handler: SignalPipe.handler) }
        return StopSignals(reader: reader, installed: installed)
    }

    private static func handle(_ interruption: Interruption, received: borrowing Mutex<Interruption?>,
                               first: @Sendable (Interruption) -> Void, again: @Sendable (Interruption) -> Never) {
        let name = interruption.signalName
        let earlier = received.withLock { stored -> Interruption? in
            if let stored { return stored }
            stored = interruption
            return nil
        }
        if let earlier {
            Output.err("\n\(name) after \(earlier.signalName): writing the reports of what finished and quitting now\n")
            again(earlier)
        }
        let how = interruption.signal == SIGINT ? "Ctrl-C" : "send \(name)"
        Output.err("\ninterrupted by \(name): stopping the current step, running teardowns (\(how) again to quit now)\n")
        first(interruption)
    }

    /// Back to the default actions: from now on a signal ends the process at once.
    func remove() {
        for number in installed { Self.setAction(number, handler: nil) }
        reader.cancel()
    }

    /// `handler`, or the default action for nil. `SA_RESTART`: a signal does not make the
    /// other threads' system calls fail with `EINTR`.
    private static func setAction(_ number: Int32, handler: (@convention(c) (Int32) -> Void)?) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler ?? SIG_DFL
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        sigaction(number, &action, nil)
    }

    /// Whether the signal's disposition is SIG_IGN (`(void (*)(int)) 1`).
    private static func isIgnored(_ signalNumber: Int32) -> Bool {
        var current = sigaction()
        guard sigaction(signalNumber, nil, &current) == 0 else { return false }
        return unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == 1
    }
}

/// The pipe between the signal handler and its reader. A signal handler may call only
/// async-signal-safe functions and can capture nothing, so it writes the signal's number
/// with `write(2)` to a descriptor kept in a global, set before any handler is installed.
private enum SignalPipe {
    /// Written once, by `open()`, before `handler` can run; only read afterwards.
    nonisolated(unsafe) static var writeEnd: Int32 = -1

    static let handler: @convention(c) (Int32) -> Void = { number in
        let saved = errno
        var byte = UInt8(truncatingIfNeeded: number)
        _ = write(SignalPipe.writeEnd, &byte, 1)
        errno = saved
    }

    /// One pipe per process, made the first time (the run installs its handlers once;
    /// tests install them more often). Non-blocking on both ends: a handler never blocks,
    /// and the reader takes what is there.
    static func open() -> (read: Int32, write: Int32) { ends }

    private static let ends: (read: Int32, write: Int32) = {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { fatalError("cannot make the signal pipe: errno \(errno)") }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        writeEnd = fds[1]
        return (fds[0], fds[1])
    }()
}
