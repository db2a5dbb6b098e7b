@testable import CourierWorkflow
import Testing

/// SHA-256 and MD5 (`bytes.sha256`, `bytes.md5`, the `sha256` filter) against the published
/// vectors (FIPS 180-4 examples, RFC 1321 §A.5) and Python's hashlib at every padding boundary.
@Suite struct DigestTests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func sha256Vectors(message: String, digest: String) {
        #expect(SHA256.hexDigest(Array(message.utf8)) == digest)
    }

    @Test(arguments: [
        ("", "d41d8cd98f00b204e9800998ecf8427e"),
        ("a", "0cc175b9c0f1b6a831c399e269772661"),
        ("abc", "900150983cd24fb0d6963f7d28e17f72"),
        ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
        ("abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
        (String(repeating: "1234567890", count: 8), "57edf4a22be3c955ac49da2e2107b67a"),
    ])
    func md5Vectors(message: String, digest: String) {
        #expect(MD5.hexDigest(Array(message.utf8)) == digest)
    }

    /// `hashlib.sha256(p).hexdigest()` and `hashlib.md5(p).hexdigest()` of the pattern below,
    /// at lengths either side of the one- and two-block paddings (55/56, 63/64, 119/120).
    @Test(arguments: [
        (1, "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d", "93b885adfe0da089cdf634904fd59f71"),
        (55, "27d3069ecafb8507f92fa750312a99afe0908525e67b2abe8942b51659945b1b", "fe4c050c7a3d8b0c93d5baae6ca77fa1"),
        (56, "3428ab653c0a1ac104ee80fd3bed55135da5556ca4c26da9c781ae56364a6969", "6cf06c0659a33472a3005a497c53b3ab"),
        (57, "28c22b1d4fc34c26ca51d137ec64373fc16b38e32cef9c6759f910fc628efee1", "82881e76658f0cff3e26728ec7381bb1"),
        (63, "b5ec25bd1c4b7c94c9ea9d235272e43f644f561d7c8c7e58ec5fa9aefe95ef07", "b45d7746939fd1f4ce3d417b18ed2635"),
        (64, "a08f82c23e6c13629d8e33d0d2a13005fb104363eb793b5e8842044951d27764", "a36738582497d785e6c27f09c9b8a15d"),
        (65, "c0a0263ae1ab4e9dda9cd2ed6c44b23ee6ff75c90c640185f462fad7f24fcd6f", "ac810d9d23a3425a15adb534769f920b"),
        (119, "b4639d08cdba917a7875088b4e05633a7812e14282482de937915c9799b17250", "052904ad6cf3e237cba0b945f08c0a88"),
        (120, "e4fce14f6aa99657bdffe9f1da59ce85f0398479e9af7e9de6ccf53e174447ab", "cd8ff5e7fddeb2b0377b28ac1dab4f26"),
        (127, "c3328af00588e4c0de651212baf4babe06a69afd3a41320daf2508bd5290fc9e", "ceff4ead35e4221b1638af4e2f8c61f9"),
        (128, "8bb5dfd6ac2a606ce25701c19ed1fe8fa3a1a7355cd7fe3445ac3e2cc7a45359", "710e8d86231ece9aaf37ba5d139d2939"),
        (1000, "04a2a26617da9ddbb0b64cec2b6079d2cd760cf70691de063552c06ea8d153e2", "b734d05775d6e6c54bcc784940b64443"),
        (1 << 20, "f6a34d4c79c3d12c297589206bf216b084347471a53ea5e7fe9a46bd1230f098", "717f0920b9c39605f4ad6923e0e0953b"),
    ])
    func digestsAgreeWithHashlib(length: Int, sha256: String, md5: String) {
        let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
        #expect(SHA256.hexDigest(bytes) == sha256)
        #expect(MD5.hexDigest(bytes) == md5)
    }

    @Test func hexIsLowerCaseTwoDigitsAByte() {
        #expect(HexText.encode([0x00, 0x1f, 0x8b, 0xff]) == "001f8bff")
        #expect(HexText.isHex("1F8b") && !HexText.isHex("1f8") && !HexText.isHex("zz") && !HexText.isHex(""))
    }
}
