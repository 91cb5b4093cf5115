import SluiceCore

/// What a stage registry knows of one stage: its name in pipeline files, what it does, its
/// options, and how to make it from them.
///
/// ```swift
/// try registry.register(StageDescriptor(
///     name: "stamp",
///     summary: "Adds an X-Stamp header.",
///     options: [OptionDescriptor("value", .string, required: true, summary: "The header's value.")]
/// ) { options in
///     Stamp(value: options.string("value")!)
/// })
/// ```
///
/// Where the stage runs is not given: it is the `Stage/placement` of the type the factory
/// returns, here `Stamp`'s.
public struct StageDescriptor: Sendable {
    /// Makes the stage from its checked options.
    /// - Throws: ``StageOptions/Invalid`` or a `SluiceError` of kind `.configuration`.
    public typealias Factory = @Sendable (StageOptions) throws -> any Stage

    /// The stage's name in pipeline files (`url-resolution`).
    public var name: String
    /// One sentence saying what the stage does.
    public var summary: String
    /// Where the stages it makes run: the `Stage/placement` of their type, for `sluice stages` and
    /// the loader to read before any is made.
    public let placement: StagePlacement
    /// The options it takes.
    public var options: [OptionDescriptor]
    /// Whether the stage holds the state of one run (a cookie jar, an HSTS store): each run of a
    /// pipeline file then makes its own with ``make``, where other stages are made once, when
    /// the file is loaded, and shared by its runs.
    public var holdsRunState: Bool
    /// Makes the stage.
    public let make: Factory

    /// Creates a descriptor of the stages `make` returns, which run at their type's placement.
    /// - Parameters:
    ///   - name: the stage's name in pipeline files.
    ///   - summary: one sentence saying what the stage does.
    ///   - holdsRunState: whether each run makes its own stage (see ``holdsRunState``).
    ///   - options: the options it takes.
    ///   - make: makes the stage from its checked options.
    public init<S: Stage>(
        name: String, summary: String, holdsRunState: Bool = false, options: [OptionDescriptor] = [],
        make: @escaping @Sendable (StageOptions) throws -> S
    ) {
        self.name = name
        self.summary = summary
        self.placement = S.placement
        self.options = options
        self.holdsRunState = holdsRunState
        self.make = { options in try make(options) }
    }
}
