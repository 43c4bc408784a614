// Drives the types that TimeAndThreads.md declares, as the article implies they are used: compiled into
// that article's example module by Scripts/run-doc-examples.sh (see Tests/ExampleRuns/README.md).
import Dispatch
import DocExampleSupport
import Observable

/// The drivers of this file, for the runner.
nonisolated public func exampleDrivers() -> [DocExample] {
    [
        DocExample(file: #filePath, line: #line) { try await resultsViewModelShowsTheRowsOfAQuerySentFromAWorker() }
    ]
}

/// `ResultsViewModel`'s query arrives from a worker queue; its `map` runs in the background, its rows
/// are set on the main actor.
@MainActor
func resultsViewModelShowsTheRowsOfAQuerySentFromAWorker() async throws {
    let query = Subject<String, Never>()
    let model = ResultsViewModel(query: query)
    DispatchQueue.global().async { query.send("swift") }
    await waitUntil { model.rows == ["swift 1", "swift 2", "swift 3"] }
}
