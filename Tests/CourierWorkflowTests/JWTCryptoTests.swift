@testable import CourierWorkflow
import Testing

private func hex(_ bytes: [UInt8]) -> String { bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined() }

/// SHA-384/512 against FIPS 180-4's examples (and a two-block message checked with Python's
/// hashlib); HMAC against RFC 4231 test cases 1, 2 and 6 (a key longer than a block).
@Suite struct JWTCryptoTests {
    @Test func sha512AndSha384() {
        #expect(hex(SHA512.digest(Array("abc".utf8))) == "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f")
        #expect(hex(SHA512.digest384(Array("abc".utf8))) == "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7")
        #expect(hex(SHA512.digest([UInt8](repeating: 0x61, count: 200))) == "4b11459c33f52a22ee8236782714c150a3b2c60994e9acee17fe68947a3e6789f31e7668394592da7bef827cddca88c4e6f86e4df7ed1ae6cba71f3e98faee9f")
    }

    @Test(arguments: [
        ([UInt8](repeating: 0x0b, count: 20), "Hi There",
         ["b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
          "afd03944d84895626b0825f4ab46907f15f9dadbe4101ec682aa034c7cebc59cfaea9ea9076ede7f4af152e8b2fa9cb6",
          "87aa7cdea5ef619d4ff0b4241a1d6cb02379f4e2ce4ec2787ad0b30545e17cdedaa833b7d6b8a702038b274eaea3f4e4be9d914eeb61f1702e696c203a126854"]),
        (Array("Jefe".utf8), "what do ya want for nothing?",
         ["5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
          "af45d2e376484031617f78d2b58a6b1b9c7ef464f5a01b47e42ec3736322445e8e2240ca5e69e2c78b3239ecfab21649",
          "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737"]),
        ([UInt8](repeating: 0xaa, count: 131), "Test Using Larger Than Block-Size Key - Hash Key First",
         ["60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
          "4ece084485813e9088d2c63a041bc5b44f9ef1012a2b588f3cd11f05033ac4c60c2ef6ab4030fe8296248df163f44952",
          "80b24263c7c1a3ebb71493c1dd7be8b49b46d1f41b4aeec1121b013783f8f3526b56d037e05f2598bd0fd2215d6a1e5295e64f73f63f0aec8b915a985d786598"]),
    ] as [([UInt8], String, [String])])
    func hmacRFC4231(key: [UInt8], message: String, expected: [String]) {
        let codes = [HMAC.Hash.sha256, .sha384, .sha512].map { hex(HMAC.code($0, key: key, message: Array(message.utf8))) }
        #expect(codes == expected)
    }

    @Test func base64URL() throws {
        #expect(try Base64URL.decode("eyJhbGciOiJIUzI1NiJ9").get() == Array("{\"alg\":\"HS256\"}".utf8))
        #expect(Base64URL.encode(Array("{\"alg\":\"HS256\"}".utf8)) == "eyJhbGciOiJIUzI1NiJ9")
        #expect(Base64URL.encode([0xfb, 0xff]) == "-_8")
        #expect(try Base64URL.decode("-_8").get() == [0xfb, 0xff])
        #expect(reason("ab+c") == "'+' at character 3 is not base64url")
        #expect(reason("abc=") == "padding '=' at character 4, which a JWT never has")
        #expect(reason("abcde") == "5 characters is not a length base64url gives")
        #expect(reason("ab c") == "'U+20' at character 3 is not base64url")
    }

    private func reason(_ text: Substring) -> String? {
        if case .failure(let problem) = Base64URL.decode(text) { return problem.reason }
        return nil
    }
}
