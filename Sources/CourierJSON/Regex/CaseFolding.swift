/// Simple case folding for case-insensitive matching (ECMA-262 `Canonicalize` with the `u`
/// flag): scalars match when their foldings are equal. Mappings that produce more than one
/// scalar (`ß` → `SS`) are not simple and leave the scalar as it is.
enum CaseFolding {
    @inline(__always)
    static func fold(_ value: UInt32) -> UInt32 {
        if value < 0x80 { return value >= 0x41 && value <= 0x5A ? value + 0x20 : value }
        return slowFold(value)
    }

    private static func slowFold(_ value: UInt32) -> UInt32 {
        guard let scalar = Unicode.Scalar(value) else { return value }
        let upper = single(scalar.properties.uppercaseMapping) ?? scalar
        return (single(upper.properties.lowercaseMapping) ?? upper).value
    }

    /// `value`, its folding and its single-scalar upper and lower case.
    static func variants(of value: UInt32) -> [UInt32] {
        guard let scalar = Unicode.Scalar(value) else { return [value] }
        var result = [value, fold(value)]
        if let upper = single(scalar.properties.uppercaseMapping) { result.append(upper.value) }
        if let lower = single(scalar.properties.lowercaseMapping) { result.append(lower.value) }
        return result
    }

    private static func single(_ text: String) -> Unicode.Scalar? {
        var iterator = text.unicodeScalars.makeIterator()
        guard let first = iterator.next(), iterator.next() == nil else { return nil }
        return first
    }
}
