/// An immutable value behind a reference: a large, rarely set field of a value type costs one
/// pointer inline (async frames hold every value live across a suspension, so size matters there).
final class Box<Value: Sendable>: Sendable {
    /// The value.
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}
