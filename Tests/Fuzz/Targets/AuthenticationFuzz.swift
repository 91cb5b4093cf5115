import Foundation
@testable import SluiceCore

/// `WWW-Authenticate` fields from a hostile server, and `.netrc` files of any bytes. The first
/// line of the input is a field value: whatever it holds, every challenge read has a scheme that
/// is a token, and the `Authorization` value answering any Digest challenge in it never carries
/// CR, LF or NUL (which would let a server's realm or nonce write header fields) and always
/// quotes what it echoes. The rest of the input is a `.netrc` file: read or refused with a
/// line, and a credential it gives is one entry's login and password.
enum AuthenticationFuzz {
    private static let credential = HTTPCredential(username: "us\"er", password: "p\\w")

    static func run(_ input: [UInt8]) {
        let text = String(decoding: input, as: UTF8.self)
        let firstLine = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        let field = firstLine.filter { $0 != "\r" && $0 != "\0" }
        for challenge in AuthenticationChallenge.parse(field) {
            require(!challenge.scheme.isEmpty && !challenge.scheme.utf8.contains { $0 <= 0x20 || $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "=") },
                    "a scheme that is no token: \(challenge.scheme.debugDescription)")
            guard challenge.isScheme("Digest"), let digest = try? DigestChallenge(challenge) else { continue }
            let answer = digest.authorization(credential: credential, method: "GET", uri: "/a?b", body: Data(), nonceCount: 1, clientNonce: "c")
            require(!answer.utf8.contains { $0 == 13 || $0 == 10 || $0 == 0 }, "CR, LF or NUL in \(answer.debugDescription)")
            require(digest.hashesUsername || answer.hasPrefix("Digest username=\"us\\\"er\""), "the username not quoted: \(answer.debugDescription)")
        }
        let netrcText = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).dropFirst().first.map(String.init) ?? ""
        guard let netrc = try? NetrcFile(text: netrcText) else { return }
        for entry in netrc.entries {
            guard let host = entry.machine, let found = netrc.credential(for: host) else { continue }
            require(netrc.entries.contains { $0.login == found.username && $0.password == found.password },
                    "\(host)'s credential pairs a login and a password of different entries")
        }
    }
}
