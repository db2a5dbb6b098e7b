import CourierHTTP
import CourierResults
import CourierSecrets

/// A body's bytes as a ``BodyRecord``: decoded to text, masked, then cut to the limit.
enum BodyRecorder {
    /// Masked before it is cut: a secret straddling the cut would otherwise show its
    /// first characters. Only a window of `limit` plus the longest secret form is
    /// read, as a form crossing the cut lies wholly inside it, so a 256 MiB body costs
    /// a 64 KiB record. A body in a declared charset (or with a byte order mark) is
    /// decoded: the window is taken in the body's bytes and the cut made in the text's,
    /// so the omitted count adds the bytes not read to the text's bytes cut.
    static func record(_ bytes: [UInt8], charset: String?, policy: MaskingPolicy, limit: Int = BodyRecord.limit) -> BodyRecord {
        if bytes.isEmpty { return BodyRecord() }
        let window = bytes.prefix(limit + max(policy.longestForm, 4))
        let text: String
        let notRead: Int
        var unknownCharset: String?
        if charset == nil && !CharsetDecoder.hasByteOrderMark(window) {
            // UTF-8 by default: bytes that are not UTF-8 are most likely not text at all.
            guard let utf8 = String(validating: window, as: UTF8.self) ?? validPrefix(window) else {
                return BodyRecord(totalBytes: bytes.count, binary: true)
            }
            text = utf8
            notRead = bytes.count - utf8.utf8.count
        } else {
            let decoded = CharsetDecoder.decode(window, charset: charset, isPrefix: window.count < bytes.count)
            unknownCharset = decoded.unknownCharset
            text = decoded.text
            notRead = bytes.count - decoded.bytesRead
        }
        let cut = policy.maskThenCut(text, limit: limit, isPrefix: notRead > 0)
        return BodyRecord(totalBytes: bytes.count, text: cut.text, omittedBytes: notRead + cut.omittedBytes,
                          unknownCharset: unknownCharset)
    }

    /// A cut may fall inside a UTF-8 sequence; back off to the last whole character.
    private static func validPrefix(_ bytes: ArraySlice<UInt8>) -> String? {
        for drop in 1...3 where bytes.count > drop {
            if let text = String(validating: bytes.dropLast(drop), as: UTF8.self) { return text }
        }
        return nil
    }
}
