import ArgumentParser
import Foundation
import Sluice
import SluiceReachability
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceLoad

/// One `--form` argument, as curl's `-F` reads it: `name=value`, or
/// `name=@FILE[;type=TYPE][;filename=NAME]` for a file (`@-` standard input).
struct FormPart {
    let part: MultipartPart

    init(_ argument: String) throws {
        guard let equals = argument.firstIndex(of: "="), equals != argument.startIndex else {
            throw ValidationError("form part '\(argument)' is not of the form 'name=value' or 'name=@FILE'")
        }
        let name = String(argument[..<equals])
        let value = argument[argument.index(after: equals)...]
        guard value.hasPrefix("@") else {
            part = .field(name, String(value))
            return
        }
        var pieces = value.dropFirst().split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        let path = pieces.removeFirst()
        guard !path.isEmpty else { throw ValidationError("form part '\(argument)' names no file after '@'") }
        var contentType: String?
        var filename: String?
        for piece in pieces {
            if piece.hasPrefix("type=") {
                contentType = String(piece.dropFirst(5))
            } else if piece.hasPrefix("filename=") {
                filename = String(piece.dropFirst(9))
            } else {
                throw ValidationError("form part '\(argument)': unknown attribute '\(piece)' (type= or filename=)")
            }
        }
        // '@-' is standard input, named '-' as curl names it.
        part = path == "-"
            ? MultipartPart(name: name, content: .data(try DataPiece.contents(of: "-", role: "standard input")), filename: filename ?? "-", contentType: contentType)
            : .file(name, URL(fileURLWithPath: path), filename: filename, contentType: contentType)
    }
}
