// swift-tools-version: 6.2
// TetherGtk: GTK 4 widgets as Tether signals and binding targets, and the demo in a GTK 4 window; TetherGio:
// the GIO layer that needs no display (GSettings, D-Bus, the network and volume monitors), which TetherGtk
// builds on; TetherGObject, under both: any GObject's properties and signals, the main-context scheduler. A separate package so that the Tether library itself needs nothing but the
// Swift toolchain; this one needs GTK 4's development files (Debian: `apt-get install libgtk-4-dev`) and
// Swift 6.2 (isolated deinitializers), which the tools version states.
import PackageDescription

let package = Package(
    name: "TetherGtk",
    products: [
        .library(name: "TetherGObject", targets: ["TetherGObject"]),
        .library(name: "TetherGio", targets: ["TetherGio"]),
        .library(name: "TetherGtk", targets: ["TetherGtk"]),
        .executable(name: "tether-gtk-demo", targets: ["tether-gtk-demo"]),
        .executable(name: "tether-gio-watch", targets: ["tether-gio-watch"]),
        .executable(name: "tether-gio-bench", targets: ["tether-gio-bench"]),
        .library(name: "TetherDBusCodegen", targets: ["TetherDBusCodegen"]),
        .executable(name: "tether-dbus-codegen", targets: ["tether-dbus-codegen"]),
        .plugin(name: "TetherDBusCodegenPlugin", targets: ["TetherDBusCodegenPlugin"]),
    ],
    dependencies: [
        .package(name: "Tether", path: "..")
    ],
    targets: [
        .systemLibrary(
            name: "CGio",
            path: "Sources/CGio",
            pkgConfig: "gio-2.0",
            providers: [.apt(["libglib2.0-dev"])]
        ),
        // GLib and GObject: any GObject's properties and signals as Tether signals and binding targets, object
        // lifetimes, the main-context scheduler — the one signal-connection implementation and the one lock
        // that TetherGio and TetherGtk share.
        .target(
            name: "TetherGObject",
            dependencies: [
                "CGio",
                .product(name: "Observable", package: "Tether"),
                .product(name: "Bridges", package: "Tether"),
                .product(name: "Binding", package: "Tether"),
            ]
        ),
        // GLib and GIO without GTK: a daemon (no display) links only this.
        .target(
            name: "TetherGio",
            dependencies: [
                "CGio",
                "TetherGObject",
                .product(name: "Observable", package: "Tether"),
                .product(name: "Bridges", package: "Tether"),
                .product(name: "Binding", package: "Tether"),
            ]
        ),
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
                "TetherGio",
                .product(name: "Observable", package: "Tether"),
                .product(name: "Bridges", package: "Tether"),
                .product(name: "Binding", package: "Tether"),
            ]
        ),
        // The demo's windows (a library, so that tests build and drive them in-process) and its executable.
        // Its battery and network state come through clients generated from the target's *.xml (the
        // members of UPower's and NetworkManager's interfaces it shows).
        .target(
            name: "TetherGtkDemo",
            dependencies: [
                "TetherGtk",
                .product(name: "TetherDemoModels", package: "Tether"),
            ],
            plugins: ["TetherDBusCodegenPlugin"]
        ),
        .executableTarget(name: "tether-gtk-demo", dependencies: ["TetherGtkDemo"]),
        // A headless example: a bus name's owner or a D-Bus property, printed as it changes.
        .executableTarget(name: "tether-gio-watch", dependencies: ["TetherGio"]),
        // A benchmark: a D-Bus property change through Tether against a raw GDBus callback (a private bus).
        // Its third contender is a client generated from `org.tether.Bench.xml`; it also times the generator.
        .executableTarget(
            name: "tether-gio-bench", dependencies: ["TetherGio", "TetherDBusCodegen"],
            plugins: ["TetherDBusCodegenPlugin"]),
        // Introspection XML to typed Swift clients and service protocols (Foundation only: the command and the
        // plugin run it at build time, before TetherGio is built).
        .target(name: "TetherDBusCodegen"),
        .executableTarget(name: "tether-dbus-codegen", dependencies: ["TetherDBusCodegen", "TetherGio"]),
        // `*.xml` in a target's folder become Swift at build time, with the command for files only (built for
        // the host: TetherDBusCodegen alone, not TetherGio).
        .executableTarget(name: "TetherDBusCodegenPluginTool", dependencies: ["TetherDBusCodegen"]),
        .plugin(
            name: "TetherDBusCodegenPlugin", capability: .buildTool(), dependencies: ["TetherDBusCodegenPluginTool"]),
        // What both test targets use: the main-context pump, a private D-Bus bus, processes run beside it.
        .target(name: "TetherGioTestSupport", dependencies: ["TetherGio"], path: "Tests/TetherGioTestSupport"),
        // GLib and GIO tests: no display needed.
        .testTarget(name: "TetherGioTests", dependencies: ["TetherGio", "TetherGioTestSupport", "tether-gio-watch"]),
        // The generator's parsing, types, names, annotations and errors (no bus).
        .testTarget(name: "TetherDBusCodegenTests", dependencies: ["TetherDBusCodegen"]),
        // Clients and services generated by the plugin from the target's *.xml (UPower's and NetworkManager's
        // as installed by Debian's upower and network-manager-dev: symbolic links), driven against
        // python-dbusmock's templates and each other on a private bus; the command on a live object.
        .testTarget(
            name: "TetherDBusGeneratedTests",
            dependencies: ["TetherGio", "TetherGioTestSupport", "TetherDBusCodegen"],
            exclude: ["README.md"],
            plugins: ["TetherDBusCodegenPlugin"]
        ),
        .testTarget(
            name: "TetherGtkTests",
            dependencies: [
                "TetherGtk",
                "TetherGtkDemo",
                "TetherGioTestSupport",
                "tether-gtk-demo",
                .product(name: "TetherDemoModels", package: "Tether"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
