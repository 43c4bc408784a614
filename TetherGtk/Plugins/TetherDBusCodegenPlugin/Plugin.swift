import Foundation
import PackagePlugin

/// A build-tool plugin: each `*.xml` file (D-Bus introspection XML) in a target's folder becomes a Swift file
/// of typed clients and service protocols at build time (`tether-dbus-codegen --output`, for files only), in the build
/// directory — the generated code is not committed. The target depends on TetherGio.
@main
struct TetherDBusCodegenPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let tool = try context.tool(named: "TetherDBusCodegenPluginTool")
        return target.sourceFiles.filter { $0.url.pathExtension == "xml" }.map { file in
            let name = file.url.deletingPathExtension().lastPathComponent
            let output = context.pluginWorkDirectoryURL.appending(path: name + ".swift")
            return .buildCommand(
                displayName: "Generating Swift for the D-Bus interfaces of \(file.url.lastPathComponent)",
                executable: tool.url,
                arguments: ["--output", output.path(), file.url.path()],
                inputFiles: [file.url],
                outputFiles: [output])
        }
    }
}
