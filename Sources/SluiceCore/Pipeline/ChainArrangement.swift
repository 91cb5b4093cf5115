/// Two stages of a chain that cannot work together: both claim the same thing (see
/// ``Stage/claims``), so the lower one would undo or hide what the upper one did.
package struct StageConflict: Sendable {
    /// The positions of the two stages in the list as given, the first listed first.
    package var first: Int
    package var second: Int
    /// What both claim (`the cache`).
    var claim: String
}

extension Pipeline {
    /// `stages` with `redirects` added unless they hold a ``Redirection`` already; the pipeline
    /// puts it in its place.
    static func addingRedirects(_ redirects: Redirection?, to stages: [any Stage]) -> [any Stage] {
        guard let redirects, !stages.contains(where: { $0 is Redirection }) else { return stages }
        return stages + [redirects]
    }

    /// The stages as they will run: sorted by their types' ``Stage/placement-swift.type.property``
    /// (level, then rank), stages of the same placement in the order given.
    static func arranged(_ stages: [any Stage]) -> [any Stage] {
        arrangement(of: stages).map { stages[$0] }
    }

    /// The positions in `stages` in the order they will run.
    package static func arrangement(of stages: [any Stage]) -> [Int] {
        stages.indices.sorted { (stages[$0].placement, $0) < (stages[$1].placement, $1) }
    }

    /// Every pair of stages that claim the same thing, by their positions in `stages`.
    package static func conflicts(in stages: [any Stage]) -> [StageConflict] {
        var claimedBy: [String: Int] = [:]
        var conflicts: [StageConflict] = []
        for (position, stage) in stages.enumerated() {
            for claim in Set(stage.claims) {
                if let first = claimedBy[claim] {
                    conflicts.append(StageConflict(first: first, second: position, claim: claim))
                } else {
                    claimedBy[claim] = position
                }
            }
        }
        return conflicts
    }

    /// The message for a conflict, naming both stages.
    package static func message(for conflict: StageConflict, in stages: [any Stage], locations: (first: String, second: String)? = nil) -> String {
        let first = stages[conflict.first].name
        let second = stages[conflict.second].name
        let places = locations.map { " (at \($0.first) and at \($0.second))" }
            ?? " (stages \(conflict.first + 1) and \(conflict.second + 1) as listed)"
        let both = first == second ? "two '\(first)' stages" : "'\(first)' and '\(second)'"
        return "\(both) cannot work together\(places): both claim \(conflict.claim), and the lower would undo or hide what the upper did; keep one"
    }
}
