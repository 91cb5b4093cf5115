import Foundation
import SluiceHurlFiles
import Testing

/// Parses every `.hurl` file of Hurl's own integration suite, vendored at
/// `Tests/Fixtures/hurl/tests_ok` (cases Hurl runs successfully): each must parse.
@Suite("Hurl's integration suite parses")
struct HurlSuiteTests {
    static let suiteDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/hurl/tests_ok", isDirectory: true)

    static func hurlFiles(under directory: URL) -> [URL] {
        guard let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else { return [] }
        return enumerator.compactMap { $0 as? URL }.filter { $0.pathExtension == "hurl" }.sorted { $0.path < $1.path }
    }

    @Test("every vendored .hurl file parses")
    func everySuiteFileParses() throws {
        let directory = Self.suiteDirectory
        let files = Self.hurlFiles(under: directory)
        #expect(files.count >= 100, "the vendored suite was not found under \(directory.path)")
        var failures: [String] = []
        for file in files {
            let text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
            do {
                _ = try HurlFile.parse(text)
            } catch {
                failures.append("\(file.path.dropFirst(directory.path.count + 1)):\(error.line):\(error.column): \(error.message)")
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }
}
