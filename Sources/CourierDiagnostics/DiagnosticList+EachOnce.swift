extension DiagnosticList {
    /// `diagnostics` with each repeated one left out after its first place (a file included
    /// twice is checked twice; an alias repeats its anchor's templates).
    ///
    /// Remembers hash values, not diagnostics: a validate of a generated file makes tens of
    /// thousands of warnings, and a `Set<Diagnostic>` of them doubled what it held. Equal
    /// hashes are compared in full, so a collision never drops a distinct diagnostic.
    package static func eachOnce(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        guard diagnostics.count > 1 else { return diagnostics }
        // Hash value → index of the first diagnostic kept with it (`collisions` holds the rest).
        var first: [Int: Int] = Dictionary(minimumCapacity: diagnostics.count)
        var collisions: [Int: [Int]] = [:]
        var kept: [Diagnostic] = []
        kept.reserveCapacity(diagnostics.count)
        for diagnostic in diagnostics {
            let hash = diagnostic.hashValue
            guard let index = first[hash] else {
                first[hash] = kept.count
                kept.append(diagnostic)
                continue
            }
            if kept[index] == diagnostic || collisions[hash, default: []].contains(where: { kept[$0] == diagnostic }) { continue }
            collisions[hash, default: []].append(kept.count)
            kept.append(diagnostic)
        }
        return kept
    }
}
