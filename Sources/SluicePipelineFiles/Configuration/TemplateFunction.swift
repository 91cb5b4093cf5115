import Foundation
import SluiceCore
import SluiceStageRegistry

/// A function a pipeline string calls inside `${...}`, computed each time the string is filled in
/// (so each request, and each attempt of a `retry`, gets a fresh `${uuid}`; a value computed once
/// for the whole run is a variable: `variables: {run-id: "${uuid}"}`).
///
/// | Call | Gives |
/// |---|---|
/// | `${uuid}` | a random UUID (version 4), lower case: `3f0c…-…` |
/// | `${now}`, `${now(-1h)}` | the time in ISO 8601, UTC, to the second: `2026-11-23T04:50:00Z`; an offset (`+30m`, `-1h`, `+2d`, or any duration) moves it |
/// | `${timestamp}`, `${timestamp(+1h)}` | the time as Unix seconds; the same offsets |
/// | `${random-int(1, 6)}` | a whole number from the first to the second, both included |
/// | `${random-bool()}` | `true` or `false` |
/// | `${random-string(32)}` | that many letters and digits (`A-Z a-z 0-9`), from 1 to 65,536 |
/// | `${random-first-name()}`, `${random-last-name()}`, `${random-full-name()}` | a name of the 1990 US Census's most frequent (public domain): `Mary`, `Smith`, `Mary Smith` |
/// | `${random-email()}` | `first.last.NNNN@example.com`, lower case, in the domain RFC 2606 reserves for examples |
/// | `${random-word()}` | a word of lower-case letters from the system's word list, `/usr/share/dict/words` (Debian's `wamerican`); a file that uses it is refused where that list is missing |
/// | `${base64(NAME)}` | the UTF-8 bytes of a value in base64 (RFC 4648 section 4, padded) |
/// | `${base64url(NAME)}` | the same in base64url (section 5), unpadded, as JWTs write it |
/// | `${urlencode(NAME)}` | the value percent-encoded for any part of a URL: all but `A-Z a-z 0-9 - . _ ~` |
/// | `${text(NAME)}` | the value's text: a captured number `2` as the string `"2"`, where `${NAME}` alone would stand for the number (to compare with what a server echoed as text) |
///
/// An argument that names a value is a variable (`user`), `env.NAME`, text in single quotes
/// (`'a b'`), or a call of a function (`${urlencode(random-full-name())}`). A function with arguments is known by its parentheses, so a variable may still be
/// called `base64`; the three written bare are reserved: no variable or capture may be called
/// `uuid`, `now` or `timestamp`.
public struct TemplateFunction: Sendable, Hashable, CustomStringConvertible {
    /// The functions.
    public enum Name: String, Sendable, Hashable, CaseIterable {
        case uuid, now, timestamp
        case randomInt = "random-int"
        case randomBool = "random-bool"
        case randomString = "random-string"
        case randomFirstName = "random-first-name"
        case randomLastName = "random-last-name"
        case randomFullName = "random-full-name"
        case randomEmail = "random-email"
        case randomWord = "random-word"
        case base64, base64url
        case urlencode
        case text
    }

    /// An argument.
    public enum Argument: Sendable, Hashable {
        /// A variable's value.
        case variable(String)
        /// An environment variable's value.
        case environment(String)
        /// Text as written.
        case literal(String)
        /// Another function's result.
        indirect case call(TemplateFunction)
    }

    /// The function.
    public var name: Name
    /// The arguments, in order.
    public var arguments: [Argument]

    /// The functions written without parentheses, whose names no variable may take.
    public static let bareNames: Set<String> = [Name.uuid.rawValue, Name.now.rawValue, Name.timestamp.rawValue]

    /// Whether a `${...}`'s content calls a function rather than naming a variable.
    static func isCall(_ content: String) -> Bool {
        content.utf8.contains(UInt8(ascii: "(")) || bareNames.contains(content)
    }

