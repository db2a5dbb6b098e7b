import CourierDiagnostics

/// A value with the source range it was written at.
package struct Located<Value: Sendable>: Sendable {
    package var value: Value
    package var range: SourceRange

    package init(_ value: Value, range: SourceRange) {
        self.value = value
        self.range = range
    }
}

extension Located: Equatable where Value: Equatable {}
extension Located: Hashable where Value: Hashable {}
