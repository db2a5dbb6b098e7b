// Times CourierJSON on one document: parse (best of REPEAT runs, and the first run), then
// `$..price`. Prints peak RSS. Uses only Glibc so the numbers are CourierJSON's, not Foundation's.
// Usage: courier-json-bench FILE [REPEAT]
import CourierJSON
import Glibc

func fail(_ message: String) -> Never {
    var text = "error: \(message)\n"
    text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    exit(2)
}

func readFile(_ path: String) -> [UInt8]? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    fseek(file, 0, SEEK_END)
    let size = ftell(file)
    fseek(file, 0, SEEK_SET)
    guard size >= 0 else { return nil }
    let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
        count = fread(buffer.baseAddress, 1, size, file)
    }
    return bytes.count == size ? bytes : nil
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

func peakRSSBytes() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_maxrss * 1024  // kilobytes on Linux
}

func fixed(_ value: Double, _ digits: Int = 4) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = Int((value * scale).rounded())
    let whole = scaled / Int(scale)
    let fraction = String(scaled % Int(scale))
    return "\(whole).\(String(repeating: "0", count: digits - fraction.count))\(fraction)"
}

let arguments = CommandLine.arguments
guard arguments.count >= 2 else { fail("usage: courier-json-bench FILE [REPEAT]") }
let repeats = arguments.count > 2 ? max(1, Int(arguments[2]) ?? 1) : 1
let baselineRSS = peakRSSBytes()
guard let bytes = readFile(arguments[1]) else { fail("cannot read '\(arguments[1])'") }

let clock = ContinuousClock()
var times: [Double] = []
var document = JSONValue.null
var peakAfterFirstParse = 0
for run in 0..<repeats {
    document = .null
    let start = clock.now
    do {
        document = try JSONValue.parse(bytes)
    } catch {
        fail("\(arguments[1]):\(error)")
    }
    times.append(seconds(clock.now - start))
    if run == 0 { peakAfterFirstParse = peakRSSBytes() }
}

let query: JSONPath
do {
    query = try JSONPath("$..price")
} catch {
    fail("\(error)")
}
let valuesStart = clock.now
let priceValues = query.values(in: document)
let valuesTime = seconds(clock.now - valuesStart)
let queryStart = clock.now
let prices = query.evaluate(document)
let queryTime = seconds(clock.now - queryStart)

print("input_bytes \(bytes.count)")
print("courier_parse_first_seconds \(fixed(times[0]))")
print("courier_parse_best_seconds \(fixed(times.min() ?? 0)) (of \(repeats))")
print("baseline_rss_bytes \(baselineRSS)")
print("peak_rss_after_first_parse_bytes \(peakAfterFirstParse) (\(fixed(Double(peakAfterFirstParse) / Double(bytes.count), 2))x input)")
print("query_dollar_dot_dot_price_values_seconds \(fixed(valuesTime)) (\(priceValues.count) values, no paths)")
print("query_dollar_dot_dot_price_seconds \(fixed(queryTime)) (\(prices.count) nodes with normalized paths)")
print("peak_rss_bytes \(peakRSSBytes()) (\(fixed(Double(peakRSSBytes()) / Double(bytes.count), 2))x input)")
