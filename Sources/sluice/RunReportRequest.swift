import Foundation
import Sluice

/// One `--report KIND:PATH` argument: which report, and where it goes.
struct RunReportRequest: Sendable {
    /// The report kinds.
    enum Kind: String, CaseIterable, Sendable {
        case json, tap, junit, html, histogram

        /// Whether a run of this mode can write this report: the load mode writes json, junit and
        /// histogram reports, the other runs all but histogram.
        func fits(loadMode: Bool) -> Bool {
            switch self {
            case .json, .junit: true
            case .tap, .html: !loadMode
            case .histogram: loadMode
            }
        }
    }

    let kind: Kind
    let path: String

    /// Reads `KIND:PATH`; `nil` for an unknown kind or an empty path.
    init?(_ argument: String) {
        guard let colon = argument.firstIndex(of: ":"), let kind = Kind(rawValue: String(argument[..<colon])) else { return nil }
        let path = String(argument[argument.index(after: colon)...])
        guard !path.isEmpty else { return nil }
        self.kind = kind
        self.path = path
    }

    /// Writes the report of a run.
    func write(_ run: RunReport.Run, redactor: Redactor) throws {
        let text: String
        switch kind {
        case .json: text = try JSONWriter(prettyPrinted: true).string(from: RunReport.json(run, redactor: redactor)) + "\n"
        case .tap: text = RunReport.tap(run, redactor: redactor)
        case .junit: text = RunReport.junit(run.suites, redactor: redactor)
        case .html: text = RunReport.html(run, redactor: redactor)
        case .histogram: preconditionFailure("validated: a histogram report comes from the load mode")
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// Writes the report of a load run: one file's result, or several shards' merged.
    func write(_ load: LoadResult, redactor: Redactor, merged: Bool) throws {
        let text: String
        switch kind {
        case .json: text = try JSONWriter(prettyPrinted: true).string(from: load.json(redactor: redactor)) + "\n"
        case .junit: text = load.junit(redactor: redactor, merged: merged)
        case .histogram: text = try JSONWriter(prettyPrinted: true).string(from: load.fileJSON(redactor: redactor)) + "\n"
        case .tap, .html: preconditionFailure("validated: the load mode writes json, junit and histogram reports")
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }
}
