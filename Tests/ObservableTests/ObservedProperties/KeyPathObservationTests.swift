import Foundation
import Observable
import TetherTestSupport
import TetherTesting
import XCTest

final class KeyPathObservationTests: ResourceCheckedTestCase {
    func testChainFollowsTheMiddleObjectWhenItIsReplaced() {
        let model = LoginViewModel(account: Account(name: "ann"))
        let log = EventLog<String, Never>()
        model.observe(\.account.name).record(into: log)
        model.account.name = "anna"
        model.account = Account(name: "bob")
        model.account.name = "bobby"
        XCTAssertEqual(log.values, ["ann", "anna", "bob", "bobby"])
    }

    func testReplacedMiddleObjectIsNoLongerObserved() {
        let old = Account(name: "old")
        let model = LoginViewModel(account: old)
        let log = EventLog<String, Never>()
        model.observe(\.account.name).record(into: log)
        model.account = Account(name: "new")
        old.name = "changed after replacement"
        old.password = "also ignored"
        XCTAssertEqual(log.values, ["old", "new"])
    }

    func testChainSendsEverySetOfAnyLinkIncludingEqualValues() {
        let model = LoginViewModel(account: Account(name: "a"))
        let log = EventLog<String, Never>()
        model.observe(\.account.name).record(into: log)
        model.account.name = "a"
        model.account = Account(name: "a")
        XCTAssertEqual(log.values, ["a", "a", "a"])
    }

    func testOptionalLinkSendsNilWhileTheMiddleIsMissing() {
        let model = LoginViewModel()
        let log = EventLog<String?, Never>()
        model.observe(\.backup?.name).record(into: log)
        let backup = Account(name: "spare")
        model.backup = backup
        backup.name = "spare 2"
        model.backup = nil
        backup.name = "ignored"
        XCTAssertEqual(log.values, [nil, "spare", "spare 2", nil])
    }

    func testComputedPropertyIsRetrackedOnEachEvaluation() {
        let model = LoginViewModel(account: Account(name: "main"))
        let log = EventLog<String, Never>()
        model.observe(\.activeName).record(into: log)
        model.account.name = "main 2"  // read by the evaluation: sent
        model.useBackup = true  // now reads backup, not account.name
        model.account.name = "changed while untracked"  // not read by the last evaluation: not sent
        model.backup = Account(name: "spare")
        model.backup?.name = "spare 2"
        model.useBackup = false
        model.backup?.name = "ignored again"
        XCTAssertEqual(log.values, ["main", "main 2", "-", "spare", "spare 2", "changed while untracked"])
    }

    func testKeyPathReadingNoObservedPropertyWarnsSendsTheCurrentValueAndCompletes() {
        let recorder = WarningRecorder()
        defer { recorder.stop() }
        let model = LoginViewModel()
        model.plainCounter = 4
        let log = EventLog<Int, Never>()
        model.observe(\.plainCounter).record(into: log)
        XCTAssertEqual(log.events, [.next(4), .completed])
        XCTAssertEqual(recorder.warnings.map(\.kind), [.keyPathObservesNothing])
        XCTAssertTrue(recorder.warnings.first?.message.contains("plainCounter") ?? false)
    }

    func testDefaultWarningHandlerIsReplaceableAndRestorable() {
        let bare = Bare()
        let recorder = WarningRecorder()
        bare.observe(\.plain).subscribe()
        recorder.stop()
        XCTAssertEqual(recorder.warnings.count, 1)
        let again = WarningRecorder()
        defer { again.stop() }
        bare.observe(\.plain).subscribe()
        XCTAssertEqual(again.warnings.count, 1)
        XCTAssertEqual(recorder.warnings.count, 1)
    }

    func testChainCompletesWhenTheRootDeinitializes() {
        let account = Account(name: "a")
        var model: LoginViewModel? = LoginViewModel(account: account)
        weak let weakModel = model
        let log = EventLog<String, Never>()
        model!.observe(\.account.name).record(into: log)
        model = nil
        XCTAssertNil(weakModel)
        XCTAssertEqual(log.events, [.next("a"), .completed])
        account.name = "after"
        XCTAssertEqual(log.events.count, 2)
    }

