import Foundation
import Observable
import XCTest

final class Account: KeyPathObservable {
    @Observed var name: String
    @Observed var password: String
    init(name: String = "", password: String = "") {
        self.name = name
        self.password = password
    }
}

final class LoginViewModel: KeyPathObservable {
    @Observed var account: Account
    @Observed var backup: Account?
    @Observed var useBackup = false
    var plainCounter = 0
    init(account: Account = Account()) {
        self.account = account
    }
    /// A computed property built from `@Observed` ones, with a conditional.
    var activeName: String {
        useBackup ? (backup?.name ?? "-") : account.name
    }
}

final class CounterModel: KeyPathObservable {
    @Observed var count = 0
    @Observed var label = "a"
    var plain = 0
}

/// A class with no `@Observed` property: no lifetime storage.
final class Bare: KeyPathObservable {
    var plain = 1
}

/// Records every `ObservationWarning` reported while alive, and restores the previous handler.
final class WarningRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [ObservationWarning] = []
    private let previous: @Sendable (ObservationWarning) -> Void

    init() {
        previous = ObservationWarning.handler
        ObservationWarning.handler = { [weak self] warning in self?.append(warning) }
    }

    var warnings: [ObservationWarning] { lock.withLock { storage } }

    private func append(_ warning: ObservationWarning) {
        lock.withLock { storage.append(warning) }
    }

    func stop() {
        ObservationWarning.handler = previous
    }
}

final class Roster: KeyPathObservable {
    @Observed var accounts: [Account] = []
    @Observed var items: [Int] = []
}
