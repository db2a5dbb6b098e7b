/// Sizes as people write them: `10MB`, `1GiB`, `512k`, `1048576`.
///
/// Decimal units are powers of 1000 (`kB`, `MB`, `GB`), binary ones powers of 1024
/// (`KiB`, `MiB`, `GiB`); a single letter (`k`, `M`, `G`) is binary, as in curl and nginx.
///
/// ```swift
/// ByteCount.parse("10MB")   // 10_000_000
/// ByteCount.parse("1GiB")   // 1_073_741_824
/// ByteCount.format(268_435_456)  // "256 MiB"
/// ```
package enum ByteCount {
    package static func parse(_ text: String) -> Int? {
        let trimmed = text.filter { $0 != " " && $0 != "_" }
        guard let split = trimmed.firstIndex(where: { !($0.isASCII && ($0.isNumber || $0 == ".")) }) ?? Optional(trimmed.endIndex),
              split != trimmed.startIndex, let number = Double(trimmed[..<split]), number >= 0 else { return nil }
        let multiplier: Double
        switch trimmed[split...].lowercased() {
        case "", "b": multiplier = 1
        case "kb": multiplier = 1e3
        case "mb": multiplier = 1e6
        case "gb": multiplier = 1e9
        case "k", "kib": multiplier = 1024
        case "m", "mib": multiplier = 1024 * 1024
        case "g", "gib": multiplier = 1024 * 1024 * 1024
        default: return nil
        }
        let bytes = (number * multiplier).rounded()
        guard bytes >= 1, bytes < Double(Int64.max / 2) else { return nil }
        return Int(bytes)
    }

    /// The largest binary unit that divides `bytes` exactly, else plain bytes.
    package static func format(_ bytes: Int) -> String {
        for (unit, size) in [("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)] where bytes >= size && bytes % size == 0 {
            return "\(bytes / size) \(unit)"
        }
        for (unit, size) in [("GB", 1_000_000_000), ("MB", 1_000_000), ("kB", 1000)] where bytes >= size && bytes % size == 0 {
            return "\(bytes / size) \(unit)"
        }
        return "\(bytes) bytes"
    }
}
