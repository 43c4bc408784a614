// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Tether",
    products: [
        .library(name: "Observable", targets: ["Observable"]),
        .library(name: "Bridges", targets: ["Bridges"]),
        .library(name: "Binding", targets: ["Binding"]),
    ],
    targets: [
        .target(name: "TetherShims"),
        .target(name: "Observable", dependencies: ["TetherShims"]),
        .target(name: "Bridges", dependencies: ["Observable"]),
        .target(name: "Binding", dependencies: ["Observable"]),
        .executableTarget(name: "tether-demo", dependencies: ["Observable", "Bridges", "Binding"], path: "Examples/TetherDemo"),
        .testTarget(name: "ObservableTests", dependencies: ["Observable"]),
        .testTarget(name: "BridgesTests", dependencies: ["Bridges", "Observable"]),
        .testTarget(name: "BindingTests", dependencies: ["Binding", "Bridges", "Observable"]),
        .testTarget(name: "DemoTests", dependencies: ["tether-demo"], path: "Tests/DemoTests"),
    ],
    swiftLanguageModes: [.v6]
)
