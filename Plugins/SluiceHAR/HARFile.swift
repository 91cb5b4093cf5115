import Foundation
import SluiceCore
import SluiceStageRegistry

/// A HAR 1.2 file being written, entry by entry.
///
/// It is an `OutputFile` written as curl's `-o` writes (`OutputFile/Replacement/asWritten`):
/// a symbolic link is followed, an existing file is written in place (its inode, links and mode
/// kept), a device or a FIFO (`/dev/null`, `/dev/stdout`, a named pipe) is written through and
/// never replaced.
///
/// A regular file is always a complete document on disk: it starts as an empty log, and each entry
/// is written over the document's closing brackets, which are written again after it, so a reader
/// (or a crash) between two requests finds a valid HAR file, and adding an entry costs the same
/// however many came before. A device or a FIFO cannot be rewritten: it gets the log's opening,
/// then each entry as it is recorded, then the closing brackets when the recorder goes.
final class HARFile: @unchecked Sendable {
    /// What follows the last entry.
    private static let trailer = Data("\n]}}\n".utf8)

    let path: String
    private let lock = NSLock()
    private let file: OutputFile
    /// The bytes in a regular file, trailer included.
    private var size: Int64
    private var entries = 0

    /// Opens the file and writes an empty log: one page, no entries.
    /// - Throws: `.configuration` when the file cannot be opened or written.
    init(path: String, started: Date) throws(SluiceError) {
        self.path = path
        let page: JSONValue = [
            "startedDateTime": .string(HARFile.timestamp(started)), "id": "page_1", "title": "sluice",
            "pageTimings": ["onContentLoad": -1, "onLoad": -1],
        ]
        let log: JSONValue = [
            "version": "1.2",
            "creator": ["name": "sluice", "version": .string(SluiceVersion.current)],
            "pages": [page],
        ]
        do throws(SluiceError) {
            let head = try? JSONWriter().string(from: log)
            file = try OutputFile(path: path, replacement: .asWritten, role: "the HAR file", stage: "har-recorder")
            var opening = Data(("{\"log\":" + (head ?? "{}").dropLast() + ",\"entries\":[").utf8)
            if !file.isSpecial { opening += HARFile.trailer }
            try file.write(opening)
            size = Int64(opening.count)
        } catch {
            throw SluiceError(kind: .configuration, stage: "har-recorder", message: error.message)
        }
    }

    deinit {
        if file.isSpecial { try? file.write(HARFile.trailer) }
        try? file.commit()
    }

    /// Adds an entry.
    /// - Throws: `.fileIO` when the file cannot be written.
    func append(_ entry: JSONValue) throws(SluiceError) {
        let text: String
        do {
            text = try JSONWriter().string(from: entry)
        } catch {
            throw SluiceError(kind: .fileIO, stage: "har-recorder", message: "cannot write the HAR file \(path): \(error)")
        }
        lock.lock()
        defer { lock.unlock() }
        let record = Data(((entries == 0 ? "\n" : ",\n") + text).utf8)
        if file.isSpecial {
            try file.write(record)
        } else {
            let end = size - Int64(HARFile.trailer.count)
            try file.write(record + HARFile.trailer, at: end)
            size = end + Int64(record.count + HARFile.trailer.count)
        }
        entries += 1
    }

    /// A time as HAR writes it: ISO 8601 with milliseconds, in UTC (`2026-11-21T10:15:30.123Z`).
    static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
    }
}
