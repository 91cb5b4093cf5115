import Foundation
import Testing
@testable import SluiceCore

@Suite("serialization")
struct SerializationTests {
    let url = URL(string: "http://h/p")!

    private func body(_ request: Request) -> String {
        guard case .data(let data) = request.body else { return "<not data: \(request.body)>" }
        return String(decoding: data, as: UTF8.self)
    }

    @Test(
        "GET, HEAD and DELETE put parameters in the query",
        arguments: [
            ("http://h/p", "http://h/p?a=1&b%5B%5D=x"), ("http://h/p?z=0", "http://h/p?z=0&a=1&b%5B%5D=x"),
            ("http://h/p?", "http://h/p?a=1&b%5B%5D=x"), ("http://h/p#frag", "http://h/p?a=1&b%5B%5D=x#frag"),
        ]
    )
    func query(url: String, expected: String) throws {
        for method in [HTTPMethod.get, .head, .delete] {
            let request = Request(method: method, url: URL(string: url)!, parameters: ["b": ["x"], "a": 1])
            let sent = try Serialization().serialize(request)
            #expect(sent.url.absoluteString == expected)
            #expect(sent.body == .none)
            #expect(sent.headers["Content-Type"] == nil)
            #expect(sent.parameters == nil)
        }
    }

    @Test("the query is added to the URL as it was: its escapes, its dot segments under sendsPathAsIs, its host's spelling")
    func queryKeepsTheURL() throws {
        var asIs = Request(url: URL(string: "http://h/a/../b/./c?k=x%3Dy")!, parameters: ["q": "1 2"])
        asIs.sendsPathAsIs = true
        #expect(try Serialization().serialize(asIs).url.absoluteString == "http://h/a/../b/./c?k=x%3Dy&q=1%202")
        let host = Request(url: URL(string: "http://user@H.example:8080/p")!, parameters: ["a": "b"])
        #expect(try Serialization().serialize(host).url.absoluteString == "http://user@H.example:8080/p?a=b")
    }

    @Test("empty parameters add nothing to the query; parameters-in-uri can be changed")
    func emptyQuery() throws {
        #expect(try Serialization().serialize(Request(url: url, parameters: [:])).url == url)
        let custom = Serialization(parametersInURI: [.get, .post])
        #expect(try custom.serialize(Request(method: .post, url: url, parameters: ["a": 1])).url.absoluteString == "http://h/p?a=1")
        let delete = try custom.serialize(Request(method: .delete, url: url, parameters: ["a": 1]))
        #expect(body(delete) == "a=1")
    }

    @Test("other methods get a form body and Content-Type, unless the request set its own")
    func formBody() throws {
        let sent = try Serialization().serialize(Request(method: .post, url: url, parameters: ["q": "a b", "n": nil]))
        #expect(body(sent) == "n&q=a%20b")
        #expect(sent.headers["Content-Type"] == "application/x-www-form-urlencoded")
        #expect(sent.url == url)
        let own = try Serialization().serialize(Request(method: .put, url: url, headers: ["content-type": "text/x-mine"], parameters: ["a": 1]))
        #expect(own.headers.values(for: "Content-Type") == ["text/x-mine"])
        let empty = try Serialization().serialize(Request(method: .post, url: url, parameters: [:]))
        #expect(empty.body == .data(Data()))
        #expect(empty.headers["Content-Type"] == "application/x-www-form-urlencoded")
    }

    @Test("a request without parameters passes unchanged, its own body kept")
    func noParameters() throws {
        let request = Request(method: .post, url: url, body: .data(Data("raw".utf8)))
        let sent = try Serialization().serialize(request)
        #expect(sent.body == request.body)
        #expect(sent.headers.isEmpty)
    }

    @Test("JSON keeps the parameters' order and types")
    func json() throws {
        let sent = try Serialization(format: .json).serialize(
            Request(method: .post, url: url, parameters: ["z": 1, "a": [true, nil, 2.5, "é\"\n"], "o": [:]])
        )
        #expect(body(sent) == #"{"z":1,"a":[true,null,2.5,"é\"\n"],"o":{}}"#)
        #expect(sent.headers["Content-Type"] == "application/json")
        let query = try Serialization(format: .json).serialize(Request(url: url, parameters: ["a": 1]))
        #expect(query.url.absoluteString == "http://h/p?a=1", "GET still uses the query, as AFJSONRequestSerializer does")
    }

