import CourierSecrets
import Foundation

// Masking throughput: courier-mask-bench FILE SECRETS [REPEAT]
// Registers SECRETS generated values, plants some of them (plain and base64)
// in FILE's text, masks it REPEAT times; prints build time, best throughput
// and how many masks were made (all planted ones must be found).

let arguments = CommandLine.arguments
guard arguments.count >= 3, let secretCount = Int(arguments[2]), secretCount > 0 else {
    FileHandle.standardError.write("usage: courier-mask-bench FILE SECRETS [REPEAT]\n".data(using: .utf8) ?? Data())
    exit(2)
}
let repeatCount = arguments.count > 3 ? max(1, Int(arguments[3]) ?? 3) : 3
guard let data = FileManager.default.contents(atPath: arguments[1]) else {
    FileHandle.standardError.write("cannot read \(arguments[1])\n".data(using: .utf8) ?? Data())
    exit(2)
}

// Deterministic secrets: 24 characters of letters, digits and a few specials.
// xorshift64: the same secrets every run.
var seed: UInt64 = 0x9E3779B97F4A7C15
let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_@+/ ")
var secrets: [String] = []
for _ in 0..<secretCount {
    var secret = ""
    for _ in 0..<24 {
        seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17
        secret.append(alphabet[Int(seed % UInt64(alphabet.count))])
    }
    secrets.append(secret)
}

let registry = SecretRegistry()
let buildStart = ContinuousClock.now
for (index, secret) in secrets.enumerated() { registry.register(secret, name: "s\(index)") }
let policy = registry.policy
let buildSeconds = (ContinuousClock.now - buildStart).seconds

// Plant 1,000 secrets (plain and base64) at spread positions.
var bytes = [UInt8](data)
let planted = 1000
for index in 0..<planted {
    let secret = secrets[index % secrets.count]
    let form = index % 2 == 0 ? Array(secret.utf8) : Array(Data(secret.utf8).base64EncodedString().utf8)
    let at = (bytes.count / planted) * index
    guard at + form.count < bytes.count else { break }
    bytes.replaceSubrange(at..<(at + form.count), with: form)
}

var best = Double.infinity
var masks = 0
for _ in 0..<repeatCount {
    let start = ContinuousClock.now
    let masked = policy.mask(bytes)
    best = min(best, (ContinuousClock.now - start).seconds)
    masks = 0
    var index = masked.startIndex
    while let found = masked[index...].firstIndex(of: UInt8(ascii: "*")) {
        if masked[found...].starts(with: Array("***".utf8)) { masks += 1; index = found + 3 } else { index = found + 1 }
    }
}
let megabytes = Double(bytes.count) / 1_000_000
print("secrets \(secretCount)")
print("forms_longest_bytes \(policy.longestForm)")
print("build_seconds \(String(format: "%.3f", buildSeconds))")
print("mask_best_seconds \(String(format: "%.3f", best))")
print("mask_mb_per_second \(String(format: "%.1f", megabytes / best))")
print("masks \(masks) planted \(planted)")

extension Duration {
    var seconds: Double {
        let (s, a) = components
        return Double(s) + Double(a) / 1e18
    }
}

// A run that meets its secrets one at a time (a token captured per for_each
// item), masking a console line after each: the policy is recompiled each time.
let trickle = SecretRegistry()
let line = String(repeating: "  PASS  step with an ordinary name  200  12 ms\n", count: 20)
let trickleStart = ContinuousClock.now
for secret in secrets.prefix(1000) {
    trickle.register(secret)
    _ = trickle.policy.mask(line)
}
print("trickle_\(min(1000, secrets.count))_registrations_seconds \(String(format: "%.3f", (ContinuousClock.now - trickleStart).seconds))")

if masks < planted {
    FileHandle.standardError.write("error: \(planted - masks) planted secrets were not masked\n".data(using: .utf8) ?? Data())
    exit(1)
}
