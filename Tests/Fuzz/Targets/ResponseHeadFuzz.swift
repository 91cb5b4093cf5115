@testable import SluiceCore
@testable import SluiceCurl
@testable import SluiceStageRegistry
@testable import SluicePipelineFiles
@testable import SluiceRunner
@testable import SluiceLoad
import Sluice

/// Response heads as libcurl hands them over, one line at a time: whatever the bytes, the status
/// is a three-digit code or nothing, and every header field has a name with no white space around it.
enum ResponseHeadFuzz {
    static func run(_ input: [UInt8]) {
        var parser = ResponseHeadParser()
        var start = 0
        var finals = 0
        while start < input.count {
            let end = input[start...].firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? input.count
            let event = input[start..<end].withUnsafeBytes { parser.consume($0) }
            if case .finalStatus(let status) = event {
                finals += 1
                require((100...999).contains(status) && !(100...199).contains(status), "final status \(status)")
            }
            start = end
        }
        if let status = parser.status {
            require((100...999).contains(status), "status \(status)")
        }
        for field in parser.headers {
            require(!field.name.isEmpty, "a field with no name")
            for edge in [field.name.utf8.first, field.name.utf8.last, field.value.utf8.first, field.value.utf8.last] {
                require(edge != UInt8(ascii: " ") && edge != UInt8(ascii: "\t"), "white space around '\(field.name): \(field.value)'")
            }
        }
        if parser.isComplete { require(finals > 0, "a complete head with no final status line") }
    }
}
