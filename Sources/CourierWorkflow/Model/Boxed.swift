/// A large value kept behind one reference, for model fields that are usually absent:
/// a step's storage holds 8 bytes for it instead of the value's few hundred, which a
/// 2,000-step workflow paid for in memory and page faults while loading.
final class Boxed<Value: Sendable>: Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}
