/// A field's colour, bound from its validity (the RAC tutorials' `backgroundColor`: clear when valid,
/// yellow when not).
enum FieldTint: Equatable, Sendable {
    case valid
    case invalid

    init(isValid: Bool) {
        self = isValid ? .valid : .invalid
    }
}
