import SluiceCore

extension VariableScope {
    /// The value of a text variable (`--var`, a dotenv file, `SLUICE_VAR_NAME`, a CSV cell) where
    /// a reference stands as a whole value, typed as Hurl types its `--variable` values: `true`,
    /// `false` and `null` as they are spelled; an integer (`42`, `-7`, `007` is 7; past 64 bits a
    /// big integer); a decimal number (`1.5`, `1e3`); anything else, `0x1F`, `~` and `True`
    /// included, a string.
    ///
    /// ```swift
    /// VariableScope.typedText("007")    // .int(7)
    /// VariableScope.typedText("0x1F")   // .string("0x1F")
    /// ```
    public static func typedText(_ text: String) -> JSONValue {
        switch text {
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "null": return .null
        default: break
        }
        if let integer = JSONValue(integerText: text) { return integer }
        if isDecimal(text), let value = Double(text), value.isFinite { return .double(value) }
        return .string(text)
    }

    /// `[+-]? (digits (. digits?)? | . digits) ([eE] [+-]? digits)?`: what Rust's `f64` parsing,
    /// Hurl's, reads as a finite number (it also takes `inf` and `NaN`, which JSON cannot hold).
    private static func isDecimal(_ text: String) -> Bool {
        var rest = Substring(text)
        if rest.first == "+" || rest.first == "-" { rest = rest.dropFirst() }
        let mantissaEnd = rest.firstIndex { $0 == "e" || $0 == "E" } ?? rest.endIndex
        let parts = rest[..<mantissaEnd].split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let digits: (Substring) -> Bool = { $0.allSatisfy { $0.isASCII && $0.isNumber } }
        guard parts.allSatisfy(digits), parts.contains(where: { !$0.isEmpty }) else { return false }
        guard mantissaEnd < rest.endIndex else { return true }
        var exponent = rest[rest.index(after: mantissaEnd)...]
        if exponent.first == "+" || exponent.first == "-" { exponent = exponent.dropFirst() }
        return !exponent.isEmpty && digits(exponent)
    }
}
