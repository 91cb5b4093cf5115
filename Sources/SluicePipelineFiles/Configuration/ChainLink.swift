import SluiceCore
import Foundation

/// One stage of a pipeline file's chain as it will run, for `sluice validate --verbose`,
/// `sluice run --verbose` and the HTML report.
public struct ChainLink: Sendable, Hashable {
    /// The stage's name (`cache`).
    public var name: String
    /// Its level and rank.
    public var placement: StagePlacement
    /// Where the file lists it (`FILE:LINE:COLUMN`), or why it is there when no file does
    /// (`added: every pipeline follows redirects`).
    public var origin: String

    /// Where the stage comes from, as a message names it: its `FILE:LINE:COLUMN`, or `the stage
    /// the run adds because ...` for one no file lists.
    public var place: String {
        origin.hasPrefix(ChainLink.addedPrefix) ? "the stage the run adds because " + origin.dropFirst(ChainLink.addedPrefix.count) : origin
    }

    /// What begins the ``origin`` of a stage the run adds.
    static let addedPrefix = "added: "

    /// Creates a link.
    public init(name: String, placement: StagePlacement, origin: String) {
        self.name = name
        self.placement = placement
        self.origin = origin
    }

    /// The chain as lines of text, top to bottom, each indented by `indent`:
    /// `call 100  url-resolution     pipelines/a.yaml:5:5`.
    public static func lines(_ chain: [ChainLink], indent: String = "  ") -> String {
        let width = chain.map(\.name.count).max() ?? 0
        return chain.map { link in
            let placement = link.placement.description.padding(toLength: 9, withPad: " ", startingAt: 0)
            return indent + placement + "  " + link.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + link.origin + "\n"
        }.joined()
    }
}
