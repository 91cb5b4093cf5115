import Foundation
import SluiceCore
import SluiceJSONPath
import SluiceMarkup
import SluicePipelineFiles

extension CheckFilter {
    /// The value after this filter; `nil` when it leaves nothing (no match of a regex, an index
    /// past the end).
    /// - Throws: ``CheckFailure`` when the filter does not apply to the value (`to-int` of
    ///   `"abc"`, `count` of a number) or an argument is malformed.
    func apply(to value: CheckValue, in exchange: CheckedExchange) throws(CheckFailure) -> CheckValue? {
        let argument = try arguments.first.map { node throws(CheckFailure) in try exchange.render(node) }
        func refuse(_ what: String) -> CheckFailure {
            CheckFailure("\(kind.rawValue) applies to \(what), not to \(value.described)")
        }
        func text() throws(CheckFailure) -> String {
            guard let text = value.text else { throw refuse("text") }
            return text
        }
        func bytes() throws(CheckFailure) -> Data {
            if case .bytes(let bytes) = value { return bytes }
            throw refuse("bytes")
        }
        func date() throws(CheckFailure) -> Date {
            if case .date(let date) = value { return date }
            throw refuse("a date (what to-date makes)")
        }
        func items() throws(CheckFailure) -> [CheckValue] {
            switch value {
            case .json(.array(let elements)): return elements.map(CheckValue.json)
            case .nodes(let nodes): return nodes.map { .json(.string($0)) }
            default: throw refuse("a list or a node-set")
            }
        }
        switch kind {
        case .count:
            switch value {
            case .json(.array(let elements)): return .json(.int(elements.count))
            case .json(.object(let object)): return .json(.int(object.count))
            case .nodes(let nodes): return .json(.int(nodes.count))
            case .bytes(let bytes): return .json(.int(bytes.count))
            default: throw refuse("a list, an object, a node-set or bytes")
            }
        case .first:
            return try items().first
        case .last:
            return try items().last
        case .nth:
            let list = try items()
            guard let index = argument.flatMap({ Int($0) }) else { throw CheckFailure("nth takes an index, not '\(argument ?? "")'") }
            let position = index < 0 ? list.count + index : index
            return list.indices.contains(position) ? list[position] : nil
        case .regex:
            let pattern = PipelineDecoder.regexLiteral(argument) ?? argument ?? ""
            return try CheckValue.firstMatch(of: pattern, in: text()).map { .json(.string($0)) }
        case .replace:
            let replacement = try exchange.render(arguments[1])
            return .json(.string(try CheckFilter.replacing(argument ?? "", with: replacement, in: text())))
        case .split:
            return .json(.array(try text().codePointComponents(separatedBy: argument ?? "").map(JSONValue.string)))
        case .toInt:
            switch value {
            case .json(let json) where json.isInteger: return value
            case .json(.double(let number)) where number.isFinite && abs(number) < 9.2e18: return .json(.int(Int(number)))
            default:
                let written = try text()
                guard let integer = JSONValue(integerText: written.trimmingCharacters(in: .whitespaces)) else { throw CheckFailure("to-int: \(Expectation.text(.string(written))) is not an integer") }
                return .json(integer)
            }
        case .toFloat:
            if case .json(let json) = value, let number = json.doubleValue { return .json(.double(number)) }
            let written = try text()
            guard let number = Double(written.trimmingCharacters(in: .whitespaces)) else { throw CheckFailure("to-float: \(Expectation.text(.string(written))) is not a number") }
            return .json(.double(number))
        case .toString:
            if case .json(.string) = value { return value }
            return .json(.string(value.text ?? VariableScope.text(of: value.json)))
        case .toHex:
            return .json(.string(CheckValue.hex(try bytes())))
        case .toDate:
            let written = try text()
            guard let date = DateFormatText.parse(written, format: argument ?? "") else {
                throw CheckFailure("to-date: \(Expectation.text(.string(written))) does not match the format '\(argument ?? "")'")
            }
            return .date(date)
        case .format:
            return .json(.string(DateFormatText.format(try date(), format: argument ?? "")))
        case .daysAfterNow:
            return .json(.int(Int((try date().timeIntervalSinceNow / 86_400).rounded(.towardZero))))
        case .daysBeforeNow:
            return .json(.int(Int((-(try date().timeIntervalSinceNow) / 86_400).rounded(.towardZero))))
        case .base64Decode, .base64URLSafeDecode:
            var written = try text()
            if kind == .base64URLSafeDecode {
                written = written.replacingCodePoints(of: "-", with: "+").replacingCodePoints(of: "_", with: "/")
                written += String(repeating: "=", count: (4 - written.utf8.count % 4) % 4)
            }
            guard let decoded = Data(base64Encoded: written) else { throw CheckFailure("\(kind.rawValue): \(Expectation.text(.string(written))) is not Base64") }
            return .bytes(decoded)
        case .base64Encode, .base64URLSafeEncode:
            let data: Data
            if case .bytes(let bytes) = value { data = bytes } else { data = Data(try text().utf8) }
            var encoded = data.base64EncodedString()
            if kind == .base64URLSafeEncode {
                encoded = encoded.replacingCodePoints(of: "+", with: "-").replacingCodePoints(of: "/", with: "_").replacingCodePoints(of: "=", with: "")
            }
            return .json(.string(encoded))
        case .urlDecode:
            let written = try text()
            guard let decoded = written.removingPercentEncoding else { throw CheckFailure("url-decode: \(Expectation.text(.string(written))) holds a percent-escape that is not UTF-8") }
            return .json(.string(decoded))
        case .urlEncode:
            return .json(.string(try text().addingPercentEncoding(withAllowedCharacters: CheckFilter.unreserved) ?? ""))
        case .urlQueryParam:
            return CheckFilter.queryParameter(argument ?? "", in: try text()).map { .json(.string($0)) }
        case .htmlEscape:
            return .json(.string(HTMLCharacterReferences.escape(try text())))
        case .htmlUnescape:
            return .json(.string(HTMLCharacterReferences.unescape(try text())))
        case .decode:
            let data = try bytes()
            return .json(.string(try TextDecoding.string(from: data, charset: argument) { CheckFailure("decode: \($0)") }))
        case .utf8Decode:
            guard let decoded = String(validating: try bytes(), as: UTF8.self) else { throw CheckFailure("utf8-decode: the bytes are not valid UTF-8") }
            return .json(.string(decoded))
        case .utf8Encode:
            return .bytes(Data(try text().utf8))
        case .jsonpath, .jsonpathNodes:
            let written = try text()
            let path: JSONPath
            let document: JSONValue
            do {
                path = try JSONPath(argument ?? "")
                document = try JSONReader().value(from: Data(written.utf8))
            } catch {
                throw CheckFailure("jsonpath: \(error)")
            }
            let selected: [JSONValue]
            do {
                selected = try path.select(in: document)
            } catch {
                throw CheckFailure(error.description)
            }
            if kind == .jsonpathNodes { return .json(.array(selected)) }
            if path.isSingular { return selected.first.map(CheckValue.json) }
            return selected.isEmpty ? nil : .json(.array(selected))
        case .xpath:
            let written = try text()
            do throws(XPathError) {
                // The text is decoded already: a <meta charset> in it no longer says how to read it.
                return CheckValue(try XPathDocument(html: Data(written.utf8), encoding: "UTF-8").evaluate(argument ?? ""))
            } catch {
                throw CheckFailure(error.message)
            }
        case .location:
            guard case .json(.object(let hop)) = value, let location = hop["location"] else { throw refuse("a redirect (an item of redirects)") }
            return .json(location)
        }
    }