    func testChainDoesNotKeepTheMiddleObjectAlive() {
        let model = LoginViewModel(account: Account(name: "a"))
        weak let weakAccount = model.account
        let subscription = model.observe(\.account.name).subscribe()
        model.account = Account(name: "b")
        XCTAssertNil(weakAccount)
        subscription.dispose()
    }

    func testDisposingAChainStopsDeliveryAndReleasesTheObserver() {
        let model = LoginViewModel(account: Account(name: "a"))
        var captured: Tracked? = Tracked()
        weak let weakCaptured = captured
        let log = EventLog<String, Never>()
        let subscription = model.observe(\.account.name).subscribe(next: { [captured] value in
            _ = captured
            log.append(.next(value))
        })
        captured = nil
        subscription.dispose()
        XCTAssertNil(weakCaptured)
        model.account.name = "b"
        model.account = Account()
        XCTAssertEqual(log.values, ["a"])
    }

    func testSetFromInsideAChainObserverIsHandledAfterTheCurrentValue() {
        expectLiveSubscriptions("the observer captures the observed object")
        let model = LoginViewModel(account: Account(name: "a"))
        let log = EventLog<String, Never>()
        model.observe(\.account.name).subscribe(next: { name in
            log.append(.next(name))
            if name == "b" { model.account = Account(name: "c") }
        })
        model.account.name = "b"
        XCTAssertEqual(log.values, ["a", "b", "c"])
    }

    func testChainThroughAPlainLinkStillFollowsTheObservedLeaf() {
        let holder = PlainHolder()
        let log = EventLog<String, Never>()
        holder.observe(\.account.name).record(into: log)
        holder.account.name = "x"
        XCTAssertEqual(log.values, ["", "x"])
    }

    func testRootWithoutLifetimeStorageWarnsAndCompletesOnTheNextChangeAfterItIsGone() {
        let recorder = WarningRecorder()
        defer { recorder.stop() }
        let account = Account(name: "a")
        var holder: PlainLetHolder? = PlainLetHolder(account: account)
        let log = EventLog<String, Never>()
        holder!.observe(\.account.name).record(into: log)
        XCTAssertEqual(recorder.warnings.map(\.kind), [.noLifetimeStorage])
        holder = nil
        XCTAssertEqual(log.events, [.next("a")])
        account.name = "b"
        XCTAssertEqual(log.events, [.next("a"), .completed])
    }

    func testLoginFormValidityFromTheTutorialsViewModel() {
        // The RAC tutorials' `[RACSignal combineLatest:@[RACObserve(self.account, account),
        // RACObserve(self.account, pwd)] reduce:…]`, in Swift.
        let vm = LoginViewModel()
        let log = EventLog<Bool, Never>()
        Signal.combineLatest(vm.observe(\.account.name), vm.observe(\.account.password))
            .map { !$0.isEmpty && !$1.isEmpty }
            .record(into: log)
        vm.account.name = "ann"
        vm.account.password = "secret"
        vm.account = Account(name: "bob", password: "")
        vm.account.password = "hunter2"
        // Replacing the account updates each input in turn: (bob, secret) passes by before (bob, "").
        XCTAssertEqual(log.values, [false, false, true, true, false, true])
    }

    func testLoginFormValidityCompletesWhenTheViewModelDeinitializes() {
        var vm: LoginViewModel? = LoginViewModel()
        let log = EventLog<Bool, Never>()
        Signal.combineLatest(vm!.observe(\.account.name), vm!.observe(\.account.password))
            .map { !$0.isEmpty && !$1.isEmpty }
            .record(into: log)
        vm = nil
        XCTAssertEqual(log.events, [.next(false), .completed])
    }
}

final class PlainHolder: KeyPathObservable {
    let account = Account()
    @Observed var lifetime: Void = ()
}

final class PlainLetHolder: KeyPathObservable {
    let account: Account
    init(account: Account) { self.account = account }
}
