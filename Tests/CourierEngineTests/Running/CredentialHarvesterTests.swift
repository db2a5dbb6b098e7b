@testable import CourierEngine
import CourierHTTP
import CourierJSON
import CourierSecrets
import Foundation
import Testing

/// Everything that registers a value to mask, one source at a time.
@Suite struct CredentialHarvesterTests {
    let registry = SecretRegistry()

    func harvester(environment: [String: String] = [:]) -> CredentialHarvester {
        CredentialHarvester(registry: registry, environment: environment)
    }

    @Test func aDeclaredSecretIsRegisteredUnderItsNameWithItsLeavesAndJSONForms() {
        harvester().declaredSecret(.string("hunter2-secret"), name: "password")
        #expect(registry.policy.name(of: "hunter2-secret") == "password")
        let object = JSONValue.object(["key": .string("k-123456"), "n": .number(JSONNumber(123456789))])
        harvester().secret(object)
        #expect(registry.values.contains("k-123456"))
        #expect(registry.values.contains("123456789"))
        #expect(registry.values.contains(object.serialized()))
        #expect(registry.values.contains(object.serialized(pretty: true)))
    }

    @Test func credentialHeadersOfABuiltRequestAreRegisteredPartByPart() {
        let basic = Data("ada:lovelace-pw".utf8).base64EncodedString()
        let request = HTTPRequest(url: "http://api/x", headers: [
            "Authorization": "Basic \(basic)", "Cookie": "sid=session-abc; lang=en", "X-Api-Key": "key-0123456",
            "Accept": "application/json-long-enough",
        ])
        harvester().built(request, applied: ["applied-token"])
        let values = Set(registry.values)
        #expect(values.isSuperset(of: ["Basic \(basic)", basic, "ada:lovelace-pw", "lovelace-pw",
                                       "sid=session-abc; lang=en", "session-abc", "key-0123456", "applied-token"]))
        // Short credential parts are left alone (they would mask every `en` of the output); other headers are not credentials.
        #expect(!values.contains("en"))
        #expect(!values.contains("application/json-long-enough"))
    }

    @Test func userinfoOfTheURLTheProxyAndTheEnvironmentsProxyIsRegistered() {
        var request = HTTPRequest(url: "http://user:url-password@api/x")
        request.options.proxy = "http://p:step-proxy-pw@proxy:3128"
        harvester(environment: ["https_proxy": "http://e:env-proxy-pw@proxy:3128"]).built(request, applied: [])
        let values = Set(registry.values)
        #expect(values.isSuperset(of: ["url-password", "step-proxy-pw", "env-proxy-pw"]))
    }

    @Test func whatWasSentAndWhatEveryHopSetIsRegistered() {
        let response = HTTPResponse(
            status: 200, headers: ["Set-Cookie": "final=final-cookie-1; Path=/"],
            redirects: [HTTPRedirectHop(url: "http://api/a", status: 302, headers: ["Set-Cookie": "hop=hop-cookie-1; HttpOnly"])],
            sentRequests: [HTTPSentRequest(requestLine: "GET /a HTTP/1.1", headers: ["Cookie": "jar=jar-cookie-1"])])
        harvester().sent(response)
        let values = Set(registry.values)
        #expect(values.isSuperset(of: ["final=final-cookie-1", "final-cookie-1", "hop=hop-cookie-1", "hop-cookie-1",
                                       "jar=jar-cookie-1", "jar-cookie-1"]))
    }

    @Test func aTLSKeyPasswordIsASecretWhateverItsLength() {
        var request = HTTPRequest(url: "https://api/x")
        var tls = TLSOptions()
        tls.password = "pw"
        request.options.tls = tls
        harvester().built(request, applied: [])
        #expect(registry.values.contains("pw"))
    }
}