    /// The first value of a query parameter of a URL, read as `application/x-www-form-urlencoded`
    /// reads it (`+` a space, percent-escapes decoded), as Hurl's `urlQueryParam` does.
    private static func queryParameter(_ name: String, in url: String) -> String? {
        guard let start = url.firstIndex(of: "?") else { return nil }
        let query = url[url.index(after: start)...].prefix { $0 != "#" }
        func decoded(_ text: Substring) -> String {
            let spaced = text.replacingCodePoints(of: "+", with: " ")
            return spaced.removingPercentEncoding ?? spaced
        }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if decoded(parts[0]).hasSameCodePoints(as: name) { return parts.count > 1 ? decoded(parts[1]) : "" }
        }
        return nil
    }

    /// What `url-encode` leaves as it is: RFC 3986's unreserved characters and `/`, as Hurl's
    /// `urlEncode` does (its own suite: `https%3A//mozilla.org/%3Fx%3D...`).
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/")

    /// `text` with every occurrence of `old` (a `/regex/`, or text as it is, found code point by
    /// code point) replaced; in a regex's replacement, `$1` or `${1}` stands for a group.
    private static func replacing(_ old: String, with new: String, in text: String) throws(CheckFailure) -> String {
        guard let pattern = PipelineDecoder.regexLiteral(old) else {
            return text.replacingCodePoints(of: old, with: new)
        }
        let regex: TextPattern
        do {
            regex = try TextPattern(pattern)
        } catch {
            throw CheckFailure("replace: '\(pattern)' is not a regular expression: \(error)")
        }
        do {
            return try regex.replacingMatches(in: text) { match in
                CheckFilter.replacement(new, for: match)
            }
        } catch {
            throw CheckFailure("replace: \(error)")
        }
    }

    /// A regex replacement's text for `match`: `$1` or `${1}` stands for a group, any other `$`
    /// for itself.
    private static func replacement(_ new: String, for match: TextPattern.Match) -> String {
        var result = ""
        var rest = Substring(new)
        while let dollar = rest.firstIndex(of: "$") {
            result += rest[..<dollar]
            var after = rest[rest.index(after: dollar)...]
            let braced = after.first == "{"
            if braced { after = after.dropFirst() }
            let digits = after.prefix { $0.isASCII && $0.isNumber }
            if let group = Int(digits), group < match.groups.count, !braced || after.dropFirst(digits.count).first == "}" {
                result += match.groups[group] ?? ""
                rest = after.dropFirst(digits.count + (braced ? 1 : 0))
            } else {
                result += "$"
                rest = rest[rest.index(after: dollar)...]
            }
        }
        return result + rest
    }
}
