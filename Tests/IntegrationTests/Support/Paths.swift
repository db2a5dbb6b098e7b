import Foundation

/// Where things are: the package, the built `courier`, the servers, the JUnit schema.
enum Paths {
    /// `<package root>`, from this file's location (Tests/IntegrationTests/Support/Paths.swift).
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // IntegrationTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    static var environment: [String: String] { ProcessInfo.processInfo.environment }

    /// True on CI (`CI` set and not empty): missing tools fail tests instead of being known issues.
    static var onCI: Bool { !(environment["CI"] ?? "").isEmpty }

    /// `address` or `thread` under `make sanitize` (`COURIER_SANITIZED`), else nil.
    static var sanitizer: String? { environment["COURIER_SANITIZED"].flatMap { $0.isEmpty ? nil : $0 } }

    /// How long a test server may take to write its port file: 30 s (CI machines are busy
    /// while the suite runs), 180 s under a sanitizer, where the whole suite runs several
    /// times slower and a harness task can wait that long for the cooperative pool.
    static var serverStartSeconds: Int { sanitizer == nil ? 30 : 180 }

    /// `COURIER_BIN`, else `<root>/.build/debug/courier`.
    static func courierBinary() throws -> String {
        let path = environment["COURIER_BIN"].flatMap { $0.isEmpty ? nil : $0 }
            ?? packageRoot.appendingPathComponent(".build/debug/courier").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw HarnessError("""
                no courier executable at '\(path)': build it first (swift build), or set COURIER_BIN \
                to the binary, e.g. COURIER_BIN=/tmp/build-itests/debug/courier
                """)
        }
        return path
    }

    /// `/usr/bin/python3` when it exists (the PATH `python3` may be a slow pyenv shim).
    static var systemPython: String {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") ? "/usr/bin/python3" : "python3"
    }

    /// The Python that has `xmlschema`: `COURIER_PYTHON`, else `<root>/.venv/bin/python3`.
    static var reportPython: String {
        environment["COURIER_PYTHON"].flatMap { $0.isEmpty ? nil : $0 }
            ?? packageRoot.appendingPathComponent(".venv/bin/python3").path
    }

    /// `COURIER_CORPORA`, else `<root>/../shared/corpora`.
    static var corpora: URL {
        if let dir = environment["COURIER_CORPORA"], !dir.isEmpty { return URL(fileURLWithPath: dir) }
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpora")
    }

    /// What Scripts/corpora.sh fetches from pinned PyPI source distributions (`make test` runs
    /// it): `COURIER_CORPORA_CACHE`, else `<root>/.build/corpora`.
    static var fetchedCorpora: URL {
        if let dir = environment["COURIER_CORPORA_CACHE"], !dir.isEmpty { return URL(fileURLWithPath: dir) }
        return packageRoot.appendingPathComponent(".build/corpora")
    }

    /// The Jenkins JUnit schema, from pytest's sdist (`testing/example_scripts/junit-10.xsd`).
    static var junitSchema: URL { fetchedCorpora.appendingPathComponent("junit/junit-10.xsd") }
    static var validateJUnitScript: URL { packageRoot.appendingPathComponent("Tests/Support/validate_junit.py") }
    static var testServerScript: URL { packageRoot.appendingPathComponent("Tests/Servers/testserver.py") }
}

struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
