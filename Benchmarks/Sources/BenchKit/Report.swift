import Foundation

/// Prints a measurement as one line of JSON on standard output, keys sorted.
func report(_ fields: [String: any Sendable]) {
    let object = fields.mapValues { value -> Any in value }
    guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else {
        FileHandle.standardError.write(Data("sluice-bench: could not encode \(fields)\n".utf8))
        return
    }
    FileHandle.standardOutput.write(data + Data("\n".utf8))
}
