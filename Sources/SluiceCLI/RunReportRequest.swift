import ArgumentParser
import Foundation
import Sluice
import SluiceReachability
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceLoad

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

    /// Reads `KIND:PATH`; `nil` for an unknown kind or an empty path. `-` is standard output, as
    /// curl's `-o -` and a pipeline's `output: "-"` (`./-` names a file).
    init?(_ argument: String) {
        guard let colon = argument.firstIndex(of: ":"), let kind = Kind(rawValue: String(argument[..<colon])) else { return nil }
        let path = String(argument[argument.index(after: colon)...])
        guard !path.isEmpty else { return nil }
        self.kind = kind
        self.path = path == "-" ? "/dev/stdout" : path
    }

    /// Whether the report goes to standard output.
    var isStandardOutput: Bool {
        ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"].contains(URL(fileURLWithPath: path).standardizedFileURL.path)
    }

    /// Refuses two reports that name one file, which the second would overwrite: the same path,
    /// or two paths of one existing file. A character device (`/dev/null`, a terminal) takes
    /// any number of them.
    /// - Throws: `ValidationError` naming both.
    static func checkDistinct(_ requests: [RunReportRequest]) throws {
        var seen: [(request: RunReportRequest, path: String, node: (dev_t, ino_t)?)] = []
        for request in requests {
            let path = URL(fileURLWithPath: request.path).standardizedFileURL.path
            var status = stat()
            let exists = stat(request.path, &status) == 0
            if exists, status.st_mode & S_IFMT == S_IFCHR { continue }
            let node = exists ? (status.st_dev, status.st_ino) : nil
            if let other = seen.first(where: { $0.path.utf8.elementsEqual(path.utf8) || ($0.node != nil && node != nil && $0.node! == node!) }) {
                throw ValidationError("--report \(other.request.kind.rawValue):\(other.request.path) and --report \(request.kind.rawValue):\(request.path) name the same file: give each report its own")
            }
            seen.append((request, path, node))
        }
    }

    /// Writes each report with `write`, on its own: one that cannot be written is said on
    /// standard error and keeps no other from being written.
    /// - Returns: whether every report was written.
    static func writeEach(_ reports: [(request: RunReportRequest, file: OutputFile)], _ write: (RunReportRequest, OutputFile) throws -> Void) -> Bool {
        var written = true
        for (request, file) in reports {
            do {
                try write(request, file)
            } catch {
                Terminal.writeError("sluice: error: \(Terminal.printable((error as? SluiceError)?.message ?? "\(error)"))\n")
                written = false
            }
        }
        return written
    }

    /// Opens the report's file before the run, so that a path that cannot be used (a directory,
    /// a missing folder, no permission) is said before any request is sent. It is an
    /// ``OutputFile``: a regular file changes only once the whole report is written, keeping its
    /// inode, links and mode; a device, a FIFO or `/dev/stdout` takes the report as it is.
    /// - Throws: `ValidationError` saying why.
    func open() throws -> OutputFile {
        do {
            return try OutputFile(path: path, role: "the \(kind.rawValue) report", stage: "report")
        } catch {
            throw ValidationError(error.message)
        }
    }

    /// Writes the report of a run to its file.
    func write(_ run: RunReport.Run, redactor: Redactor, to file: OutputFile) throws {
        let text: String
        switch kind {
        case .json: text = try JSONWriter(prettyPrinted: true).string(from: RunReport.json(run, redactor: redactor)) + "\n"
        case .tap: text = RunReport.tap(run, redactor: redactor)
        case .junit: text = RunReport.junit(run.suites, redactor: redactor)
        case .html: text = RunReport.html(run, redactor: redactor)
        case .histogram: preconditionFailure("validated: a histogram report comes from the load mode")
        }
        try finish(file, with: text)
    }

    /// Writes the report of a load run to its file: one file's result, or several shards' merged.
    func write(_ load: LoadResult, redactor: Redactor, merged: Bool, to file: OutputFile) throws {
        let text: String
        switch kind {
        case .json: text = try JSONWriter(prettyPrinted: true).string(from: load.json(redactor: redactor)) + "\n"
        case .junit: text = load.junit(redactor: redactor, merged: merged)
        case .histogram: text = try JSONWriter(prettyPrinted: true).string(from: load.fileJSON(redactor: redactor)) + "\n"
        case .tap, .html: preconditionFailure("validated: the load mode writes json, junit and histogram reports")
        }
        try finish(file, with: text)
    }

    private func finish(_ file: OutputFile, with text: String) throws(SluiceError) {
        try file.write(Data(text.utf8))
        try file.commit()
    }
}
