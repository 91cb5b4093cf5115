import ArgumentParser
import Foundation
import Sluice
import SluiceReachability
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceLoad

/// `sluice report merge FILE...`: combines the load result files of a sharded run into one result.
struct ReportMergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Combines the shards' load result files (--report histogram:PATH) into one summary.",
        discussion: """
            Counts, errors by kind and statuses are added; the latency histograms are merged, so every percentile is computed from all shards' counts together, never averaged; the window runs from the earliest start to the latest end, and the achieved rate is the requests over that window.

            The files must be shards of one run: the same pipeline, loop, rate, concurrency and number of shards, each shard once. A file may itself be a merge.

            Exit status: 0 when every request passed, none was dropped, no shard was stopped early and every shard is there; 1 otherwise; 2 when a file cannot be read or the files are not shards of one run; 23 when standard output or a --report file cannot be written.

            Example: sluice report merge results/shard-*.json --report junit:load.xml
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Argument(help: ArgumentHelp("The load result files.", valueName: "FILE"))
    var files: [String]

    @Option(help: "Output format.")
    var format: Format = .text

    @Option(help: ArgumentHelp("Also write the merged result: json:PATH, junit:PATH or histogram:PATH (repeatable).", valueName: "KIND:PATH"))
    var report: [String] = []

    @Flag(help: "Exit 0 even when shards are missing (their absence is still reported).")
    var allowMissing = false

    @Flag(help: "No colour, even on a terminal (NO_COLOR is honoured too).")
    var noColor = false

    func validate() throws {
        if files.isEmpty { throw ValidationError("give the load result files to merge") }
        _ = try reports()
    }

    /// The `--report` arguments, checked.
    func reports() throws -> [RunReportRequest] {
        let requests = try report.map { argument in
            guard let request = RunReportRequest(argument), request.kind.fits(loadMode: true) else {
                throw ValidationError("--report takes json:PATH, junit:PATH or histogram:PATH, not '\(argument)'")
            }
            return request
        }
        try RunReportRequest.checkDistinct(requests)
        return requests
    }

    func run() throws {
        let reportFiles = try reports().map { ($0, try $0.open()) }
        var results: [(name: String, result: LoadResult)] = []
        let merged: LoadResult
        do {
            for path in files {
                let data = try InputFile.data(at: path, role: "the load result file")
                results.append((path, try LoadResult(file: data, path: path)))
            }
            merged = try LoadResult.merged(results)
        } catch {
            Terminal.writeError("sluice: error: \(Terminal.printable((error as? SluiceError)?.message ?? "\(error)"))\n")
            throw ExitCode(2)
        }
        // Shards that ran one after another never loaded the server together: their rate is
        // not the run's, which the merged figures would seem to say.
        if let apart = LoadResult.firstGap(between: results.map(\.result)) {
            Terminal.writeError(
                "sluice: warning: the shards did not run at the same time (one started \(FixedPointText.string(apart, fractionDigits: 1)) s after another ended): their figures add up, but the load never reached the run's rate; start them together with --start-at\n"
            )
        }
        // First errors were redacted by the runs that wrote them.
        let redactor = Redactor(secrets: [])
        if format == .json {
            Terminal.write((try JSONWriter(prettyPrinted: true).string(from: merged.json(redactor: redactor))) + "\n")
        } else {
            Terminal.write(LoadTextReport(terminal: Terminal(noColor: noColor), redactor: redactor).text(merged, merged: true))
        }
        let written = RunReportRequest.writeEach(reportFiles) { request, file in try request.write(merged, redactor: redactor, merged: true, to: file) }
        if merged.errors > 0 || merged.dropped > 0 || merged.stoppedBy != nil || (!allowMissing && !merged.missingShards.isEmpty) { throw ExitCode(1) }
        // curl's status for output it could not write, as for standard output (SluiceCommand).
        if !written { throw ExitCode(23) }
    }
}
