/// The stages pipeline files can name: a map from name to ``StageDescriptor``.
///
/// ``builtIn`` holds Sluice's own stages; plugin modules register theirs into a copy. The loader
/// makes stages through it, `sluice stages` lists it, and ``PipelineSchema`` is generated from it,
/// so the three never disagree.
public struct StageRegistry: Sendable {
    /// The descriptors, in the order they were registered.
    public private(set) var descriptors: [StageDescriptor] = []

    /// Creates an empty registry.
    public init() {}

    /// A registry holding the built-in stages: `url-resolution`, `header-injection`,
    /// `serialization`, `trust-evaluation`, `proxy`, `response-decoding`, `redirects` and `cookies`.
    public static var builtIn: StageRegistry {
        var registry = StageRegistry()
        registry.descriptors = BuiltInStages.descriptors
        return registry
    }

    /// Adds a stage.
    /// - Throws: `.configuration` when a stage of that name is already registered.
    public mutating func register(_ descriptor: StageDescriptor) throws(SluiceError) {
        guard self[descriptor.name] == nil else {
            throw SluiceError(kind: .configuration, message: "a stage named '\(descriptor.name)' is already registered")
        }
        descriptors.append(descriptor)
    }

    /// The descriptor of a stage name.
    public subscript(name: String) -> StageDescriptor? {
        descriptors.first { $0.name == name }
    }
}
