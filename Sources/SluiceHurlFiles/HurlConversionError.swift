/// Why a Hurl file cannot become a pipeline: each construct that has no spelling in a pipeline
/// file, with where the Hurl file wrote it. A file is refused whole, never run without a part
/// its author wrote.
public struct HurlConversionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// One construct that cannot be converted.
    public struct Problem: Sendable, Equatable {
        /// Where the Hurl file wrote it.
        public var position: HurlSourcePosition
        /// What it is and why: "the option `insecure` has no pipeline spelling yet".
        public var message: String

        /// A problem.
        public init(position: HurlSourcePosition, message: String) {
            self.position = position
            self.message = message
        }
    }

    /// Every problem found, in file order.
    public var problems: [Problem]

    /// An error of these problems.
    public init(_ problems: [Problem]) {
        self.problems = problems
    }

    /// Each problem as `LINE:COLUMN: MESSAGE`, one a line.
    public var description: String {
        problems.map { "\($0.position): \($0.message)" }.joined(separator: "\n")
    }
}
