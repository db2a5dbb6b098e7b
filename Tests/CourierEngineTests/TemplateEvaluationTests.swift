import CourierDiagnostics
@testable import CourierEngine
import CourierJSON
@testable import CourierWorkflow
import Foundation
import Testing

// MARK: - Helpers

struct TemplateDoesNotParse: Error, CustomStringConvertible {
    var description: String
}

/// Parses `text` as a template that starts at line 1, column 1 of `t.yaml`.
private func template(_ text: String) throws -> Template {
    var diagnostics: [Diagnostic] = []
    let positions = TextPositions(base: CourierDiagnostics.SourceLocation(file: "t.yaml", line: 1, column: 1), exact: true)
    let parsed = TemplateParser.parse(text, positions: positions, range: positions.range(0, text.unicodeScalars.count),
                                      diagnostics: &diagnostics)
    if !diagnostics.isEmpty { throw TemplateDoesNotParse(description: diagnostics.map(\.description).joined(separator: "\n")) }
    return parsed
}

/// What every template test can see.
private let fixtureScope = Scope(
    variables: [
        "user": ["name": "Ada", "roles": ["admin", "dev"], "age": 36],
        "n": 5,
        "pi": 3.14,
        "padded": "  hi \n",
        "empty_string": "",
        "empty_list": [],
        "empty_object": .object(JSONObject()),
        "nothing": nil,
        "list": [1, 2, 3],
        "flag": true,
    ],
    environment: ["API_KEY": "k-123"])

private let pinnedDate = Date(timeIntervalSince1970: 1_700_000_000.75)  // 2023-11-14T22:13:20.75Z
private let pinnedFunctions = BuiltinFunctions(clock: { pinnedDate })

private func evaluate(_ text: String, scope: Scope = fixtureScope) throws -> Result<JSONValue, EvaluationError> {
    let parsed = try template(text)
    let renderer = TemplateRenderer(scope: scope, functions: pinnedFunctions)
    do throws(EvaluationError) {
        return .success(try renderer.value(parsed))
    } catch {
        return .failure(error)
    }
}

