/// Builds a list of stages from a block, with `if`, `if let`, `switch` and `for` as in any result
/// builder:
///
/// ```swift
/// let pipeline = try Pipeline {
///     Stamp()
///     if verbose { Logging() }
///     for header in extraHeaders { AddHeader(header) }
/// }
/// ```
@resultBuilder
public enum StageBuilder {
    /// One stage.
    public static func buildExpression(_ stage: any Stage) -> [any Stage] {
        [stage]
    }

    /// A list of stages, kept in order.
    public static func buildExpression(_ stages: [any Stage]) -> [any Stage] {
        stages
    }

    /// The stages of a block, in order.
    public static func buildBlock(_ components: [any Stage]...) -> [any Stage] {
        components.flatMap { $0 }
    }

    /// The stages of an `if` without `else`; none when the condition is false.
    public static func buildOptional(_ component: [any Stage]?) -> [any Stage] {
        component ?? []
    }

    /// The stages of the first branch of an `if`/`else` or `switch`.
    public static func buildEither(first component: [any Stage]) -> [any Stage] {
        component
    }

    /// The stages of the second branch of an `if`/`else` or `switch`.
    public static func buildEither(second component: [any Stage]) -> [any Stage] {
        component
    }

    /// The stages of every iteration of a `for` loop, in order.
    public static func buildArray(_ components: [[any Stage]]) -> [any Stage] {
        components.flatMap { $0 }
    }

    /// The stages of an `if #available` block.
    public static func buildLimitedAvailability(_ component: [any Stage]) -> [any Stage] {
        component
    }
}
