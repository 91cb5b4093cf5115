import SluiceCore

/// A parsed I-Regexp, before it is compiled to an ``IRegexpProgram``.
indirect enum IRegexpNode: Sendable {
    /// Matches the empty text (an empty branch or group).
    case empty
    /// One code point from a set.
    case characters(IRegexpCharacterClass)
    /// The start of the text (`^`).
    case start
    /// The end of the text (`$`).
    case end
    /// Each part in turn.
    case sequence([IRegexpNode])
    /// Any one of the branches.
    case alternation([IRegexpNode])
    /// The node from `minimum` to `maximum` times (`nil`: no upper bound).
    case repetition(IRegexpNode, minimum: Int, maximum: Int?)
}
