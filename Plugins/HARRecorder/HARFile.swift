import Foundation
import Sluice

/// A HAR 1.2 file being written, entry by entry, always a complete document on disk.
///
/// The file is created with an empty log when the stage is made. Each entry is written over the
/// document's closing brackets, which are written again after it, so a reader (or a crash)
/// between two requests finds a valid HAR file, and adding an entry costs the same however many
/// came before.
final class HARFile: @unchecked Sendable {
    /// What follows the last entry.
    private static let trailer = Data("\n]}}\n".utf8)

    let path: String
    private let lock = NSLock()
    private let handle: FileHandle
    private var entries = 0

    /// Creates (or empties) the file and writes an empty log: one page, no entries.
    /// - Throws: `.configuration` when the file cannot be created.
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
        guard let head = try? JSONWriter().string(from: log),
            FileManager.default.createFile(atPath: path, contents: Data(("{\"log\":" + head.dropLast() + ",\"entries\":[").utf8) + HARFile.trailer),
            let handle = FileHandle(forUpdatingAtPath: path)
        else {
            throw SluiceError(kind: .configuration, stage: "har-recorder", message: "cannot create the HAR file \(path): \(String(cString: strerror(errno)))")
        }
        self.handle = handle
    }

    deinit {
        try? handle.close()
    }

    /// Adds an entry.
    /// - Throws: `.fileIO` when the file cannot be written.
    func append(_ entry: JSONValue) throws(SluiceError) {
        do {
            let text = try JSONWriter().string(from: entry)
            try lock.withLock {
                let end = try handle.seekToEnd()
                try handle.seek(toOffset: end - UInt64(HARFile.trailer.count))
                try handle.write(contentsOf: Data(((entries == 0 ? "\n" : ",\n") + text).utf8) + HARFile.trailer)
                entries += 1
            }
        } catch {
            throw SluiceError(kind: .fileIO, stage: "har-recorder", message: "cannot write the HAR file \(path): \(error)")
        }
    }

    /// A time as HAR writes it: ISO 8601 with milliseconds, in UTC (`2026-11-21T10:15:30.123Z`).
    static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
    }
}
