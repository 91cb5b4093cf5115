import SluiceCore

/// A module of stages that pipeline files can name: what a folder under `Plugins/` (or a stage
/// module loaded at run time) hands to a ``StageRegistry``.
///
/// ```swift
/// public enum StampModule: StageModule {
///     public static var stages: [StageDescriptor] {
///         [StageDescriptor(name: "stamp", summary: "Adds an X-Stamp header.") { _ in Stamp() }]
///     }
/// }
/// ```
///
/// A program registers it in a registry, beside the built-in stages:
///
/// ```swift
/// var registry = StageRegistry.builtIn
/// try registry.register(StampModule.self)
/// ```
public protocol StageModule {
    /// The module's stages, in the order `sluice stages` lists them.
    static var stages: [StageDescriptor] { get }
}

extension StageRegistry {
    /// Adds every stage of a module.
    /// - Throws: `.configuration` when one of its names is already registered; the stages
    ///   before it stay registered.
    public mutating func register(_ module: any StageModule.Type) throws(SluiceError) {
        for descriptor in module.stages {
            try register(descriptor)
        }
    }
}
