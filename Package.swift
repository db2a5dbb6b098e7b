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
    ],
    dependencies: [],
    targets: [
        // libcurl is loaded with dlopen on first use (see Sources/CCurl/include/CCurl.h);
        // building needs its headers (Debian: libcurl4-openssl-dev), running needs libcurl4.
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("dl")]),
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]
        ),
        .target(name: "CourierDiagnostics"),
        .target(name: "CourierJSON"),
        .target(name: "CourierHTTP", dependencies: ["CCurl"]),
        .target(name: "CourierWorkflow", dependencies: ["CYAML", "CourierDiagnostics", "CourierJSON"]),
        .target(name: "CourierEngine", dependencies: ["CourierWorkflow", "CourierJSON", "CourierHTTP", "CourierDiagnostics"]),
        .target(name: "CourierReports", dependencies: ["CourierEngine", "CourierDiagnostics", "CourierJSON"]),
        .executableTarget(
            name: "courier",
            dependencies: ["CourierEngine", "CourierReports", "CourierWorkflow", "CourierJSON", "CourierHTTP", "CourierDiagnostics"]
        ),
        // Not a product: the JSON benchmark's runner (Benchmarks/json/bench.sh).
        .executableTarget(name: "courier-json-bench", dependencies: ["CourierJSON"], path: "Benchmarks/json/Sources"),
        .testTarget(name: "CourierJSONTests", dependencies: ["CourierJSON"]),
        .testTarget(name: "CourierWorkflowTests", dependencies: ["CourierWorkflow", "CourierDiagnostics"], exclude: ["Fixtures"]),
        .testTarget(name: "CourierEngineTests", dependencies: ["CourierEngine", "CourierWorkflow", "CourierHTTP", "CourierJSON"]),
        .testTarget(name: "CourierReportsTests", dependencies: ["CourierReports", "CourierEngine"]),
        .testTarget(name: "IntegrationTests", dependencies: []),
    ]
)
