/// Sluice's own version.
public enum SluiceVersion {
    /// The version of this build of Sluice, for example `0.1.0`.
    public static let current = "0.1.0"
}
