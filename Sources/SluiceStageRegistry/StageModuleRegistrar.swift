import SluiceCore

/// What a stage module built as a shared library registers its stages with.
///
/// The runner creates one for each module it loads and passes it, as an opaque pointer, to the
/// module's `sluice_stage_module_register` entry point, which turns the pointer back into the
/// registrar and registers:
///
/// <!-- fragment: the C entry points of a shared library (scripts/build-stage-module), which no test target can hold; Plugins/ExampleRequestID/EntryPoints.swift is this code -->
/// ```swift
/// import SluiceCore
/// import SluiceStageRegistry
///
/// @c(sluice_stage_module_version)
/// public func sluiceStageModuleVersion() -> UnsafePointer<UInt8> {
///     SluiceVersion.compiled.utf8Start
/// }
///
/// @c(sluice_stage_module_register)
/// public func sluiceStageModuleRegister(_ registrar: UnsafeMutableRawPointer) {
///     StageModuleRegistrar.from(registrar).register(RequestIDModule.self)
/// }
/// ```
public final class StageModuleRegistrar: Sendable {
    private let registered = Locked<[StageDescriptor]>([])

    init() {}

    /// The registrar behind the pointer the runner passed to `sluice_stage_module_register`.
    public static func from(_ pointer: UnsafeMutableRawPointer) -> StageModuleRegistrar {
        Unmanaged<StageModuleRegistrar>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Registers one stage.
    public func register(_ descriptor: StageDescriptor) {
        registered.withLock { $0.append(descriptor) }
    }

    /// Registers every stage of a module.
    public func register(_ module: any StageModule.Type) {
        registered.withLock { $0 += module.stages }
    }

    /// The stages registered, in order.
    var descriptors: [StageDescriptor] {
        registered.withLock { $0 }
    }

    /// The pointer handed to a module's entry point; valid while this registrar lives.
    var opaquePointer: UnsafeMutableRawPointer {
        Unmanaged.passUnretained(self).toOpaque()
    }
}
