import CourierJSON
import Foundation
import Testing

/// The Codable bridge stops at the shared nesting limit instead of overflowing the stack.
@Suite struct CodableLimitsTests {
    /// A chain of `depth` nested one-element arrays, built through Encodable.
    final class Chain: Encodable {
        let next: Chain?
        init(depth: Int) { next = depth > 1 ? Chain(depth: depth - 1) : nil }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            if let next { try container.encode(next) }
        }
    }

    @Test func encodingStopsPastTheLimit() throws {
        let atLimit = try JSONValue(encoding: Chain(depth: NestingLimit.maxDepth))
        #expect(atLimit.serialized().utf8.count == 2 * NestingLimit.maxDepth)
        #expect(throws: EncodingError.self) { try JSONValue(encoding: Chain(depth: NestingLimit.maxDepth + 1)) }
    }

    @Test func decodingStopsPastTheLimit() throws {
        func nested(_ depth: Int) -> Data { Data((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8) }
        let atLimit = try JSONDecoder().decode(JSONValue.self, from: nested(NestingLimit.maxDepth))
        #expect(atLimit.serialized().utf8.count == 2 * NestingLimit.maxDepth)
        #expect(throws: (any Error).self) { try JSONDecoder().decode(JSONValue.self, from: nested(NestingLimit.maxDepth + 1)) }
    }
}
