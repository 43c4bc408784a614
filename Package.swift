// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Tether",
    products: [
        .library(name: "Observable", targets: ["Observable"]),
        .library(name: "Bridges", targets: ["Bridges"]),
        .library(name: "Binding", targets: ["Binding"]),
        // The demos' view models (login form, live search), shared by tether-demo and TetherGtk's demo.
        .library(name: "TetherDemoModels", targets: ["TetherDemoModels"]),
    ],
    targets: [
        .target(name: "Observable"),
        .target(name: "Bridges", dependencies: ["Observable"]),
        .target(name: "Binding", dependencies: ["Observable"]),
        .target(name: "TetherDemoModels", dependencies: ["Observable", "Bridges", "Binding"], path: "Examples/DemoModels"),
        .executableTarget(
            name: "tether-demo", dependencies: ["Observable", "Bridges", "Binding", "TetherDemoModels"],
            path: "Examples/TetherDemo"),
        .testTarget(name: "ObservableTests", dependencies: ["Observable"]),
        .testTarget(name: "BridgesTests", dependencies: ["Bridges", "Observable"]),
        .testTarget(name: "BindingTests", dependencies: ["Binding", "Bridges", "Observable"]),
        .testTarget(name: "DemoTests", dependencies: ["tether-demo", "TetherDemoModels"], path: "Tests/DemoTests"),
    ],
    swiftLanguageModes: [.v6]
)
