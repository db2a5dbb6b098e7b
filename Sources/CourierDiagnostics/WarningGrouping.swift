/// Identical warnings in one file are shown once, with a count and the first place:
/// `big.yaml:3:21: warning: variable 'base' is not defined … — 26,748 places, first at big.yaml:3:21`.
///
/// A generated workflow can repeat one mistake tens of thousands of times; one excerpt per
/// place buried everything else (53,000 lines for a 5 MB file). Errors are not grouped:
/// each must be fixed where it is, and ``DiagnosticList/sortedAndLimited`` bounds them.
extension DiagnosticList {
    /// `diagnostics` with each warning whose message repeats in its file replaced, at its
    /// first place, by one warning that says how many places there are. Order is kept.
    package static func groupingWarnings(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        struct Key: Hashable {
            var file: String?
            var message: String
        }
        var counts: [Key: Int] = [:]
        for diagnostic in diagnostics where diagnostic.severity == .warning {
            counts[Key(file: diagnostic.range?.file, message: diagnostic.message), default: 0] += 1
        }
        guard counts.values.contains(where: { $0 > 1 }) else { return diagnostics }
        var shown = Set<Key>()
        var result: [Diagnostic] = []
        result.reserveCapacity(diagnostics.count)
        for diagnostic in diagnostics {
            guard diagnostic.severity == .warning else {
                result.append(diagnostic)
                continue
            }
            let key = Key(file: diagnostic.range?.file, message: diagnostic.message)
            let count = counts[key, default: 1]
            guard count > 1 else {
                result.append(diagnostic)
                continue
            }
            guard shown.insert(key).inserted else { continue }
            var grouped = diagnostic
            let first = diagnostic.range.map { " first at \($0.start)" } ?? ""
            grouped.message += " — \(Self.grouped(count)) places,\(first)"
            if first.isEmpty { grouped.message.removeLast() }
            result.append(grouped)
        }
        return result
    }
}