    @Test("plist is an XML property list")
    func plist() throws {
        let sent = try Serialization(format: .plist).serialize(
            Request(method: .post, url: url, parameters: ["name": "a<b&c", "n": 2, "r": 0.5, "ok": true, "list": [], "d": ["k": false]])
        )
        #expect(sent.headers["Content-Type"] == "application/x-plist")
        let expected = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>name</key>
            \t<string>a&lt;b&amp;c</string>
            \t<key>n</key>
            \t<integer>2</integer>
            \t<key>r</key>
            \t<real>0.5</real>
            \t<key>ok</key>
            \t<true/>
            \t<key>list</key>
            \t<array/>
            \t<key>d</key>
            \t<dict>
            \t\t<key>k</key>
            \t\t<false/>
            \t</dict>
            </dict>
            </plist>

            """
        #expect(body(sent) == expected)
        let data = try #require(body(sent).data(using: .utf8))
        let roundTrip = try PropertyListReader().value(from: data)
        #expect(roundTrip == ["name": "a<b&c", "n": 2, "r": 0.5, "ok": true, "list": [], "d": ["k": false]])
    }

    static let unencodableCases: [(Serialization.Format, JSONValue, String)] = [
        (.json, ["a": ["b": .double(.infinity)]], "$.a.b"),
        (.plist, ["list": [1, nil]], "$.list[1]"),
        (.plist, ["bell": "\u{07}"], "$.bell"),
        (.form, ["x y": [.double(.nan)]], "$['x y'][0]"),
        (.form, "just a string", "$"),
    ]

    @Test("a value the format cannot hold is a typed error naming its key path", arguments: unencodableCases)
    func unencodable(format: Serialization.Format, parameters: JSONValue, path: String) {
        #expect {
            try Serialization(format: format).serialize(Request(method: .post, url: url, parameters: parameters))
        } throws: { error in
            let error = error as? SluiceError
            return error?.kind == .serialization && error?.stage == "serialization" && error?.message.contains("parameters \(path):") == true
        }
    }

    @Test("parameters with a body of the request's own, and parts outside multipart, are typed errors")
    func conflicts() {
        #expect(throws: SluiceError.self) {
            try Serialization().serialize(Request(method: .post, url: url, body: .data(Data("x".utf8)), parameters: ["a": 1]))
        }
        #expect(throws: SluiceError.self) {
            try Serialization(format: .json).serialize(Request(method: .post, url: url, parts: [.field("a", "b")]))
        }
        #expect(throws: SluiceError.self) {
            try Serialization(format: .multipart).serialize(Request(url: url, parts: [.field("a", "b")]))
        }
    }

    @Test("multipart: fields flattened with the form rules, then parts; files streamed as segments")
    func multipart() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sluice-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("photo.PNG")
        try Data("PNGDATA".utf8).write(to: file)
        let other = directory.appendingPathComponent("notes.unknownext")
        try Data("N".utf8).write(to: other)
        let request = Request(
            method: .post, url: url, parameters: ["tags": ["a", "b"], "flag": true, "none": nil],
            parts: [
                .field("title", "Hi \"there\""), .file("image", file), .file("notes", other, filename: "n\r\n.txt"),
                MultipartPart(name: "blob", content: .data(Data([0, 1])), filename: "b.bin"),
            ]
        )
        let sent = try Serialization(format: .multipart).serialize(request)
        let contentType = try #require(sent.headers["Content-Type"])
        #expect(contentType.hasPrefix("multipart/form-data; boundary=sluice-"))
        let boundary = String(contentType.split(separator: "=").last!)
        guard case .segments(let segments) = sent.body else {
            Issue.record("expected segments, got \(sent.body)")
            return
        }
        #expect(segments.filter { if case .file = $0 { true } else { false } } == [.file(file), .file(other)])
        let text = segments.map { segment -> String in
            switch segment {
            case .data(let data): String(decoding: data, as: UTF8.self)
            case .file(let url): "<\(url.lastPathComponent)>"
            }
        }.joined()
        let expected = [
            "--B\r\nContent-Disposition: form-data; name=\"flag\"\r\n\r\n1\r\n",
            "--B\r\nContent-Disposition: form-data; name=\"none\"\r\n\r\n\r\n",
            "--B\r\nContent-Disposition: form-data; name=\"tags[]\"\r\n\r\na\r\n",
            "--B\r\nContent-Disposition: form-data; name=\"tags[]\"\r\n\r\nb\r\n",
            "--B\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nHi \"there\"\r\n",
            "--B\r\nContent-Disposition: form-data; name=\"image\"; filename=\"photo.PNG\"\r\nContent-Type: image/png\r\n\r\n<photo.PNG>\r\n",
            "--B\r\nContent-Disposition: form-data; name=\"notes\"; filename=\"n%0D%0A.txt\"\r\nContent-Type: text/plain\r\n\r\n<notes.unknownext>\r\n",
            "--B\r\nContent-Disposition: form-data; name=\"blob\"; filename=\"b.bin\"\r\nContent-Type: application/octet-stream\r\n\r\n\u{0}\u{1}\r\n",
            "--B--\r\n",
        ].joined().replacingOccurrences(of: "--B", with: "--" + boundary)
        #expect(text == expected)
        #expect(MultipartFormData().boundary != MultipartFormData().boundary)
    }

    @Test("a part whose file cannot be read is a typed error naming the part")
    func unreadablePart() {
        #expect {
            try Serialization(format: .multipart).serialize(
                Request(method: .post, url: url, parts: [.file("doc", URL(fileURLWithPath: "/nonexistent/file.txt"))])
            )
        } throws: { error in
            let error = error as? SluiceError
            return error?.kind == .fileIO && error?.stage == "serialization" && error?.message.contains("part doc") == true
        }
    }
}
