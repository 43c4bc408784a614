// Tether contenders for rows whose API is still arriving on main; each returns [] until it exists.

enum TetherRows {
    static func w4(_ n: Int) -> [Contender] { [Contender(name: "Tether", prepare: { TetherImpl.w4(n) })] }
    static func w5(outer: Int, inner: Int) -> [Contender] {
        [Contender(name: "Tether", prepare: { TetherImpl.w5(outer: outer, inner: inner) })]
    }
    static func w6(_ n: Int) -> [Contender] {
        [Contender(name: "Tether @Observed", prepare: { TetherImpl.w6(n) }, live: TetherImpl.w6ObserversLive)]
    }
    static func w6ObservableObject(_ n: Int) -> [Contender] {
        [Contender(name: "Tether observe(@Observable)", prepare: { TetherImpl.w6ObservableObject(n) })]
    }
    static func w6NoObserver(_ n: Int) -> [Contender] {
        [Contender(name: "Tether @Observed", prepare: { TetherImpl.w6NoObserver(n) })]
    }
    static func w6MutableProperty(_ n: Int) -> [Contender] {
        [Contender(name: "Tether MutableProperty", prepare: { TetherImpl.w6MutableProperty(n) })]
    }
    static func w7(_ n: Int, filtered: Bool) -> [Contender] {
        [Contender(name: "Tether", prepare: { TetherImpl.w7(n, filtered: filtered) })]
    }
    static func w9(_ n: Int, others: Int) -> [Contender] {
        [Contender(name: "Tether @Observed", prepare: { TetherImpl.w9(n, others: others) })]
    }
}
