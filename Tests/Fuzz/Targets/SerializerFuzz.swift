import Sluice
import SluiceCore
import SluiceCurl
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceLoad

/// JSON in, JSON and form out: whatever the reader accepts, the writer writes back to the same
/// value, and the form encoder writes as ASCII with nothing unescaped that the format reserves.
enum SerializerFuzz {
    static func run(_ input: [UInt8]) {
        guard let value = try? JSONReader(maximumDepth: 64).value(from: input) else { return }
        if let written = try? JSONWriter().data(from: value) {
            let reread: JSONValue
            do {
                reread = try JSONReader(maximumDepth: 64).value(from: written)
            } catch {
                preconditionFailure("the writer's output does not read back: \(error)")
            }
            require(same(reread, value), "the writer does not round-trip: \(value) became \(reread)")
        }
        for encoder in [FormEncoder(), FormEncoder(arrayEncoding: .indices, boolEncoding: .literal, spaceEncoding: .plus)] {
            guard let form = try? encoder.string(from: value) else { continue }
            for byte in form.utf8 {
                require(byte > 0x20 && byte < 0x7F && byte != UInt8(ascii: "#"), "form output has byte \(byte): \(form)")
            }
        }
    }

    /// Equality with doubles compared by value, so `-0.0` and `0.0` (which JSON writes alike) match.
    private static func same(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.double(let x), .double(let y)): return x == y
        case (.double(let x), .int(let y)), (.int(let y), .double(let x)): return x == Double(y)
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case (.object(let x), .object(let y)):
            let left = Array(x), right = Array(y)
            return left.count == right.count && zip(left, right).allSatisfy { $0.key == $1.key && same($0.value, $1.value) }
        default: return a == b
        }
    }
}
