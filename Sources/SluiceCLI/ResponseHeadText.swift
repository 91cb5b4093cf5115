import Sluice

extension Response {
    /// The head as a server writes it, what `-i`, `-D` and `-w %{size_header}` take: the status
    /// line with the reason phrase the server sent, each field, and the blank line.
    var headText: String {
        var text = "\(httpVersion) \(status)\(reasonPhrase.map { " " + $0 } ?? "")\r\n"
        for field in headers {
            text += "\(field.name): \(field.value)\r\n"
        }
        return text + "\r\n"
    }
}
