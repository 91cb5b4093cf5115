/// A stage that tells whoever configured it what its configuration reveals or weakens: values
/// derived from secrets (an `Authorization` header's credentials), which output must redact, and
/// warnings about security it turns off.
///
/// A pipeline file's loader asks every stage it makes, whatever its type, so a stage of a plugin
/// reports the same way as a built-in one.
public protocol ConfigurationReporting {
    /// Values the stage made from its secret settings, which its settings do not hold as written.
    var derivedSecrets: [String] { get }
    /// Warnings about a configuration that works but weakens security.
    var configurationWarnings: [String] { get }
}

extension ConfigurationReporting {
    /// None.
    public var derivedSecrets: [String] { [] }
    /// None.
    public var configurationWarnings: [String] { [] }
}
