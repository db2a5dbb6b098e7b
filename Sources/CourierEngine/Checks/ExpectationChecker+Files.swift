import CourierDiagnostics
import CourierJSON
import CourierResults
import CourierWorkflow

extension ExpectationChecker {
    /// "bytes" or "raw bytes": the subject of `bytes:` results.
    static func bytesSubject(_ which: BodyBytes) -> String {
        which == .raw ? "raw bytes" : "bytes"
    }

    /// `bytes: { equals_file: path }`: the body's bytes against the file's, read now (a
    /// literal path was checked at load), the first difference named.
    func compare(_ file: BytesFile, _ item: Expectation, response: ResponseView) -> ExpectationResult {
        guard case .bytes(_, let which) = item.target else { return .passed(location: item.range, subject: "bytes", expected: nil, actual: nil) }
        let subject = Self.bytesSubject(which)
        let written: String
        do { written = try renderer.string(file.path) } catch {
            return .failure(location: error.range ?? item.range, subject: subject, message: "\(subject): equals_file: \(error.message)")
        }
        let path = FilePaths.resolve(written, against: file.directory)
        let actual = response.bytes(which)
        let actualWords = Self.describe(actual, sha256: response.bytesValue(.sha256, which))
        let expected: [UInt8]
        do {
            // One byte past the body's size is enough to know the file is longer.
            expected = try BoundedFileReader.read(path, limit: actual.count + 1, what: "equals_file")
        } catch {
            if case .tooLarge = error.reason {
                return .failure(location: item.range, subject: subject,
                                message: "\(subject): the body has \(actual.count) bytes, '\(written)' more",
                                expected: "the bytes of \(written) (more than \(actual.count))", actual: actualWords)
            }
            return .failure(location: item.range, subject: subject,
                            message: "\(subject): cannot read '\(written)' for 'equals_file': \(error.reasonText)")
        }
        let expectedWords = "the bytes of \(written): " + Self.describe(expected, sha256: .string(SHA256.hexDigest(expected)))
        if expected == actual {
            return .passed(location: item.range, subject: subject, expected: .words(expectedWords), actual: .words(actualWords))
        }
        let message: String
        if let offset = (0..<min(expected.count, actual.count)).first(where: { expected[$0] != actual[$0] }) {
            message = "\(subject): differ from '\(written)' at byte \(offset) (expected 0x\(HexText.encode([expected[offset]])), "
                + "got 0x\(HexText.encode([actual[offset]])))"
        } else {
            let shorter = expected.count < actual.count ? "'\(written)'" : "the body"
            message = "\(subject): the body has \(actual.count) bytes, '\(written)' \(expected.count); "
                + "they agree up to where \(shorter) ends"
        }
        return .failure(location: item.range, subject: subject, message: message, expected: expectedWords, actual: actualWords)
    }

    /// "1234 bytes, sha256 9f86…": enough to tell two bodies apart in a report.
    private static func describe(_ bytes: [UInt8], sha256: JSONValue) -> String {
        guard case .string(let digest) = sha256 else { return "\(bytes.count) bytes" }
        return "\(bytes.count) byte\(bytes.count == 1 ? "" : "s"), sha256 \(digest)"
    }
}
