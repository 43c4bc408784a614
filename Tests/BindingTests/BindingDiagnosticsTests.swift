import Binding
import Bridges
import Foundation
import TetherTestSupport
import TetherTesting
import XCTest

// The unavailable overloads that name the fix for a mistake (Sources/Binding/BindingDiagnostics.swift,
// pinned in Tests/CompileChecks) must never win over a valid call: each valid spelling below compiles
// and binds.

private final class FormView: BindingTarget {
    var title = ""
    var subtitle: String?
    var count = 0
}

private final class Button: ActionSource {
    let actions = ActionRegistry<Button>()
}

final class BindingDiagnosticsTests: ResourceCheckedTestCase {
    func testValidBindingsStillPickTheWorkingOverloads() {
        let view = FormView()
        let titles = Subject<String, Never>()
        let counts = Subject<Int, Never>()
        let optionalTitles = Subject<String?, Never>()
        view.bind(\.title, to: titles)
        view.bind(\.subtitle, to: titles)
        view.bind(\.count, to: counts.map { $0 * 2 })
        view.bind(\.count, to: optionalTitles.map { $0?.count }, nilValue: -1)
        titles.send("ada")
        counts.send(4)
        XCTAssertEqual([view.title, view.subtitle], ["ada", "ada"])
        XCTAssertEqual(view.count, 8)
        optionalTitles.send(nil)
        XCTAssertEqual(view.count, -1)
    }

    func testValidSlotAndPropertyBindingsStillPickTheWorkingOverloads() {
        let view = FormView()
        let query = MutableProperty("")
        let texts = Subject<String, Never>()
        let failing = Subject<String, TestError>()
        view[\.title] <~ texts
        view[\.subtitle] <~ texts
        view[\.count] <~ texts.map { Int($0) ?? 0 }
        query <~ failing.catch { _ in .empty }
        texts.send("42")
        failing.send("swift")
        XCTAssertEqual([view.title, view.subtitle, query.value], ["42", "42", "swift"])
        XCTAssertEqual(view.count, 42)
    }

    func testValidChannelFeedsStillPickTheWorkingOverload() {
        let volume = MutableProperty(0)
        let presets = Subject<Int, Never>()
        let failing = Subject<Int, TestError>()
        volume.channel() <~ presets
        volume.channel() <~ failing.catch { _ in .empty }
        presets.send(3)
        XCTAssertEqual(volume.value, 3)
        failing.send(5)
        XCTAssertEqual(volume.value, 5)
    }

    func testValidCommandBindingsAndVoidExecuteStillCompileAndRun() {
        let button = Button()
        let log = Locked<[String]>([])
        let press = Command { (_: Button) in log.mutate { $0.append("pressed") } }
        let search = Command { (text: String) in log.mutate { $0.append("searching \(text)") } }
        let signIn = Command { log.mutate { $0.append("signing in") } }
        button.bind(command: press)
        button.bind(command: search, input: { _ in "swift" })
        button.bind(command: signIn, input: { _ in })
        button.sendActions(for: .primaryAction)
        signIn.execute(())
        XCTAssertEqual(log.value, ["pressed", "searching swift", "signing in", "signing in"])
    }
}
