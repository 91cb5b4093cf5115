/// Sluice's own version.
public enum SluiceVersion {
    /// The version of this build of Sluice, for example `0.1.0`.
    public static let current = String(describing: compiled)

    /// The version as compiled into the code that uses it. A stage module built as a shared
    /// library reports this from its `sluice_stage_module_version` entry point, so it names the
    /// Sluice the module was built against, which the runner compares with its own.
    @_alwaysEmitIntoClient
    public static var compiled: StaticString { "0.1.0" }
}
