// Drives the types that SwiftConcurrency.md declares, as the article implies they are used: compiled into
// that article's example module by Scripts/run-doc-examples.sh (see Tests/ExampleRuns/README.md).
import Dispatch
import DocExampleSupport
import Observable

/// The drivers of this file, for the runner.
nonisolated public func exampleDrivers() -> [DocExample] {
    [
        DocExample(file: #filePath, line: #line) { try await downloadViewModelShowsProgressSentFromAWorker() }
    ]
}

/// `DownloadViewModel`'s progress is sent by the download, on a worker queue; the status is set on the
/// main actor.
@MainActor
func downloadViewModelShowsProgressSentFromAWorker() async throws {
    let progress = Subject<Double, Never>()
    let model = DownloadViewModel()
    model.start(progress: progress)
    DispatchQueue.global().async {
        for fraction in [0.25, 0.5, 1.0] { progress.send(fraction) }
    }
    await waitUntil { model.status == "100 %" }
}
