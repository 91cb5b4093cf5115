import Sluice
import SluiceCore
import SluiceJSONPath
import SluiceCurl
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceLoad

/// I-Regexp patterns: the input is a pattern, then a NUL byte, then a text. A pattern is compiled
/// or refused with a position inside it; a compiled one runs over the text within a step budget,
/// a whole-text match is also found as a part, and a group around the pattern changes nothing.
enum IRegexpFuzz {
    /// The step budget of one run: low, so that the fuzzer runs thousands of inputs a second.
    static let maximumSteps = 50_000

    static func run(_ input: [UInt8]) {
        let split = input.firstIndex(of: 0) ?? input.endIndex
        let pattern = String(decoding: input[..<split], as: UTF8.self)
        let text = split < input.endIndex ? String(decoding: input[(split + 1)...], as: UTF8.self) : ""
        let regex: IRegexp
        do {
            regex = try IRegexp(pattern)
        } catch {
            require(error.offset >= 0 && error.offset <= pattern.unicodeScalars.count, "error offset \(error.offset) outside '\(pattern)'")
            return
        }
        guard let whole = run(regex, on: text, entire: true), let part = run(regex, on: text, entire: false) else { return }
        require(!whole || part, "'\(pattern)' matches all of '\(text)' but is not found in it")
        guard let grouped = try? IRegexp("(" + pattern + ")"),
            let groupedWhole = run(grouped, on: text, entire: true), let groupedPart = run(grouped, on: text, entire: false)
        else { return }
        require(groupedWhole == whole && groupedPart == part, "'(\(pattern))' and '\(pattern)' disagree on '\(text)'")
    }

    private static func run(_ regex: IRegexp, on text: String, entire: Bool) -> Bool? {
        var steps = maximumSteps
        return regex.matches(text, entire: entire, steps: &steps)
    }
}
