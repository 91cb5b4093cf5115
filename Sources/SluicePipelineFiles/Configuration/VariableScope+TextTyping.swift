import SluiceCore
import SluiceStageRegistry

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
        if YAMLNode.isCoreFloat(text), let value = Double(text), value.isFinite { return .double(value) }
        return .string(text)
    }
}
