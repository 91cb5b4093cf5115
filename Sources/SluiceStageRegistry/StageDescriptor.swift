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
public struct StageDescriptor: Sendable {
    /// Makes the stage from its checked options.
    /// - Throws: ``StageOptions/Invalid`` or a `SluiceError` of kind `.configuration`.
    public typealias Factory = @Sendable (StageOptions) throws -> any Stage

    /// The stage's name in pipeline files (`url-resolution`).
    public var name: String
    /// One sentence saying what the stage does.
    public var summary: String
    /// Where the stages it makes run (their `Stage/placement`), for `sluice stages` to show
    /// before any is made; the loader refuses a stage made elsewhere.
    public var placement: StagePlacement
    /// The options it takes.
    public var options: [OptionDescriptor]
    /// Whether the stage holds the state of one run (a cookie jar, an HSTS store): each run of a
    /// pipeline file then makes its own with ``make``, where other stages are made once, when
    /// the file is loaded, and shared by its runs.
    public var holdsRunState: Bool
    /// Makes the stage.
    public var make: Factory

    /// Creates a descriptor.
    public init(
        name: String, summary: String, placement: StagePlacement = .call, holdsRunState: Bool = false, options: [OptionDescriptor] = [],
        make: @escaping Factory
    ) {
        self.name = name
        self.summary = summary
        self.placement = placement
        self.options = options
        self.holdsRunState = holdsRunState
        self.make = make
    }
}
