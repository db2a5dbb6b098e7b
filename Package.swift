// swift-tools-version:6.0
import PackageDescription

// The arrows point one way: nothing below the engine knows about workflows,
// the parser never links libcurl, reporters never run anything.
let package = Package(
    name: "Courier",
    products: [
        .executable(name: "courier", targets: ["courier"]),
        .library(name: "CourierHTTP", targets: ["CourierHTTP"]),
        .library(name: "CourierJSON", targets: ["CourierJSON"]),
        .library(name: "Courier", targets: ["Courier"]),
    ],
    dependencies: [],
    targets: [
        // libcurl is loaded with dlopen on first use (see Sources/CCurl/include/CCurl.h);
        // building needs its headers (Debian: libcurl4-openssl-dev), running needs libcurl4.
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("dl")]),
        // The ABI types of zlib and libbrotlidec, which CourierHTTP loads with dlopen only when a
        // step asks for a body's raw bytes (see Sources/CCompression/CCompression.h); no headers needed.
        .systemLibrary(name: "CCompression"),
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]
        ),
        .target(name: "CourierDiagnostics"),
        // The one masking policy every output goes through; depends on nothing.
        // A lock ThreadSanitizer sees, for every module whose state threads share.
        .target(name: "CourierSync"),
        .target(name: "CourierSecrets", dependencies: ["CourierSync"]),
        .target(name: "CourierJSON"),
        .target(name: "CourierHTTP", dependencies: ["CCurl", "CCompression", "CourierSecrets", "CourierSync"]),
        // The typed Swift client for app code (endpoints, errors, retries, auth, mocks).
        .target(name: "Courier", dependencies: ["CourierHTTP", "CourierSecrets"]),
        .target(name: "CourierWorkflow", dependencies: ["CYAML", "CourierDiagnostics", "CourierJSON", "CourierSecrets"]),
        // What a run did, as plain Codable values: reporters read these, never the engine.
        .target(name: "CourierResults", dependencies: ["CourierDiagnostics", "CourierJSON", "CourierSecrets"]),
        .target(name: "CourierEngine", dependencies: ["CourierWorkflow", "CourierJSON", "CourierHTTP", "CourierDiagnostics", "CourierSecrets", "CourierResults", "CourierSync"]),
        .target(name: "CourierReports", dependencies: ["CourierResults", "CourierDiagnostics", "CourierSecrets", "CourierJSON", "CourierSync"]),
        .executableTarget(
            name: "courier",
            dependencies: ["CourierEngine", "CourierReports", "CourierResults", "CourierWorkflow", "CourierJSON", "CourierHTTP", "CourierDiagnostics", "CourierSecrets"]
        ),
        // Not a product: the JSON benchmark's runner (Benchmarks/json/bench.sh).
        .executableTarget(name: "courier-json-bench", dependencies: ["CourierJSON"], path: "Benchmarks/json/Sources"),
        // Not a product: the download benchmark's runner (Benchmarks/download/bench.sh).
        .executableTarget(name: "courier-download-bench", dependencies: ["CourierHTTP"], path: "Benchmarks/download/Sources"),
        // Not a product: the masking benchmark's runner (Benchmarks/masking/bench.sh).
        .executableTarget(name: "courier-mask-bench", dependencies: ["CourierSecrets"], path: "Benchmarks/masking/Sources"),
        // Not a product: the library benchmark's runner (Benchmarks/library/bench.sh).
        .executableTarget(name: "courier-library-bench", dependencies: ["Courier"], path: "Benchmarks/library/Sources"),
        // Not a product: the README's library example as a program (run by IntegrationTests and
        // Scripts/check-outside-package.sh against Tests/Servers/library_server.py).
        .executableTarget(name: "courier-example", dependencies: ["Courier"], path: "Examples/CourierExample",
                          exclude: ["expected-output.txt"]),
        .testTarget(name: "CourierJSONTests", dependencies: ["CourierJSON"]),
        .testTarget(name: "CourierHTTPTests", dependencies: ["CourierHTTP", "CCurl", "CourierSync"]),
        .testTarget(name: "CourierSyncTests", dependencies: ["CourierSync"]),
        .testTarget(name: "CourierTests", dependencies: ["Courier"]),
        .testTarget(name: "CourierSecretsTests", dependencies: ["CourierSecrets"]),
        .testTarget(name: "CourierWorkflowTests", dependencies: ["CourierWorkflow", "CourierDiagnostics", "CourierJSON"], exclude: ["Fixtures"]),
        .testTarget(name: "CourierEngineTests", dependencies: ["CourierEngine", "CourierResults", "CourierWorkflow", "CourierHTTP", "CourierJSON", "CourierDiagnostics", "CourierSecrets", "CourierSync"]),
        .testTarget(name: "CourierResultsTests", dependencies: ["CourierResults", "CourierDiagnostics"]),
        .testTarget(name: "CourierReportsTests", dependencies: ["CourierReports", "CourierResults", "CourierSecrets", "CourierDiagnostics", "CourierJSON"]),
        // Unit tests of the command-line target's own logic (ignore rules).
        .testTarget(name: "CourierCLITests", dependencies: ["courier", "CourierResults"]),
        .testTarget(name: "IntegrationTests", dependencies: ["CourierJSON", "Courier"]),
    ]
)
