import Foundation

/// A `Digest` challenge read for answering (RFC 7616 section 3.3), and the `Authorization` value
/// that answers it (section 3.4).
struct DigestChallenge: Sendable {
    /// Why a Digest challenge cannot be answered.
    struct Unanswerable: Error {
        /// What is missing or unknown, in words: `algorithm SHA-512`.
        var reason: String
    }

    var realm: String
    var nonce: String
    var opaque: String?
    var algorithm: DigestAlgorithm
    /// The `algorithm` parameter as sent, echoed in the answer; `nil` when absent.
    var algorithmToken: String?
    /// The offered qop values, in lowercase; empty for an RFC 2069 challenge.
    var qopOptions: [String]
    /// Whether the previous answer failed only because its nonce was stale (`stale=true`).
    var isStale: Bool
    /// Whether the server asks for the username hashed (`userhash=true`).
    var hashesUsername: Bool

    /// Reads `challenge`, a Digest one.
    /// - Throws: ``Unanswerable`` for an unknown algorithm, no realm or nonce, or qop options of
    ///   which none is `auth` or `auth-int`.
    init(_ challenge: AuthenticationChallenge) throws(Unanswerable) {
        guard let realm = challenge["realm"] else { throw Unanswerable(reason: "no realm") }
        guard let nonce = challenge["nonce"] else { throw Unanswerable(reason: "no nonce") }
        guard let algorithm = DigestAlgorithm(token: challenge["algorithm"]) else {
            throw Unanswerable(reason: "algorithm \(challenge["algorithm"] ?? "")")
        }
        let qop = (challenge["qop"] ?? "").split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces).asciiLowercased }.filter { !$0.isEmpty }
        if !qop.isEmpty, !qop.contains("auth"), !qop.contains("auth-int") {
            throw Unanswerable(reason: "qop \(challenge["qop"] ?? "")")
        }
        self.realm = realm
        self.nonce = nonce
        self.opaque = challenge["opaque"]
        self.algorithm = algorithm
        self.algorithmToken = challenge["algorithm"]
        self.qopOptions = qop
        self.isStale = challenge["stale"]?.asciiLowercased == "true"
        self.hashesUsername = challenge["userhash"]?.asciiLowercased == "true"
    }

    /// The `Authorization` field value answering this challenge for one request.
    /// - Parameters:
    ///   - method: the request's method.
    ///   - uri: the request target as sent (path and query).
    ///   - body: the body, for `qop=auth-int` (chosen only when `auth` is not offered; see
    ///     ``needsBody``).
    ///   - nonceCount: how many times this nonce has been used, this one included.
    ///   - clientNonce: the `cnonce`.
    func authorization(
        credential: HTTPCredential, method: String, uri: String, body: Data?, nonceCount: Int, clientNonce: String
    ) -> String {
        let hash = algorithm.hash
        let qop: String? =
            if qopOptions.isEmpty { nil }
            else if qopOptions.contains("auth") { "auth" }
            else { "auth-int" }
        let nc = String(format: "%08x", nonceCount)
        var a1 = hash.hex("\(credential.username):\(realm):\(credential.password)")
        if algorithm.isSession { a1 = hash.hex("\(a1):\(nonce):\(clientNonce)") }
        let a2 = qop == "auth-int" ? hash.hex("\(method):\(uri):\(hash.hex(body ?? Data()))") : hash.hex("\(method):\(uri)")
        let response =
            if let qop { hash.hex("\(a1):\(nonce):\(nc):\(clientNonce):\(qop):\(a2)") }
            else { hash.hex("\(a1):\(nonce):\(a2)") }

        var fields: [String] = []
        if hashesUsername {
            fields.append("username=\(quoted(hash.hex("\(credential.username):\(realm)")))")
        } else if let quotedName = quotedIfPossible(credential.username) {
            fields.append("username=\(quotedName)")
        } else {
            fields.append("username*=UTF-8''\(rfc8187Encoded(credential.username))")
        }
        fields.append("realm=\(quoted(realm))")
        fields.append("uri=\(quoted(uri))")
        if let algorithmToken { fields.append("algorithm=\(algorithmToken)") }
        fields.append("nonce=\(quoted(nonce))")
        if let qop {
            fields.append("nc=\(nc)")
            fields.append("cnonce=\(quoted(clientNonce))")
            fields.append("qop=\(qop)")
        }
        fields.append("response=\(quoted(response))")
        if let opaque { fields.append("opaque=\(quoted(opaque))") }
        if hashesUsername { fields.append("userhash=true") }
        return "Digest " + fields.joined(separator: ", ")
    }

    /// Whether the answer hashes the body: the challenge offers `auth-int` and not `auth`.
    var needsBody: Bool {
        !qopOptions.isEmpty && !qopOptions.contains("auth")
    }

    /// A new client nonce: 16 random bytes in hexadecimal.
    static func makeClientNonce() -> String {
        var generator = SystemRandomNumberGenerator()
        return HexText.lowercase((0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    private func quoted(_ value: String) -> String {
        var text = "\""
        for scalar in value.unicodeScalars {
            if scalar == "\"" || scalar == "\\" { text.append("\\") }
            text.unicodeScalars.append(scalar)
        }
        return text + "\""
    }

    /// The username as a quoted string, or `nil` when it has a character a quoted string cannot
    /// carry as ASCII (RFC 7616 section 3.4.4: then `username*`).
    private func quotedIfPossible(_ username: String) -> String? {
        username.utf8.allSatisfy { (0x20...0x7E).contains($0) } ? quoted(username) : nil
    }

    /// RFC 8187's `attr-char`: what an `ext-value` keeps as it is; every other UTF-8 byte is
    /// percent-encoded.
    private static let attributeCharacters = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!#$&+-.^_`|~")

    /// RFC 8187's `ext-value` percent-encoding of UTF-8.
    private func rfc8187Encoded(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: DigestChallenge.attributeCharacters) ?? value
    }
}
