/// The credentials a `.netrc` file holds, by host (curl's `--netrc-file`): the login and
/// password of the host's `machine` entry, else of the `default` entry.
///
/// ```swift
/// let netrc = try NetrcFile(text: "machine api.example.test login ada password s3cret\n")
/// let provider = NetrcCredentialProvider(file: netrc, schemes: .basic)
/// ```
public struct NetrcCredentialProvider: HTTPCredentialProvider {
    /// The file's entries.
    public var file: NetrcFile
    /// The schemes each credential answers.
    public var schemes: HTTPAuthenticationSchemes

    /// Creates the provider.
    public init(file: NetrcFile, schemes: HTTPAuthenticationSchemes = .basic) {
        self.file = file
        self.schemes = schemes
    }

    /// The credential for the space's host.
    public func credential(for space: ProtectionSpace) -> HTTPCredential? {
        file.credential(for: space.host, schemes: schemes)
    }
}
