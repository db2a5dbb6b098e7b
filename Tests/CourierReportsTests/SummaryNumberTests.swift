@testable import CourierReports
import Foundation
import Testing

/// Report numbers (the summary's times and rates, JUnit's `time`) are formatted without
/// Foundation's `String(format:)` (its locale set-up cost half a millisecond per run); they
/// must read the same.
@Suite struct SummaryNumberTests {
    @Test(arguments: [
        (12.345, 1, "12.3"), (0.05, 1, "0.1"), (24214.04, 1, "24214.0"), (1.005, 2, "1.00"), (1234.5678, 2, "1234.57"),
        (0.001, 2, "0.00"), (2.5, 0, "3"), (99.999, 2, "100.00"), (7, 3, "7.000"), (0.0125, 3, "0.013"),
    ])
    func examples(value: Double, decimals: Int, expected: String) {
        #expect(DecimalText.fixed(value, decimals: decimals) == expected)
    }

    @Test("agrees with printf's %.Nf away from exact halves") func agreesWithPrintf() {
        // A fixed sequence (a 64-bit LCG), so a failure reproduces.
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        for _ in 0..<5000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let value = Double(state >> 11) / Double(1 << 53) * 200_000
            for decimals in 1...3 {
                let scaled = value * pow(10, Double(decimals))
                // An exact half rounds to even in printf and away from zero here: not compared.
                if scaled - scaled.rounded(.down) == 0.5 { continue }
                #expect(DecimalText.fixed(value, decimals: decimals) == String(format: "%.\(decimals)f", value), "\(value)")
            }
        }
    }
}
