// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "Tether",
    products: [
        // Observable, Bridges and Binding under one import (and one module name to qualify with:
        // `Tether.Signal` where Observation's `Observable` shadows the module `Observable`).
        .library(name: "Tether", targets: ["Tether"]),
        .library(name: "Observable", targets: ["Observable"]),
        .library(name: "Bridges", targets: ["Bridges"]),
        .library(name: "Binding", targets: ["Binding"]),
        // For test targets: marble diagrams, recorders, marble assertions, ResourceCheckedTestCase.
        .library(name: "TetherTesting", targets: ["TetherTesting"]),
        // The demos' view models (login form, live search), shared by tether-demo and TetherGtk's demo. Not
        // an API: a product only because TetherGtk/Package.swift, a separate package, can use nothing else.
        .library(name: "TetherDemoModels", targets: ["TetherDemoModels"]),
    ],
    targets: [
        .target(name: "TetherShims"),
        // The delivery engine and the primitives under it (locks, parking, the serial gate, the disposal
        // fence, the bounded wait): a target of its own, not a product, that imports nothing of Tether but
        // its C shims, so the compiler keeps it below Observable (issue 42).
        .target(name: "TetherEngine", dependencies: ["TetherShims"]),
        .target(name: "Observable", dependencies: ["TetherEngine", "TetherShims"], exclude: ["Operators/README.md"]),
        .target(name: "Bridges", dependencies: ["Observable", "TetherShims"]),
        .target(name: "Binding", dependencies: ["Observable"]),
        .target(name: "Tether", dependencies: ["Observable", "Bridges", "Binding"]),
        .target(name: "TetherTesting", dependencies: ["Observable"]),
        // Tether's own test helpers (event logs, watchdogs, stress scale, lock-step races), at `package`
        // access: a target, not a product, beside the tests that use it.
        .target(name: "TetherTestSupport", dependencies: ["Observable", "TetherEngine"], path: "Tests/TetherTestSupport"),
        .target(
            name: "TetherDemoModels", dependencies: ["Observable", "Bridges", "Binding"], path: "Examples/DemoModels"),
        .executableTarget(
            name: "tether-demo", dependencies: ["Observable", "Bridges", "Binding", "TetherDemoModels"],
            path: "Examples/TetherDemo"),
        // The engine's state machines, explored without threads.
        .testTarget(name: "TetherEngineTests", dependencies: ["TetherEngine"]),
        .testTarget(
            name: "ObservableTests", dependencies: ["Observable", "TetherEngine", "TetherTesting", "TetherTestSupport"]),
        .testTarget(
            name: "BridgesTests", dependencies: ["Bridges", "Observable", "TetherTesting", "TetherTestSupport"]),
        .testTarget(name: "TetherTests", dependencies: ["Tether", "TetherTesting", "TetherTestSupport"]),
        .testTarget(name: "TetherTestingTests", dependencies: ["Observable", "TetherTesting", "TetherTestSupport"]),
        .testTarget(
            name: "BindingTests",
            dependencies: ["Binding", "Bridges", "Observable", "TetherTesting", "TetherTestSupport"]),
        // The isolation rule (issue 29), run as an app module runs it: Swift 6.2's default main-actor
        // isolation makes every closure written here main-actor isolated.
        .testTarget(
            name: "MainActorIsolationTests",
            dependencies: ["Observable", "Bridges", "Binding", "TetherTesting", "TetherTestSupport"],
            swiftSettings: [.defaultIsolation(MainActor.self)]),
        .testTarget(
            name: "DemoTests",
            dependencies: ["tether-demo", "TetherDemoModels", "Observable", "TetherTesting", "TetherTestSupport"],
            path: "Tests/DemoTests"),
    ],
    swiftLanguageModes: [.v6]
)
