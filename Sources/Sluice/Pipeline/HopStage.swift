/// A stage that must see every redirect hop, not only the first request and the last response:
/// a ``Pipeline`` puts its default ``Redirection`` above the first such stage rather than at the
/// bottom of the chain. ``CookieHandling`` is one: each hop stores and sends its own cookies.
public protocol HopStage: Stage {}

extension Pipeline {
    /// `stages` with `redirects` added, unless they hold a ``Redirection`` already: above the
    /// first ``HopStage``, or at the bottom.
    static func addingRedirects(_ redirects: Redirection?, to stages: [any Stage]) -> [any Stage] {
        guard let redirects, !stages.contains(where: { $0 is Redirection }) else { return stages }
        var stages = stages
        stages.insert(redirects, at: stages.firstIndex { $0 is any HopStage } ?? stages.endIndex)
        return stages
    }
}
