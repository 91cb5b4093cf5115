import Foundation
import SluiceStageRegistry

/// What an entry's `user`, `digest` and `netrc-file` options say (and Hurl's `--digest`,
/// `--netrc-file` for every entry), put together once all of them are read.
struct HurlEntryCredential {
    /// `user: NAME:PASSWORD`.
    var user: HurlTemplate?
    /// `digest: true`.
    var digest = false
    /// `netrc-file: FILE`.
    var netrcFile: HurlTemplate?
    /// `aws-sigv4: aws:amz:REGION:SERVICE`, which makes `user` the access key and secret.
    var awsSigV4: HurlTemplate?
    /// Where the first of them is written.
    var position: HurlSourcePosition?
}

extension HurlConversion {
    /// The entry's `credential:`, or an `Authorization: Basic` header for literal credentials
    /// without Digest (curl's `-u` sends Basic at once); `nil` when it has none. What the entry
    /// does not say, the command line (`--digest -u`, `--netrc-file`) does.
    mutating func credential(_ written: HurlEntryCredential, headers: inout [(String, YAMLNode)], at position: HurlSourcePosition) -> YAMLNode? {
        let at = written.position ?? position
        let digest = written.digest || defaults.digest
        let schemes = HurlConversion.text(digest ? "digest" : "basic", at: at)
        if written.user != nil, written.netrcFile != nil {
            refuse(at, "user and netrc-file together: the entry sends one credential")
            return nil
        }
        if let netrcFile = written.netrcFile {
            // Hurl hands the path to libcurl, which opens it from the working folder.
            let path = netrcFile.literalValue.map { HurlConversion.text(URL(fileURLWithPath: $0).path, at: netrcFile.position) } ?? templateNode(netrcFile)
            return HurlConversion.mapping([("netrc-file", path), ("schemes", schemes)], at: at)
        }
        if let user = written.user {
            if !digest, let literal = user.literalValue {
                guard !headers.contains(where: { $0.0.lowercased() == "authorization" }) else {
                    refuse(at, "user and an Authorization header together: the request sends one")
                    return nil
                }
                headers.append(("Authorization", HurlConversion.text("Basic " + Data(literal.utf8).base64EncodedString(), at: at)))
                return nil
            }
            guard let (username, password) = HurlConversion.split(user) else {
                refuse(at, "user takes NAME:PASSWORD, the colon written out (not from a {{...}})")
                return nil
            }
            return HurlConversion.mapping([("username", templateNode(username)), ("password", templateNode(password)), ("schemes", schemes)], at: at)
        }
        if let (username, password) = defaults.user.flatMap(HurlConversion.splitText), digest {
            return HurlConversion.mapping([("username", HurlConversion.text(username, at: at)), ("password", HurlConversion.text(password, at: at)), ("schemes", schemes)], at: at)
        }
        if let netrcFile = defaults.netrcFile {
            return HurlConversion.mapping([("netrc-file", HurlConversion.text(netrcFile, at: at)), ("schemes", schemes)], at: at)
        }
        if written.digest { refuse(at, "digest without user: there is no credential to answer with") }
        return nil
    }

    /// The entry's `aws-sigv4` option as a stage of its own: the `aws-sigv4` stage with `user`'s
    /// `KEY:SECRET` as its keys, as curl's `--aws-sigv4` reads `-u`; `nil` (refused) when it
    /// cannot be one.
    mutating func awsSigV4Stage(_ written: HurlEntryCredential, at position: HurlSourcePosition) -> YAMLNode? {
        guard let provider = written.awsSigV4 else { return nil }
        let at = provider.position
        guard let text = provider.literalValue else {
            refuse(at, "aws-sigv4 with {{...}}: its provider, region and service are read when converting")
            return nil
        }
        // curl's provider1[:provider2[:region[:service]]]; the stage signs AWS4-HMAC-SHA256.
        let fields = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 4, fields[0].lowercased() == "aws", fields[1].lowercased() == "amz", !fields[2].isEmpty, !fields[3].isEmpty else {
            refuse(at, "aws-sigv4 takes aws:amz:REGION:SERVICE (the aws-sigv4 stage signs AWS4-HMAC-SHA256 and needs the region and service written)")
            return nil
        }
        guard let user = written.user, let (key, secret) = HurlConversion.split(user) else {
            refuse(at, "aws-sigv4 needs the user option, ACCESS_KEY_ID:SECRET_ACCESS_KEY, the colon written out")
            return nil
        }
        let options = HurlConversion.mapping([
            ("access-key-id", templateNode(key)), ("secret-access-key", templateNode(secret)),
            ("region", HurlConversion.text(fields[2], at: at)), ("service", HurlConversion.text(fields[3], at: at)),
        ], at: at)
        return HurlConversion.mapping([("aws-sigv4", options)], at: at)
    }

    /// `NAME:PASSWORD` split at its first colon written out, as Hurl splits the text it renders.
    static func split(_ user: HurlTemplate) -> (HurlTemplate, HurlTemplate)? {
        for (index, part) in user.parts.enumerated() {
            guard case .literal(let literal) = part, let colon = literal.value.firstIndex(of: ":") else { continue }
            let before = String(literal.value[..<colon]), after = String(literal.value[literal.value.index(after: colon)...])
            let head = Array(user.parts[..<index]) + (before.isEmpty ? [] : [.literal(HurlTemplateLiteral(position: literal.position, value: before, source: before))])
            let tail = (after.isEmpty ? [] : [.literal(HurlTemplateLiteral(position: literal.position, value: after, source: after))]) + Array(user.parts[(index + 1)...])
            return (HurlTemplate(position: user.position, parts: head), HurlTemplate(position: literal.position, parts: tail))
        }
        return nil
    }

    /// `NAME:PASSWORD` as written on the command line, split at its first colon.
    static func splitText(_ user: String) -> (String, String)? {
        guard let colon = user.firstIndex(of: ":") else { return nil }
        return (String(user[..<colon]), String(user[user.index(after: colon)...]))
    }
}