    /// Parses the content of a `${...}` that ``isCall(_:)``.
    /// - Throws: a message saying what is wrong.
    init(parsing content: String) throws(TemplateString.SyntaxError) {
        func failure(_ message: String) -> TemplateString.SyntaxError { TemplateString.SyntaxError(message: message, offset: 0) }
        var text = Substring(content)
        var arguments: [String] = []
        if let open = content.firstIndex(of: "(") {
            guard content.hasSuffix(")") else { throw failure("'${\(content)}' has no closing ')'") }
            text = content[..<open]
            arguments = try TemplateFunction.split(String(content[content.index(after: open)..<content.index(before: content.endIndex)]))
        }
        guard let name = Name(rawValue: String(text)) else {
            throw failure("'\(text)' is not a template function (functions: " + Name.allCases.map(\.rawValue).joined(separator: ", ") + ")")
        }
        self.name = name
        switch name {
        case .uuid:
            guard arguments.isEmpty else { throw failure("uuid takes no arguments") }
            self.arguments = []
        case .now, .timestamp:
            guard arguments.count <= 1 else { throw failure("\(name.rawValue) takes one offset at most, such as -1h or +30m") }
            guard arguments.allSatisfy({ TemplateFunction.offset($0) != nil }) else {
                throw failure("'\(arguments[0])' is not an offset: a sign and a duration, such as -1h, +30m, +2d or -500ms")
            }
            self.arguments = arguments.map(Argument.literal)
        case .randomInt:
            guard arguments.count == 2, let low = Int(arguments[0]), let high = Int(arguments[1]), low <= high else {
                throw failure("random-int takes two whole numbers, the lower first: random-int(1, 6)")
            }
            self.arguments = arguments.map(Argument.literal)
        case .randomBool, .randomFirstName, .randomLastName, .randomFullName, .randomEmail, .randomWord:
            guard arguments.isEmpty else { throw failure("\(name.rawValue) takes no arguments: \(name.rawValue)()") }
            if name == .randomWord, RandomWords.list.isEmpty {
                throw failure("random-word() draws from the system's word list, \(RandomWords.path) (Debian's wamerican), which this machine lacks")
            }
            self.arguments = []
        case .randomString:
            guard arguments.count == 1, let count = Int(arguments[0]), (1...65_536).contains(count) else {
                throw failure("random-string takes a length from 1 to 65536: random-string(32)")
            }
            self.arguments = [.literal(arguments[0])]
        case .base64, .base64url, .urlencode, .text:
            guard arguments.count == 1 else { throw failure("\(name.rawValue) takes one argument: a variable, env.NAME, 'text' or a function's call") }
            self.arguments = [try TemplateFunction.value(arguments[0], of: name)]
        }
    }

    /// Whether an argument, or an argument of a call among them, is the value of one of `names`.
    public func refers(toAnyOf names: Set<String>) -> Bool {
        variables.contains(where: names.contains)
    }

    /// The variables its arguments read, in order, those of nested calls included.
    public var variables: [String] {
        arguments.flatMap { argument -> [String] in
            switch argument {
            case .variable(let name): [name]
            case .call(let function): function.variables
            case .environment, .literal: []
            }
        }
    }

    /// The environment variables its arguments read, in order, those of nested calls included.
    public var environmentVariables: [String] {
        arguments.flatMap { argument -> [String] in
            switch argument {
            case .environment(let name): [name]
            case .call(let function): function.environmentVariables
            case .variable, .literal: []
            }
        }
    }

    /// `name(arguments)`, as written.
    public var description: String {
        let written = arguments.map { argument -> String in
            switch argument {
            case .variable(let name): name
            case .environment(let name): "env." + name
            case .literal(let text): [.base64, .base64url, .urlencode, .text].contains(name) ? "'\(text)'" : text
            case .call(let function): function.description
            }
        }
        if written.isEmpty { return TemplateFunction.bareNames.contains(name.rawValue) ? name.rawValue : name.rawValue + "()" }
        return "\(name.rawValue)(\(written.joined(separator: ", ")))"
    }

