import Dispatch
import Foundation
import Synchronization

/// Turns Ctrl-C into a cancellation, so the run stops after the current step,
/// runs teardowns, writes its reports and exits with 130.
/// A second Ctrl-C exits at once.
final class Interrupt {
    private let source: any DispatchSourceSignal

    private init(source: any DispatchSourceSignal) { self.source = source }

    static func onSIGINT(_ handler: @escaping @Sendable () -> Void) -> Interrupt {
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        let count = Mutex(0)
        source.setEventHandler {
            let times = count.withLock { n in n += 1; return n }
            if times == 1 {
                FileHandle.standardError.write(Data("\ninterrupted: finishing the current step and teardowns (Ctrl-C again to quit now)\n".utf8))
                handler()
            } else {
                exit(130)
            }
        }
        source.resume()
        return Interrupt(source: source)
    }

    func cancel() {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }
}
