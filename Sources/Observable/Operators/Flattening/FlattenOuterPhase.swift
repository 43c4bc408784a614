import TetherEngine

/// How far the outer source of a flattening operator has got.
@usableFromInline
enum FlattenOuterPhase: Equatable {
    /// It may still send inner signals.
    case active
    /// It completed.
    case completed
    /// Its subscription ended without a terminal event: the result can never complete.
    case wentAway
}
