import Foundation
import Testing
@testable import SluiceCore

/// With validation off, pins match only the leaf and the certificates linked to it, each issued by
/// the next (issuer name and signature), as OkHttp's chain cleaner links them after CVE-2016-2402.
/// The certificates are made by the openssl CLI for each run: a root, an intermediate it signed, a
/// leaf the intermediate signed, and an impostor root with the genuine root's name but its own key.
@Suite("Linking a chain to its leaf by issuer name and signature")
struct PeerChainTests {
    struct Certificates {
        let root: X509Certificate
        let intermediate: X509Certificate
        let leaf: X509Certificate
        let impostorRoot: X509Certificate
        let stranger: X509Certificate
    }

    /// Makes the certificates with openssl in a temporary folder.
    static func make() throws -> Certificates {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sluice-chain-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func openssl(_ arguments: String) throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "openssl " + arguments + " 2>/dev/null"]
            process.currentDirectoryURL = directory
            try process.run()
            process.waitUntilExit()
            try #require(process.terminationStatus == 0, "openssl \(arguments)")
        }
        let ca = "-addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign"
        for name in ["root", "impostor", "stranger"] {
            let subject = name == "stranger" ? "Stranger CA" : "Chain Test Root"
            try openssl("req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 30 -subj '/CN=\(subject)' -keyout \(name).key -out \(name).pem \(ca)")
        }
        try openssl("req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj '/CN=Chain Test Intermediate' -keyout intermediate.key -out intermediate.csr")
        try "basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign\n".write(to: directory.appendingPathComponent("ca.ext"), atomically: true, encoding: .utf8)
        try openssl("x509 -req -in intermediate.csr -CA root.pem -CAkey root.key -CAcreateserial -days 30 -extfile ca.ext -out intermediate.pem")
        try openssl("req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj '/CN=chain.example' -keyout leaf.key -out leaf.csr")
        try openssl("x509 -req -in leaf.csr -CA intermediate.pem -CAkey intermediate.key -CAcreateserial -days 30 -out leaf.pem")
        func read(_ name: String) throws -> X509Certificate {
            try X509Certificate.certificates(in: Data(contentsOf: directory.appendingPathComponent(name + ".pem")))[0]
        }
        return Certificates(
            root: try read("root"), intermediate: try read("intermediate"), leaf: try read("leaf"),
            impostorRoot: try read("impostor"), stranger: try read("stranger")
        )
    }

    @Test("the leaf links to its intermediate and root in whatever order they were sent; strays stay out")
    func linksInAnyOrder() throws {
        let c = try Self.make()
        #expect(c.leaf.isIssued(by: c.intermediate) && c.intermediate.isIssued(by: c.root) && c.root.isIssued(by: c.root))
        for candidates in [[c.intermediate, c.root], [c.root, c.intermediate], [c.stranger, c.root, c.leaf, c.intermediate]] {
            #expect(PeerChain.linked(from: c.leaf, candidates: candidates) == [c.leaf, c.intermediate, c.root])
        }
        #expect(PeerChain.linked(from: c.leaf, candidates: [c.root, c.stranger]) == [c.leaf], "no intermediate, no link to the root")
    }

    @Test("a certificate with the issuer's name but another key is not linked: the signature decides")
    func impostorWithTheRightName() throws {
        let c = try Self.make()
        #expect(c.impostorRoot.subject == c.root.subject)
        #expect(!c.intermediate.isIssued(by: c.impostorRoot))
        #expect(PeerChain.linked(from: c.leaf, candidates: [c.intermediate, c.impostorRoot]) == [c.leaf, c.intermediate])
        #expect(PeerChain.linked(from: c.leaf, candidates: [c.intermediate, c.impostorRoot, c.root]) == [c.leaf, c.intermediate, c.root])
    }

    @Test("a pin of a stray certificate fails with validation off; a pin in the linked chain passes")
    func pinsOnTheLinkedChain() throws {
        let c = try Self.make()
        let policy = { (pinned: X509Certificate) in
            try TrustPolicy(pinning: .publicKey, pins: [.publicKeySHA256(pinned.publicKeySHA256)], allowsInvalidCertificates: true, validatesDomainName: false)
        }
        let linked = PeerChain.linked(from: c.leaf, candidates: [c.intermediate, c.stranger])
        #expect(try policy(c.intermediate).evaluate(chain: linked, host: "chain.example") == .proceed)
        #expect(try policy(c.stranger).evaluate(chain: linked, presented: [c.leaf, c.intermediate, c.stranger], host: "chain.example") != .proceed)
    }
}
