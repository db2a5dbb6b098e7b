import CourierSync

/// The secrets of one run, registered as the engine meets them, and the
/// ``MaskingPolicy`` every output of the run goes through.
///
/// One registry per run, shared by the engine (which registers `secrets:`,
/// `secret: true` captures, credential headers, TLS passwords) and the
/// console and report writers (which mask with ``policy`` on every write).
///
///     let registry = SecretRegistry()
///     registry.register("hunter2-x", name: "password")
///     output.write(registry.policy.mask(text))
package final class SecretRegistry: Sendable {
    private struct State {
        /// Every value, in the order registered, with the first name given for it.
        var secrets: [(value: String, name: String?)] = []
        /// Index into `secrets` by value: registering a known value is a lookup.
        var index: [String: Int] = [:]
        /// Compiled on first use after a registration.
        var policy: MaskingPolicy? = .empty
        /// The matchers compiled so far, each for a run of `secrets`, oldest first.
        var generations: [Generation] = []
        /// Bumped on every change, so a policy compiled meanwhile is not cached as current.
        var version = 0
    }

    /// A matcher for `secrets[range]`.
    private struct Generation {
        var range: Range<Int>
        var matcher: SecretMatcher
    }

    private let state = PthreadLock(State())

    package init() {}

    /// Adds `value` (all its forms) to what every output masks. Cheap when the
    /// value is known already; a name given later fills in a missing one.
    ///
    /// Values shorter than ``SecretForms/minimumLength`` are masked as written
    /// only (see ``SecretForms/forms(of:)``). An empty value is ignored.
    package func register(_ value: String, name: String? = nil) {
        guard !value.isEmpty else { return }
        state.withLock { state in
            // Keys compare as `String`s do (canonical equivalence): NFC and NFD of
            // one value are one entry, and its forms cover both normalizations.
            if let known = state.index[value] {
                if state.secrets[known].name == nil, let name {
                    state.secrets[known].name = name
                    state.policy = nil
                    state.version += 1
                }
                return
            }
            state.index[value] = state.secrets.count
            state.secrets.append((value, name))
            state.policy = nil
            state.version += 1
        }
    }

    /// The policy for everything registered so far (compiled once per change).
    package var policy: MaskingPolicy {
        if let policy = state.withLock({ $0.policy }) { return policy }
        // Compiled outside the lock: with thousands of secrets it takes a while,
        // and registrations meanwhile only make a newer policy be compiled next time.
        let (secrets, generations, version) = state.withLock { ($0.secrets, $0.generations, $0.version) }
        var updated = generations
        let compiled = updated.last?.range.upperBound ?? 0
        if compiled < secrets.count {
            // New values get a matcher of their own; a generation no larger than the
            // new one is folded into it (a binary counter), so each value is compiled
            // O(log n) times however the run trickles them in, and a policy holds
            // O(log n) matchers.
            var range = compiled..<secrets.count
            while let last = updated.last, last.range.count <= range.count {
                range = last.range.lowerBound..<range.upperBound
                updated.removeLast()
            }
            updated.append(Generation(range: range, matcher: MaskingPolicy.matcher(for: secrets[range])))
        }
        let policy = MaskingPolicy(secrets: secrets, matchers: updated.map(\.matcher))
        state.withLock { state in
            guard state.version == version else { return }
            state.generations = updated
            state.policy = policy
        }
        return policy
    }

    /// The values registered so far, in order.
    package var values: [String] { state.withLock { $0.secrets.map(\.value) } }

    /// How many values are registered.
    package var count: Int { state.withLock { $0.secrets.count } }
}
