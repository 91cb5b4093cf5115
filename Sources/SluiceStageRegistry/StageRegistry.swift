import SluiceCore

/// The stages pipeline files can name: a map from name to ``StageDescriptor``.
///
/// `builtIn` (from `SluicePipelineFiles`) holds Sluice's own stages; plugin modules register
/// theirs into a copy. The loader
/// makes stages through it, `sluice stages` lists it, and `PipelineSchema` is generated from it,
/// so the three never disagree.
public struct StageRegistry: Sendable {
    /// The descriptors, in the order they were registered.
    public private(set) var descriptors: [StageDescriptor] = []

    /// Creates an empty registry.
    public init() {}

    /// A registry holding `descriptors`, whose names are known to differ.
    package init(distinct descriptors: [StageDescriptor]) {
        self.descriptors = descriptors
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
