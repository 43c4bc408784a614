/// The exhaustive walk the engine's exploration tests share: every state reachable from a start, each
/// visited once, depth first, without threads.
///
/// In every state `violation` is checked (a violating state is counted, reported and not expanded); a state
/// with no successor is *final*, where `finalViolation` is checked too. The models describe their states,
/// steps and invariants; the walk is written once.
struct StateSpace {
    /// How many states were visited.
    var states = 0
    /// How many of them had no successor.
    var finalStates = 0
    /// The first few violations found (three: enough to read, few enough to print).
    var violations: [String] = []

    /// Walks every state reachable from `start`; states with the same `key` are one state.
    static func explore<State, Key: Hashable>(
        from start: State, key: (State) -> Key, violation: (State) -> String?,
        finalViolation: (State) -> String?, successors: (State) -> [State]
    ) -> StateSpace {
        var walk = StateSpace()
        var seen: Set<Key> = [key(start)]
        var stack = [start]
        while let state = stack.popLast() {
            walk.states += 1
            if let found = violation(state) {
                walk.report(found)
                continue
            }
            let next = successors(state)
            if next.isEmpty {
                walk.finalStates += 1
                if let found = finalViolation(state) { walk.report(found) }
            }
            for successor in next where seen.insert(key(successor)).inserted {
                stack.append(successor)
            }
        }
        return walk
    }

    /// As above, for states that are their own key.
    static func explore<State: Hashable>(
        from start: State, violation: (State) -> String?, finalViolation: (State) -> String?,
        successors: (State) -> [State]
    ) -> StateSpace {
        explore(from: start, key: { $0 }, violation: violation, finalViolation: finalViolation, successors: successors)
    }

    private mutating func report(_ violation: String) {
        if violations.count < 3 { violations.append(violation) }
    }
}