private func value(_ text: String, scope: Scope = fixtureScope, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> JSONValue {
    switch try evaluate(text, scope: scope) {
    case .success(let value): return value
    case .failure(let error):
        Issue.record("'\(text)' failed: \(error.message)", sourceLocation: sourceLocation)
        return .null
    }
}

private func error(_ text: String, scope: Scope = fixtureScope, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> EvaluationError? {
    switch try evaluate(text, scope: scope) {
    case .success(let value):
        Issue.record("'\(text)' gave \(value.serialized()), expected an error", sourceLocation: sourceLocation)
        return nil
    case .failure(let error): return error
    }
}

// MARK: - Filters

@Suite struct FilterTests {
    @Test(arguments: [
        // default: undefined names, members, indexes and environment variables fall back; null too.
        ("{{ missing | default('x') }}", "x"),
        ("{{ env.NOT_SET_ANYWHERE | default('fallback') }}", "fallback"),
        ("{{ env.API_KEY | default('fallback') }}", "k-123"),
        ("{{ nothing | default(7) }}", 7),
        ("{{ n | default(7) }}", 5),
        ("{{ empty_string | default('x') }}", ""),
        ("{{ user.nickname | default('none') }}", "none"),
        ("{{ list[10] | default(0) }}", 0),
        ("{{ missing | default(nothing) }}", nil),
        // text
        ("{{ 'Ab-é' | upper }}", "AB-É"),
        ("{{ 'Ab-É' | lower }}", "ab-é"),
        ("{{ padded | trim }}", "hi"),
        ("{{ 'héllo' | length }}", 5),
        ("{{ list | length }}", 3),
        ("{{ user | length }}", 3),
        ("{{ empty_list | length }}", 0),
        ("{{ list | first }}", 1),
        ("{{ list | last }}", 3),
        ("{{ 'abc' | first }}", "a"),
        ("{{ 'abc' | last }}", "c"),
        ("{{ list | nth(0) }}", 1),
        ("{{ list | nth(2) }}", 3),
        ("{{ list | nth(-1) }}", 3),
        ("{{ list | nth(-3) }}", 1),
        ("{{ user.roles | nth(1) | upper }}", "DEV"),
        ("{{ list | nth(10) | default(0) }}", 0),
        ("{{ 'hello world' | base64_encode }}", "aGVsbG8gd29ybGQ="),
        ("{{ 'é' | base64_encode }}", "w6k="),
        ("{{ 'aGVsbG8gd29ybGQ=' | base64_decode }}", "hello world"),
        ("{{ 'aGVsbG8' | base64_decode }}", "hello"),  // JWT-style, padding left off
        ("{{ 'a b&c=d/é?+~' | url_encode }}", "a%20b%26c%3Dd%2F%C3%A9%3F%2B~"),
        ("{{ user | json }}", #"{"name":"Ada","roles":["admin","dev"],"age":36}"#),
        ("{{ 'x' | json }}", #""x""#),
        ("{{ nothing | json }}", "null"),
        // sha256 against FIPS 180-4 / sha256sum vectors
        ("{{ '' | sha256 }}", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("{{ 'abc' | sha256 }}", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("{{ 'abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq' | sha256 }}",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ("{{ 'héllo' | sha256 }}", "3c48591d8d098a4538f5e013dfcf406e948eac4d3277b10bf614e295d6068179"),
        // conversions
        ("{{ '42' | int }}", 42),
        ("{{ ' 42 ' | int }}", 42),
        ("{{ 3.9 | int }}", 3),
        ("{{ '-3.9' | int }}", -3),
        ("{{ flag | int }}", 1),
        ("{{ '2.5' | float }}", 2.5),
        ("{{ n | float }}", 5.0),
        ("{{ n | string }}", "5"),
        ("{{ list | string }}", "[1,2,3]"),
        ("{{ flag | string }}", "true"),
        ("{{ nothing | string }}", "null"),
        ("{{ pi | string }}", "3.14"),
    ] as [(String, JSONValue)])
    func filter(_ text: String, expected: JSONValue) throws {
        #expect(try value(text) == expected)
    }

    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (String(repeating: "a", count: 1000), "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3"),
        // Padding edges: 55 bytes fit one block, 64 need two.
        (String(repeating: "x", count: 55), "d5e285683cd4efc02d021a5c62014694958901005d6f71e89e0989fac77e4072"),
        (String(repeating: "x", count: 64), "7ce100971f64e7001e8fe5a51973ecdfe1ced42befe7ee8d5fd6219506b5393c"),
    ])
    func sha256KnownVectors(_ input: String, digest: String) throws {
        var scope = fixtureScope
        scope["input"] = .string(input)
        #expect(try value("{{ input | sha256 }}", scope: scope) == .string(digest))
    }

    @Test func floatSpellsAFloat() throws {
        // `float` makes a number read as one: 5 → "5.0" in text.
        #expect(try value("{{ n | float | string }}") == "5.0")
    }

    @Test func defaultDoesNotHideTypeErrors() throws {
        // Only undefined names fall back; `upper` of a number is still an error.
        let e = try error("{{ n | upper | default('x') }}")
        #expect(e?.kind == .type)
    }

    @Test(arguments: [
        ("{{ n | upper }}", EvaluationError.Kind.type, "filter 'upper' needs a string, found a number"),
        ("{{ list | trim }}", .type, "filter 'trim' needs a string, found an array"),
        ("{{ n | length }}", .type, "filter 'length' needs a string, an array or an object, found a number"),
        ("{{ n | first }}", .type, "filter 'first' needs an array or a string, found a number"),
        ("{{ empty_list | first }}", .undefined, "filter 'first' applied to an empty array"),
        ("{{ list | nth(3) }}", .undefined, "filter 'nth': index 3 is out of range (3 items)"),
        ("{{ list | nth(-4) }}", .undefined, "filter 'nth': index -4 is out of range (3 items)"),
        ("{{ list | nth('1') }}", .type, "filter 'nth' needs a whole number for its index, found a string"),
        ("{{ list | nth(1.5) }}", .type, "filter 'nth' needs a whole number for its index, found a number"),
        ("{{ 'abc' | nth(0) }}", .type, "filter 'nth' needs an array, found a string (a header sent once is a string, not an array)"),
        ("{{ 'abc' | int }}", .invalid, "filter 'int': 'abc' is not a number"),
        ("{{ 'abc' | float }}", .invalid, "filter 'float': 'abc' is not a number"),
        ("{{ user | int }}", .type, "filter 'int' needs a number, a string or a boolean, found an object"),
        ("{{ '%%%' | base64_decode }}", .invalid, "filter 'base64_decode': '%%%' is not base64 of UTF-8 text"),
    ])
    func filterErrors(_ text: String, kind: EvaluationError.Kind, message: String) throws {
        let e = try error(text)
        #expect(e?.kind == kind)
        #expect(e?.message == message)
    }
}

// MARK: - Functions

@Suite struct FunctionTests {
    @Test func uuidIsALowercaseVersion4UUID() throws {
        let first = try value("{{ uuid() }}")
        let second = try value("{{ uuid() }}")
        let text = try #require(first.stringValue)
        #expect(text.wholeMatch(of: /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/) != nil, "\(text)")
        #expect(first != second)
    }

    @Test func nowIsRFC3339InUTCFromTheClock() throws {
        #expect(try value("{{ now() }}") == "2023-11-14T22:13:20Z")
    }

    @Test func timestampIsWholeUnixSeconds() throws {
        let stamp = try value("{{ timestamp() }}")
        #expect(stamp == 1_700_000_000)
        #expect(stamp.isInteger)
    }

    @Test func randomIntStaysWithinInclusiveBounds() throws {
        var seen: Set<Int> = []
        for _ in 0..<300 {
            let n = try #require(try value("{{ random_int(-1, 2) }}").numberValue?.intValue)
            #expect((-1...2).contains(n))
            seen.insert(n)
        }
        #expect(seen == [-1, 0, 1, 2], "both bounds are reachable")
        #expect(try value("{{ random_int(5, 5) }}") == 5)
    }

    @Test func randomIntRejectsReversedBounds() throws {
        let e = try error("{{ random_int(3, 1) }}")
        #expect(e?.kind == .invalid)
        #expect(e?.message == "random_int(3, 1): the first bound must not exceed the second")
    }

    @Test func randomIntNeedsIntegers() throws {
        #expect(try error("{{ random_int('a', 2) }}")?.kind == .type)
        #expect(try error("{{ random_int(1.5, 2) }}")?.kind == .type)
    }

    @Test(arguments: [0, 1, 16, 200])
    func randomStringHasTheLengthAndAlphabet(_ length: Int) throws {
        let text = try #require(try value("{{ random_string(\(length)) }}").stringValue)
        #expect(text.count == length)
        #expect(text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) })
    }

    @Test func randomStringRejectsNegativeLengths() throws {
        #expect(try error("{{ random_string(-1) }}")?.kind == .type)
    }
}

// MARK: - Operators

@Suite struct OperatorTests {
    @Test(arguments: [
        ("{{ 1 == 1.0 }}", true),
        ("{{ 1 == 1 }}", true),
        ("{{ 1 != 2 }}", true),
        ("{{ 1 != 1.0 }}", false),
        ("{{ 'a' == 'a' }}", true),
        ("{{ 1 == '1' }}", false),
        ("{{ nothing == null }}", true),
        ("{{ user.roles == user.roles }}", true),
        ("{{ 2 < 10 }}", true),
        ("{{ 10 <= 10 }}", true),
        ("{{ n > 5 }}", false),
        ("{{ n >= 5 }}", true),
        ("{{ pi < 3.2 }}", true),
        ("{{ -1 < 0 }}", true),
        ("{{ 'a' < 'b' }}", true),
        ("{{ '2' < '10' }}", false),  // strings compare as text
        ("{{ 'b' >= 'a' }}", true),
        ("{{ true and false }}", false),
        ("{{ true and 'x' }}", true),
        ("{{ false or 'x' }}", true),
        ("{{ 0 or '' }}", false),
        ("{{ not '' }}", true),
        ("{{ not list }}", false),
        ("{{ not nothing }}", true),
        ("{{ n > 1 and n < 10 }}", true),
        ("{{ n > 10 or n == 5 }}", true),
        // Short-circuit: the undefined right side is never evaluated.
        ("{{ false and missing }}", false),
        ("{{ true or missing }}", true),
    ])
    func operators(_ text: String, expected: Bool) throws {
        #expect(try value(text) == .bool(expected))
    }

    @Test(arguments: [
        ("{{ 1 < 'a' }}", "cannot compare a number with a string using '<'"),
        ("{{ 'a' >= 2 }}", "cannot compare a string with a number using '>='"),
        ("{{ list > 1 }}", "cannot compare an array with a number using '>'"),
        ("{{ nothing <= 1 }}", "cannot compare null with a number using '<='"),
    ])
    func orderingMixedTypesIsATypeError(_ text: String, message: String) throws {
        let e = try error(text)
        #expect(e?.kind == .type)
        #expect(e?.message == message)
    }

    @Test(arguments: [
        ("nothing", false), ("flag", true), ("n", true), ("empty_string", false), ("empty_list", false),
        ("empty_object", false), ("list", true), ("user", true),
    ])
    func truthiness(_ name: String, expected: Bool) throws {
        let parsed = try template("{{ \(name) }}")
        let expression = try #require(parsed.singleExpression)
        let renderer = TemplateRenderer(scope: fixtureScope)
        #expect(try renderer.condition(expression) == expected)
        var zero = fixtureScope
        zero["n"] = 0
        #expect(try TemplateRenderer(scope: zero).condition(#require(try template("{{ n }}").singleExpression)) == false)
    }
}

// MARK: - Names, members, indexes

@Suite struct NameTests {
    @Test(arguments: [
        ("{{ user.roles[0] }}", "admin"),
        ("{{ user.roles[-1] }}", "dev"),
        ("{{ user.roles[-2] }}", "admin"),
        ("{{ user['name'] }}", "Ada"),
        ("{{ user.name }}", "Ada"),
        ("{{ list[n] | default('past the end') }}", "past the end"),
    ] as [(String, JSONValue)])
    func memberAndIndexAccess(_ text: String, expected: JSONValue) throws {
        #expect(try value(text) == expected)
    }

    @Test func environmentVariables() throws {
        #expect(try value("{{ env.API_KEY }}") == "k-123")
        let e = try error("{{ env.NOPE }}")
        #expect(e?.kind == .undefined)
        #expect(e?.message == "environment variable 'NOPE' is not set")
    }

    @Test(arguments: [
        ("{{ user.roles[2] }}", EvaluationError.Kind.undefined, "index 2 is out of range for 'user.roles' (2 items)"),
        ("{{ user.roles[-3] }}", .undefined, "index -3 is out of range for 'user.roles' (2 items)"),
        ("{{ user.nmae }}", .undefined, "'user' has no member 'nmae'; did you mean 'name'?"),
        ("{{ user['rolse'] }}", .undefined, "'user' has no member 'rolse'; did you mean 'roles'?"),
        ("{{ n.x }}", .type, "cannot read member 'x' of a number 'n'"),
        ("{{ user.roles['x'] }}", .type, "cannot index an array 'user.roles' with a string"),
        ("{{ list[0.5] }}", .type, "an array index must be an integer, found 0.5"),
    ])
    func accessErrors(_ text: String, kind: EvaluationError.Kind, message: String) throws {
        let e = try error(text)
        #expect(e?.kind == kind)
        #expect(e?.message == message)
    }

    @Test func unknownVariableIsAnErrorNamingItWithItsPosition() throws {
        let text = "/users/{{ usr }}/avatar"
        let e = try #require(try error(text))
        #expect(e.kind == .undefined)
        #expect(e.message == "unknown variable 'usr'; did you mean 'user'?")
        let range = try #require(e.range)
        #expect(range.start.line == 1)
        #expect(range.start.column == 11, "the column of 'usr'")
        #expect(range.end.column == 14)
    }

    @Test func unknownVariableWithoutAnythingCloseHasNoSuggestion() throws {
        let e = try error("{{ zzzzzz }}")
        #expect(e?.message == "unknown variable 'zzzzzz'")
    }

    @Test func unknownVariableNeverRendersAsEmptyText() throws {
        let parsed = try template("a{{ missing }}b")
        #expect(throws: EvaluationError.self) { try TemplateRenderer(scope: fixtureScope).string(parsed) }
    }
}

// MARK: - Type preservation

@Suite struct TypePreservationTests {
    @Test func aSingleExpressionKeepsItsType() throws {
        #expect(try value("{{ n }}") == 5)
        #expect(try value("{{ n }}").numberValue != nil)
        #expect(try value("{{ flag }}") == true)
        #expect(try value("{{ nothing }}") == nil)
        #expect(try value("{{ user.roles }}") == ["admin", "dev"])
        #expect(try value("  {{ n }} ") == 5, "surrounding blanks do not make it text")
    }

    @Test func mixedTextBecomesAString() throws {
        #expect(try value("id-{{ n }}") == "id-5")
        #expect(try value("{{ n }}{{ n }}") == "55")
        #expect(try value("{{ pi }} and {{ flag }} and {{ nothing }}") == "3.14 and true and null")
        #expect(try value("roles={{ user.roles }}") == #"roles=["admin","dev"]"#)
    }

    @Test func templateValuesResolveRecursively() throws {
        let yaml = """
        vars:
          n: 5
        steps:
          - request:
              method: POST
              url: http://h/x
              json: { id: "{{ n }}", label: "n={{ n }}", list: ["{{ n }}", 2.50, true, null] }
        """
        let workflow = try decode(yaml)
        guard case .request(let request) = workflow.steps[0].action, case .json(let body)? = request.body else {
            Issue.record("expected a json body")
            return
        }
        var scope = Scope()
        scope["n"] = 5
        let resolved = try TemplateRenderer(scope: scope).value(body)
        #expect(resolved.serialized() == #"{"id":5,"label":"n=5","list":[5,2.50,true,null]}"#)
    }
}
