import Foundation
import Testing
@testable import SluiceCore
@testable import SluiceJSONPath
@testable import SluiceCurl
@testable import SluiceReachability
@testable import SluiceStageRegistry
@testable import SluicePipelineFiles
@testable import SluiceRunner
@testable import SluiceLoad

/// ``IRegexp`` against two implementations Sluice did not write, over patterns and texts drawn
/// from RFC 9485's grammar with a fixed seed (the same cases every run): iregexp-check
/// (jg-rp/rust-iregexp) says whether each pattern is I-Regexp, and mrab's `regex` module, given
/// the pattern as RFC 9485 section 5.4 maps it, says whether it matches each text, whole and in
/// part. `scripts/iregexp-reference.py` runs both, from the venv `scripts/setup` makes.
@Suite("I-Regexp against iregexp-check and the regex module")
struct IRegexpReferenceTests {
    /// SplitMix64, so that the cases are the same on every machine and every run.
    struct Generator {
        var state: UInt64

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var mixed = state
            mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
            return mixed ^ (mixed >> 31)
        }

        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

        mutating func pick<T>(_ choices: [T]) -> T { choices[below(choices.count)] }
    }

    /// Characters of every general category I-Regexp names, each with its category (Unicode
    /// data that has not changed since Unicode 6), astral ones included.
    static let alphabet: [(Unicode.Scalar, String)] = [
        ("A", "Lu"), ("Z", "Lu"), ("Ж", "Lu"), ("Ω", "Lu"), ("a", "Ll"), ("z", "Ll"), ("ж", "Ll"), ("ß", "Ll"),
        ("é", "Ll"), ("ǅ", "Lt"), ("ʰ", "Lm"), ("ק", "Lo"), ("中", "Lo"), ("\u{301}", "Mn"), ("\u{903}", "Mc"),
        ("\u{20DD}", "Me"), ("0", "Nd"), ("7", "Nd"), ("٣", "Nd"), ("Ⅻ", "Nl"), ("½", "No"), ("_", "Pc"),
        ("-", "Pd"), ("(", "Ps"), ("[", "Ps"), ("{", "Ps"), (")", "Pe"), ("]", "Pe"), ("}", "Pe"), ("«", "Pi"),
        ("»", "Pf"), ("!", "Po"), (".", "Po"), ("\\", "Po"), ("*", "Po"), ("?", "Po"), ("\u{10101}", "Po"),
        ("+", "Sm"), ("|", "Sm"), ("$", "Sc"), ("€", "Sc"), ("^", "Sk"), ("©", "So"), ("😀", "So"), (" ", "Zs"),
        ("\u{2028}", "Zl"), ("\u{2029}", "Zp"), ("\n", "Cc"), ("\r", "Cc"), ("\t", "Cc"), ("\u{200B}", "Cf"),
        ("\u{E000}", "Co"),
    ]

    static let categories = [
        "L", "Lu", "Ll", "Lt", "Lm", "Lo", "M", "Mn", "Mc", "Me", "N", "Nd", "Nl", "No", "P", "Pc", "Pd", "Ps",
        "Pe", "Pi", "Pf", "Po", "Z", "Zs", "Zl", "Zp", "S", "Sm", "Sc", "Sk", "So", "C", "Cc", "Cf", "Co",
    ]

    /// Ranges for bracket expressions, each from its lower to its upper end.
    static let ranges: [(Unicode.Scalar, Unicode.Scalar)] = [("a", "f"), ("A", "Z"), ("0", "9"), ("à", "ÿ"), ("α", "ω"), ("!", "/"), ("\u{1F600}", "\u{1F64F}")]

    /// Writes patterns and, for each, a text built to match it (when it has no anchors inside).
    struct PatternWriter {
        var random: Generator

        mutating func pattern(depth: Int = 0) -> (String, String) {
            let count = 1 + random.below(depth == 0 ? 3 : 2)
            let branches = (0..<count).map { _ in branch(depth: depth) }
            let chosen = branches[random.below(branches.count)]
            return (branches.map(\.0).joined(separator: "|"), chosen.1)
        }

        private mutating func branch(depth: Int) -> (String, String) {
            var pattern = ""
            var sample = ""
            for _ in 0..<random.below(4) {
                if random.below(20) == 0 {
                    pattern += random.pick(["^", "$"])
                    continue
                }
                let (atom, atomSample) = atom(depth: depth)
                let (quantifier, low, high) = quantifier()
                pattern += atom + quantifier
                for _ in 0..<(low + random.below(high - low + 1)) { sample += atomSample() }
            }
            return (pattern, sample)
        }

        private mutating func quantifier() -> (String, Int, Int) {
            let low = random.below(3)
            let high = low + random.below(3)
            switch random.below(10) {
            case 0: return ("*", 0, 2)
            case 1: return ("+", 1, 2)
            case 2: return ("?", 0, 1)
            case 3: return ("{\(low)}", low, low)
            case 4: return ("{\(low),}", low, low + 1)
            case 5: return ("{\(low),\(high)}", low, high)
            default: return ("", 1, 1)
            }
        }

        private mutating func atom(depth: Int) -> (String, () -> String) {
            switch random.below(depth < 2 ? 7 : 6) {
            case 0, 1:
                let (scalar, _) = random.pick(IRegexpReferenceTests.alphabet)
                return (literal(scalar), { String(scalar) })
            case 2:
                var other = random
                let scalar = pickScalar(&other) { $0 != "\n" && $0 != "\r" }
                return (".", { String(scalar) })
            case 3:
                let name = random.pick(IRegexpReferenceTests.categories)
                let complement = random.below(4) == 0
                let member = IRegexpReferenceTests.alphabet.first { $0.1.hasPrefix(name) }?.0 ?? "a"
                return ((complement ? "\\P{" : "\\p{") + name + "}", { String(member) })
            case 4, 5:
                return bracketExpression()
            default:
                let (inner, sample) = pattern(depth: depth + 1)
                return ("(" + inner + ")", { sample })
            }
        }

        private mutating func pickScalar(_ random: inout Generator, where condition: (Unicode.Scalar) -> Bool) -> Unicode.Scalar {
            let candidates = IRegexpReferenceTests.alphabet.map(\.0).filter(condition)
            return random.pick(candidates)
        }

        /// A literal: escaped when it is special; `$` in brackets, as I-Regexp cannot escape it.
        private func literal(_ scalar: Unicode.Scalar) -> String {
            if scalar == "$" { return "[$]" }
            if "()*+-.?[\\]^{|}".unicodeScalars.contains(scalar) { return "\\" + String(scalar) }
            switch scalar {
            case "\n": return "\\n"
            case "\r": return "\\r"
            case "\t": return "\\t"
            default: return String(scalar)
            }
        }

        private mutating func bracketExpression() -> (String, () -> String) {
            var text = "["
            let negated = random.below(4) == 0
            if negated { text += "^" }
            var members: [Unicode.Scalar] = []
            if random.below(6) == 0 {
                text += "-"
                members.append("-")
            }
            for _ in 0..<(1 + random.below(3)) {
                switch random.below(3) {
                case 0:
                    let (scalar, _) = random.pick(IRegexpReferenceTests.alphabet)
                    text += "-[\\]^".unicodeScalars.contains(scalar) ? "\\" + String(scalar) : literal(scalar) == "[$]" ? "$" : literal(scalar)
                    members.append(scalar)
                case 1:
                    let (lower, upper) = random.pick(IRegexpReferenceTests.ranges)
                    text += String(lower) + "-" + String(upper)
                    members.append(Unicode.Scalar(lower.value + UInt32(random.below(Int(upper.value - lower.value) + 1)))!)
                default:
                    let name = random.pick(IRegexpReferenceTests.categories)
                    text += "\\p{" + name + "}"
                    members.append(IRegexpReferenceTests.alphabet.first { $0.1.hasPrefix(name) }?.0 ?? "a")
                }
            }
            text += "]"
            let member = negated ? "~" : String(random.pick(members))
            return (text, { member })
        }

        mutating func text() -> String {
            var text = ""
            for _ in 0..<random.below(6) { text.unicodeScalars.append(random.pick(IRegexpReferenceTests.alphabet).0) }
            return text
        }
    }

    struct Case: Codable {
        var pattern: String
        var texts: [String]
    }

    struct Verdict: Codable {
        var valid: Bool
        /// For each text; `nil` where the regex module gave up (it backtracks).
        var match: [Bool?]?
        var search: [Bool?]?
    }

    static func cases(count: Int, seed: UInt64) -> [Case] {
        var writer = PatternWriter(random: Generator(state: seed))
        return (0..<count).map { _ in
            let (pattern, sample) = writer.pattern()
            let texts = [sample, writer.text() + sample + writer.text(), writer.text(), writer.text()]
            return Case(pattern: pattern, texts: texts)
        }
    }

    /// The references' verdicts on `cases`.
    static func references(_ cases: [Case]) throws -> [Verdict] {
        let directory = try TemporaryDirectory()
        let input = directory.file("cases.jsonl")
        let encoder = JSONEncoder()
        let lines = try cases.map { String(decoding: try encoder.encode($0), as: UTF8.self) }
        try (lines.joined(separator: "\n") + "\n").write(to: input, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = RunCommandTests.root.appendingPathComponent(".venv/bin/python")
        process.arguments = [RunCommandTests.root.appendingPathComponent("scripts/iregexp-reference.py").path]
        process.standardInput = try FileHandle(forReadingFrom: input)
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "scripts/iregexp-reference.py failed: run scripts/setup")
        let decoder = JSONDecoder()
        return try data.split(separator: UInt8(ascii: "\n")).map { try decoder.decode(Verdict.self, from: Data($0)) }
    }

    @Test("2,000 generated patterns, 8,000 texts: the same grammar verdict and the same matches as the references")
    func generated() throws {
        let cases = Self.cases(count: 2_000, seed: 9_535)
        let verdicts = try Self.references(cases)
        try #require(verdicts.count == cases.count)
        var disagreements: [String] = []
        var matched = 0
        for (test, verdict) in zip(cases, verdicts) {
            let mine: IRegexp
            do {
                mine = try IRegexp(test.pattern)
            } catch {
                disagreements.append("\(test.pattern.debugDescription): refused (\(error)), iregexp-check says \(verdict.valid)")
                continue
            }
            guard verdict.valid else {
                disagreements.append("\(test.pattern.debugDescription): accepted, iregexp-check refuses it")
                continue
            }
            guard let match = verdict.match, let search = verdict.search else {
                disagreements.append("\(test.pattern.debugDescription): the regex module cannot compile it")
                continue
            }
            for (index, text) in test.texts.enumerated() {
                guard let whole = match[index], let part = search[index] else { continue }
                if mine.matches(text) { matched += 1 }
                if mine.matches(text) != whole || mine.isFound(in: text) != part {
                    disagreements.append(
                        "\(test.pattern.debugDescription) on \(text.debugDescription): match \(mine.matches(text)) / \(whole), search \(mine.isFound(in: text)) / \(part)"
                    )
                }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.count) disagreements:\n\(disagreements.prefix(30).joined(separator: "\n"))")
        // The texts built to match do match often enough for the comparison to mean something.
        #expect(matched > 2_000)
    }

    /// Patterns both refuse, and the three places where Sluice is stricter than iregexp-check's
    /// grammar-only verdict, each for a reason.
    static let refused: [(String, Bool)] = [
        ("\\d", false), ("(?:a)", false), ("a*?", false), ("[]", false), ("[a-z-0]", false), ("[--a]", false),
        ("\\p{Cs}", false), ("\\p{IsBasicLatin}", false), ("]", false), ("}", false), ("{", false),
        ("[\\p{L}-z]", false), ("[a-\\p{L}]", false), ("(a", false), ("\\", false),
        // The grammar allows these; Sluice refuses them: a range whose maximum is below its
        // minimum matches nothing (XSD and ECMAScript refuse it too), and `^`/`$` assert the ends
        // of the text (section 5.4's mapping, which the JSONPath suite tests), so repeating one
        // means nothing (ECMAScript refuses it too).
        ("a{2,1}", true), ("^*", true), ("$+", true),
    ]

    @Test("refused patterns: where both refuse, and where Sluice is stricter than the grammar alone", arguments: refused)
    func refusal(pattern: String, grammarAllows: Bool) throws {
        #expect(throws: IRegexp.SyntaxError.self) { try IRegexp(pattern) }
        let verdicts = try Self.references([Case(pattern: pattern, texts: [])])
        #expect(verdicts.first?.valid == grammarAllows)
    }
}
