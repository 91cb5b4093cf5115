import Foundation
import SluiceFuzzTargets
import Testing

/// Every committed fuzz input, seeds and past crashes alike, through its target in every test run:
/// a crash that `scripts/fuzz` found once stays fixed. The targets check their properties with
/// `preconditionFailure`, so a regression stops this test process, naming the input's property.
@Suite("Fuzz corpus: seeds and every input that once crashed, replayed")
struct FuzzCorpusTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz")

    /// The inputs of one target under `folder` (Corpus or Regressions).
    static func inputs(_ target: FuzzTarget, in folder: String) -> [URL] {
        let directory = root.appendingPathComponent(folder).appendingPathComponent(target.rawValue)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.sorted().map { directory.appendingPathComponent($0) }
    }

    @Test("every target has seeds, and each seed and regression runs through it", arguments: FuzzTarget.allCases)
    func replay(target: FuzzTarget) throws {
        let seeds = Self.inputs(target, in: "Corpus")
        #expect(!seeds.isEmpty, "no seeds in Tests/Fuzz/Corpus/\(target.rawValue)")
        for input in seeds + Self.inputs(target, in: "Regressions") {
            target.run(Array(try Data(contentsOf: input)))
        }
    }
}
