@testable import CourierEngine
import CourierHTTP
import CourierResults
import Synchronization
import Testing

/// Which header names hold credentials (recorded as `Bearer ***`, registered as secrets):
/// exactly the six names, in any ASCII case, however close another name comes.
@Suite struct CredentialHeaderNameTests {
    @Test(arguments: [
        ("Authorization", true), ("AUTHORIZATION", true), ("authorization", true), ("Proxy-Authorization", true),
        ("proxy-authorization", true), ("Cookie", true), ("COOKIE", true), ("Set-Cookie", true), ("set-cookie", true),
        // Same length, one byte off; one byte short or long; not ASCII.
        ("Cookif", false), ("Set_Cookie", false), ("Authorizatiom", false), ("Proxy-Authorizatiom", false),
        ("Cookie2", false), ("Cooki", false), ("Authorizatio", false), ("C\u{F6}okie", false), ("\u{C7}ookie", false),
        ("X-Api-Key", true), ("x-api-key", true), ("X-API-KEY", true), ("Api-Key", true), ("api-key", true),
        ("X-Api-Kez", false), ("Api_Key", false), ("X-Api-Key2", false),
        ("Date", false), ("", false), ("Content-Length", false),
    ] as [(String, Bool)])
    func credentialNames(name: String, isCredential: Bool) {
        #expect(CredentialHeaders.isCredential(name) == isCredential)
    }
}

/// `PipedBodyTransport` reads pipes named as bodies; anything else reaches the transport as built.
@Suite struct PipedBodyTransportTests {
    final class Spy: HTTPTransport {
        let seen = Mutex<[HTTPRequest]>([])
        func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
            seen.withLock { $0.append(request) }
            return HTTPResponse(status: 204)
        }
    }

    @Test func aRequestNamingNoFileIsSentAsBuilt() async throws {
        let spy = Spy()
        var options = HTTPRequestOptions()
        options.timeoutMilliseconds = 1234
        let bodies: [HTTPRequestBody] = [.none, .bytes(Array("x".utf8)), .multipart([MultipartPart(name: "a", content: .value("1"))])]
        for body in bodies {
            _ = try await PipedBodyTransport(spy).send(HTTPRequest(method: "POST", url: "http://127.0.0.1:9/x", body: body, options: options))
        }
        let seen = spy.seen.withLock { $0 }
        #expect(seen.count == 3)
        // Not timed: the step's timeout is left whole.
        #expect(seen.allSatisfy { $0.options.timeoutMilliseconds == 1234 && $0.method == "POST" })
        if case .bytes(let bytes) = seen[1].body { #expect(bytes == Array("x".utf8)) } else { Issue.record("body changed: \(seen[1].body)") }
    }

    @Test func onlyFilesMayNeedReading() {
        #expect(PipedBodyReader.namesFile(.file(path: "/tmp/x")))
        #expect(PipedBodyReader.namesFile(.multipart([MultipartPart(name: "a", content: .value("1")),
                                                      MultipartPart(name: "f", content: .file(path: "-"))])))
        #expect(!PipedBodyReader.namesFile(.multipart([MultipartPart(name: "a", content: .data([1]))])))
        #expect(!PipedBodyReader.namesFile(.none))
        #expect(!PipedBodyReader.namesFile(.bytes([])))
    }
}
