import Sluice
import SluiceCore
import SluiceCurl
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceLoad

/// `when:` and `skip:` conditions from a hostile file: parsed or refused, never a crash; a parsed
/// one evaluates over any values, and its negation and its conjunction with itself, parsed from
/// text, agree with it (so parentheses and precedence hold whatever is inside them).
enum ConditionFuzz {
    static let samples = ["", "0", "10", "9.5", "-1e3", "a", "e\u{301}", "\u{E9}", "'", "true"]

    static func run(_ input: [UInt8]) {
        let text = String(decoding: input, as: UTF8.self)
        let mark = YAMLNode.Mark(line: 1, column: 1)
        guard let condition = try? RunCondition(.when, parsing: text, mark: mark) else { return }
        var values: [String: String] = [:]
        for (index, name) in condition.variables.enumerated() {
            // Some names have no value, to reach the comparisons with a missing side.
            let choice = Int(input[index % input.count]) % (samples.count + 1)
            if choice < samples.count { values[name] = samples[choice] }
        }
        let environment = ["CI": "1"]
        let holds = condition.holds(variables: values, environment: environment)
        guard let negated = try? RunCondition(.when, parsing: "not (\(text))", mark: mark),
            let doubled = try? RunCondition(.when, parsing: "(\(text)) and (\(text))", mark: mark)
        else {
            preconditionFailure("'\(text)' parses, but not inside parentheses")
        }
        require(negated.holds(variables: values, environment: environment) == !holds, "not (\(text)) is not the negation")
        require(doubled.holds(variables: values, environment: environment) == holds, "(\(text)) and (\(text)) differs from \(text)")
        let skip = try? RunCondition(.skip, parsing: text, mark: mark)
        require(skip?.allowsRun(variables: values, environment: environment) == !holds, "skip: \(text) does not skip when it holds")
    }
}
