// swift-tools-version: 6.0
// Side-by-side benchmarks of Tether against hand-written closures, OpenCombine and Swift Observation.
// A separate package so that the Tether library itself stays dependency-free, and so that Tether's
// generics are called across a module boundary, as users call them.
import PackageDescription

let package = Package(
    name: "TetherBenchmarks",
    dependencies: [
        .package(name: "Tether", path: ".."),
        .package(url: "https://github.com/OpenCombine/OpenCombine.git", exact: "0.14.0"),
    ],
    targets: [
        .target(name: "CMallInfo", path: "Sources/CMallInfo"),
        .executableTarget(
            name: "tether-bench",
            dependencies: [
                "CMallInfo",
                .product(name: "Observable", package: "Tether"),
                .product(name: "Bridges", package: "Tether"),
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "OpenCombineFoundation", package: "OpenCombine"),
            ],
            path: "Sources/tether-bench"
        ),
        .executableTarget(
            name: "tether-probe",
            dependencies: [
                "CMallInfo",
                .product(name: "Observable", package: "Tether"),
                .product(name: "Bridges", package: "Tether"),
            ],
            path: "Sources/tether-probe"
        ),
    ],
    swiftLanguageModes: [.v6]
)
