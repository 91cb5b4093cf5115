import Foundation
extension Request {
    /// The request's trust policy when it governs the request's host (``TrustPolicy/applies(to:)``),
    /// `nil` otherwise: the policy a transport configures the exchange with and checks the
    /// connection against.
    public var governingTrustPolicy: TrustPolicy? {
        guard let policy = trustPolicy else { return nil }
        // A policy for every host needs no host name read (a string each time, asked per exchange).
        guard policy.hosts != nil else { return policy }
        return policy.applies(to: url.host ?? "") ? policy : nil
    }
}

extension TrustPolicy {
    /// The policy's pins checked on a connection, new or reused: against the chain the TLS library
    /// verified for it, never against whatever else the server sent; with
    /// validation off, against the chain linked to the leaf. A pinned host over plain HTTP, or
    /// over a transport that shows no certificates, is refused.
    public func evaluate(_ connection: ConnectionInfo) -> TrustDecision {
        guard pinning != .none else { return .proceed }
        guard connection.scheme == "https" else {
            return .reject(reason: "\(connection.host) is pinned (\(pinning.rawValue)), but the request is plain http")
        }
        guard let peer = connection.peer else {
            return .reject(reason: "the transport does not show the certificate chain of \(connection.host), so its pins cannot be checked")
        }
        guard let chain = PeerChain.pinnable(peer, under: self) else {
            let presented = peer.presentedCertificates().map(\.details).joined(separator: "; ")
            return .reject(reason: "the TLS library verified no certificate chain for \(connection.host), so its pins cannot be checked. The server presented: \(presented).")
        }
        // What the server presented is read again only to word a rejection: every pinned request
        // on a reused connection passes through here.
        let decision = evaluate(chain: chain, host: connection.host)
        guard case .reject = decision else { return decision }
        return evaluate(chain: chain, presented: peer.presentedCertificates(), host: connection.host)
    }
}
