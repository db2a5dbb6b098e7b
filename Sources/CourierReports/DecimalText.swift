/// Numbers with a fixed count of decimals for reports (the console's times and rates,
/// JUnit's `time` attributes), without `String(format:)`: its first call sets up
/// Foundation's locale machinery, about half a millisecond per run, and JUnit calls it
/// for every test case.
enum DecimalText {
    /// `value` with `decimals` digits after the point, rounded half away from zero
    /// (printf's `%.Nf` agrees but for exact halves, which it rounds to even).
    static func fixed(_ value: Double, decimals: Int) -> String {
        var scale = 1
        for _ in 0..<decimals { scale *= 10 }
        // 9e18 is below Int.max with room for the double's rounding: the conversion cannot trap.
        guard value.isFinite, abs(value) * Double(scale) < 9e18 else { return "\(value)" }
        let scaled = Int((abs(value) * Double(scale)).rounded())
        let fraction = String(scaled % scale)
        let digits = decimals == 0 ? "" : "." + String(repeating: "0", count: decimals - fraction.count) + fraction
        return (value < 0 && scaled != 0 ? "-" : "") + String(scaled / scale) + digits
    }
}
