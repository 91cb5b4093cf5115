import Foundation
import SluicePipelineFiles
import SluiceStageRegistry

extension HurlConversion {
    /// The `trust-evaluation` options the command line's TLS flags (`-k`, `--cacert`, `--cert`,
    /// `--key`, `--pinnedpubkey`) give every entry, before its own `[Options]` change them.
    func defaultTrust(at position: HurlSourcePosition) -> [(String, YAMLNode)] {
        var trust: [(String, YAMLNode)] = []
        if defaults.insecure { trust += HurlConversion.insecure(at: position) }
        if let caBundle = defaults.caBundle {
            trust.append(("ca-bundle", HurlConversion.text(URL(fileURLWithPath: caBundle).path, at: position)))
        }
        if let certificate = defaults.clientCertificate {
            let (file, password) = HurlConversion.splitText(certificate) ?? (certificate, nil)
            trust.append(("client-certificate", HurlConversion.text(URL(fileURLWithPath: file).path, at: position)))
            if let password { trust.append(("client-key-password", HurlConversion.text(password, at: position))) }
        }
        if let key = defaults.clientKey {
            trust.append(("client-key", HurlConversion.text(URL(fileURLWithPath: key).path, at: position)))
        }
        if let pins = defaults.pinnedPublicKeys {
            trust += HurlConversion.pinning(
                pins.split(separator: ";", omittingEmptySubsequences: false).map { HurlConversion.text(HurlConversion.pinText(String($0)), at: position) }, at: position
            )
        }
        return trust
    }

    /// An entry's TLS option (`insecure`, `cacert`, `cert`, `key`, `pinnedpubkey`) as
    /// `trust-evaluation` options, over what the command line gave; false for any other option.
    ///
    /// Hurl hands the files to libcurl, which opens them from the working folder: a relative path
    /// is written out whole.
    mutating func trustOption(_ option: HurlOption, into trust: inout [(String, YAMLNode)]) -> Bool {
        let at = option.position
        switch (option.name, option.value) {
        case (.insecure, .boolean(let on)):
            let options = HurlConversion.insecure(at: at)
            trust.removeAll { option in options.contains { $0.0 == option.0 } }
            if on { trust += options }
        case (.caCertificate, .text(let written)):
            HurlConversion.assign("ca-bundle", workingFolderPath(written), to: &trust)
        case (.clientCertificate, .text(let written)):
            trust.removeAll { $0.0 == "client-key-password" }
            if let (file, password) = HurlConversion.split(written) {
                HurlConversion.assign("client-certificate", workingFolderPath(file), to: &trust)
                trust.append(("client-key-password", templateNode(password)))
            } else {
                HurlConversion.assign("client-certificate", workingFolderPath(written), to: &trust)
            }
        case (.clientKey, .text(let written)):
            HurlConversion.assign("client-key", workingFolderPath(written), to: &trust)
        case (.pinnedPublicKey, .text(let written)):
            // curl's pins, separated by ';'; a templated list is one pin per variable.
            let pins = written.literalValue.map { text in
                text.split(separator: ";", omittingEmptySubsequences: false).map { HurlConversion.text(HurlConversion.pinText(String($0)), at: at) }
            } ?? [templateNode(written)]
            trust.removeAll { ["pinning", "pins"].contains($0.0) }
            trust += HurlConversion.pinning(pins, at: at)
        default:
            return false
        }
        return true
    }

    /// The entry's own `trust-evaluation` stage for `trust`, or `nil` when it holds nothing.
    static func trustStage(_ trust: [(String, YAMLNode)], at position: HurlSourcePosition) -> YAMLNode? {
        trust.isEmpty ? nil : HurlConversion.mapping([("trust-evaluation", HurlConversion.mapping(trust, at: position))], at: position)
    }

    /// What `-k` and `insecure: true` turn off: certificate validation and the name check.
    private static func insecure(at position: HurlSourcePosition) -> [(String, YAMLNode)] {
        [("allow-invalid-certificates", HurlConversion.plain("true", at: position)), ("validates-domain-name", HurlConversion.plain("false", at: position))]
    }

    /// `pinning: public-key` with `pins`.
    private static func pinning(_ pins: [YAMLNode], at position: HurlSourcePosition) -> [(String, YAMLNode)] {
        [("pinning", HurlConversion.text("public-key", at: position)), ("pins", HurlConversion.list(pins, at: position))]
    }

    /// A pin as curl reads it: a `sha256//` hash as it is, else a public-key file, from the
    /// working folder, written out whole; an empty one stays empty, for the loader to refuse.
    private static func pinText(_ pin: String) -> String {
        let pin = pin.trimmingCharacters(in: .whitespaces)
        return pin.isEmpty || pin.hasPrefix("sha256//") ? pin : URL(fileURLWithPath: pin).path
    }

    /// A file name libcurl opens from the working folder: a literal one written out whole.
    private mutating func workingFolderPath(_ written: HurlTemplate) -> YAMLNode {
        written.literalValue.map { HurlConversion.text(URL(fileURLWithPath: $0).path, at: written.position) } ?? templateNode(written)
    }
}