    /// The function's result; the stand-in of the call (`<base64(token)>`) when an argument is one
    /// of `standIns`, whose value stands in for one not known yet, so that a dry run does not
    /// show the function of the stand-in's own text.
    /// - Throws: `UndefinedVariable` for an argument nothing supplies.
    func evaluate(
        variables: [String: String], environment: [String: String], standIns: Set<String> = [], now: Date = Date()
    ) throws(TemplateString.UndefinedVariable) -> String {
        if !standIns.isEmpty, refers(toAnyOf: standIns) { return VariableScope.standIn(for: description) }
        func argument(_ index: Int) throws(TemplateString.UndefinedVariable) -> String {
            switch arguments[index] {
            case .literal(let text): return text
            case .variable(let name):
                guard let value = variables[name] else { throw TemplateString.UndefinedVariable(name: name) }
                return value
            case .environment(let name):
                guard let value = environment[name] else { throw TemplateString.UndefinedVariable(name: "env." + name) }
                return value
            case .call(let function):
                return try function.evaluate(variables: variables, environment: environment, now: now)
            }
        }
        switch name {
        case .uuid:
            return UUID().uuidString.lowercased()
        case .now, .timestamp:
            let seconds = arguments.isEmpty ? 0 : TemplateFunction.offset(try argument(0)) ?? 0
            let date = now.addingTimeInterval(seconds)
            if name == .timestamp { return String(Int64(date.timeIntervalSince1970.rounded(.down))) }
            return date.formatted(Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC")!))
        case .randomInt:
            return String(Int.random(in: Int(try argument(0))!...Int(try argument(1))!))
        case .randomBool:
            return Bool.random() ? "true" : "false"
        case .randomString:
            return String((0..<Int(try argument(0))!).map { _ in TemplateFunction.alphanumerics.randomElement()! })
        case .randomFirstName:
            return RandomNames.first.randomElement()!
        case .randomLastName:
            return RandomNames.last.randomElement()!
        case .randomFullName:
            return RandomNames.first.randomElement()! + " " + RandomNames.last.randomElement()!
        case .randomEmail:
            let first = RandomNames.first.randomElement()!.lowercased(), last = RandomNames.last.randomElement()!.lowercased()
            return "\(first).\(last).\(Int.random(in: 1000...9999))@example.com"
        case .randomWord:
            // The list was found when the file was loaded (init(parsing:) refuses the call without it).
            return RandomWords.list.randomElement() ?? ""
        case .base64:
            return Data(try argument(0).utf8).base64EncodedString()
        case .base64url:
            return Base64URL.encode(Data(try argument(0).utf8))
        case .urlencode:
            return PercentEncoding.encode(try argument(0), keeping: PercentEncoding.isUnreserved)
        case .text:
            return try argument(0)
        }
    }

    /// Seconds of an offset such as `-1h`, `+30m`, `+2d`; `nil` when it is not one.
    static func offset(_ text: String) -> Double? {
        guard let sign = text.first, sign == "+" || sign == "-" else { return nil }
        let body = String(text.dropFirst())
        let seconds: Double
        if body.hasSuffix("d"), let days = Double(body.dropLast()), body.dropLast().allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }) {
            seconds = days * 86_400
        } else if let duration = DurationText.parse(body) {
            seconds = DurationText.milliseconds(duration) / 1000
        } else {
            return nil
        }
        guard seconds.isFinite, seconds <= 3.6e9 else { return nil }
        return sign == "-" ? -seconds : seconds
    }

    /// The arguments between the parentheses, split at commas outside quotes and outside a
    /// nested call's parentheses, and trimmed.
    private static func split(_ text: String) throws(TemplateString.SyntaxError) -> [String] {
        var arguments: [String] = []
        var current = ""
        var quoted = false
        var depth = 0
        for character in text {
            if character == "'" { quoted.toggle() }
            if !quoted, character == "(" { depth += 1 }
            if !quoted, character == ")" { depth -= 1 }
            if character == "," && !quoted && depth == 0 {
                arguments.append(current.trimmingCharacters(in: .whitespaces))
                current = ""
            } else {
                current.append(character)
            }
        }
        guard !quoted else { throw TemplateString.SyntaxError(message: "a quoted argument has no closing '", offset: 0) }
        let last = current.trimmingCharacters(in: .whitespaces)
        if !last.isEmpty || !arguments.isEmpty { arguments.append(last) }
        return arguments
    }

    /// The characters of `random-string`.
    private static let alphanumerics = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")

    /// A value argument: `'text'`, `env.NAME`, a variable name, or a function's call.
    private static func value(_ text: String, of name: Name) throws(TemplateString.SyntaxError) -> Argument {
        if text.count >= 2, text.hasPrefix("'"), text.hasSuffix("'") { return .literal(String(text.dropFirst().dropLast())) }
        if text.utf8.contains(UInt8(ascii: "(")) { return .call(try TemplateFunction(parsing: text)) }
        guard TemplateString.isValidName(text) else {
            throw TemplateString.SyntaxError(message: "'\(text)' is not an argument of \(name.rawValue): write a variable name, env.NAME or 'text'", offset: 0)
        }
        return text.hasPrefix("env.") ? .environment(String(text.dropFirst(4))) : .variable(text)
    }
}
