/// A field of the server certificate that a `certificate` query reads.
public enum HurlCertificateAttribute: String, Sendable, Hashable, CaseIterable {
    /// `"Subject"`.
    case subject = "Subject"
    /// `"Issuer"`.
    case issuer = "Issuer"
    /// `"Start-Date"`.
    case startDate = "Start-Date"
    /// `"Expire-Date"`.
    case expireDate = "Expire-Date"
    /// `"Serial-Number"`.
    case serialNumber = "Serial-Number"
}
