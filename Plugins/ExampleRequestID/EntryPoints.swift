import SluiceCore
import SluiceStageRegistry

// The two C entry points every stage module built as a shared library exports. The runner calls
// the first to check that the module was built against its own Sluice, then the second to have
// the module register its stages.

/// The Sluice version this module was built against.
@c(sluice_stage_module_version)
public func sluiceStageModuleVersion() -> UnsafePointer<UInt8> {
    SluiceVersion.compiled.utf8Start
}

/// Registers the module's stages with the runner's registrar.
@c(sluice_stage_module_register)
public func sluiceStageModuleRegister(_ registrar: UnsafeMutableRawPointer) {
    StageModuleRegistrar.from(registrar).register(RequestIDModule.self)
}
