// swift-tools-version: 6.2
// TetherGtk: GTK 4 widgets as Tether signals and binding targets, a GLib main-context scheduler, and the
// demo in a GTK 4 window. A separate package so that the Tether library itself needs nothing but the
// Swift toolchain; this one needs GTK 4's development files (Debian: `apt-get install libgtk-4-dev`) and
// Swift 6.2 (isolated deinitializers), which the tools version states.
import PackageDescription

let package = Package(
    name: "TetherGtk",
    products: [
        .library(name: "TetherGtk", targets: ["TetherGtk"]),
        .executable(name: "tether-gtk-demo", targets: ["tether-gtk-demo"]),
    ],
    dependencies: [
        .package(name: "Tether", path: "..")
    ],
    targets: [
        .systemLibrary(
            name: "CGtk",
            path: "Sources/CGtk",
            pkgConfig: "gtk4",
            providers: [.apt(["libgtk-4-dev"])]
        ),
        .target(
            name: "TetherGtk",
            dependencies: [
                "CGtk",
                .product(name: "Observable", package: "Tether"),
                .product(name: "Bridges", package: "Tether"),
                .product(name: "Binding", package: "Tether"),
            ]
        ),
        // The demo's windows (a library, so that tests build and drive them in-process) and its executable.
        .target(
            name: "TetherGtkDemo",
            dependencies: [
                "TetherGtk",
                .product(name: "TetherDemoModels", package: "Tether"),
            ]
        ),
        .executableTarget(name: "tether-gtk-demo", dependencies: ["TetherGtkDemo"]),
        .testTarget(
            name: "TetherGtkTests",
            dependencies: [
                "TetherGtk",
                "TetherGtkDemo",
                "tether-gtk-demo",
                .product(name: "TetherDemoModels", package: "Tether"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
