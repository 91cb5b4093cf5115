import Foundation
import Testing
@testable import SluiceAWSSigV4

/// AWS's published Signature Version 4 test suite (aws-sig-v4-test-suite, 2015-08-30 edition):
/// each case's request, and the canonical request and signature AWS publishes for it. All cases
/// sign as AKIDEXAMPLE in us-east-1 for the service `service` at 20150830T123600Z.
@Suite("aws-sigv4: AWS's test suite")
struct SigV4SuiteTests {
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var method = "GET"
        var path = "/"
        var query: [(name: String, value: String)] = []
        var headers: [(name: String, value: String)] = []
        var body = ""
        var sessionToken: String?
        /// The canonical request's lines between the query and the payload hash are derived:
        /// only the path and query lines, and the signed header names, are given.
        var canonicalPath = "/"
        var canonicalQuery = ""
        var signature: String

        var description: String { name }
    }

    static let token =
        "AQoDYXdzEPT//////////wEXAMPLEtc764bNrC9SAPBSM22wDOk4x4HIZ8j4FZTwdQWLWsKWHGBuFqwAeMicRXmxfpSPfIeoIYRqTflfKD8YUuwthAx7mSEI/qkPpKPi/kMcGdQrmGdeehM4IC1NtBmUpp2wUE8phUZampKsburEDy0KPkyQDYwT7WZ0wq5VSXDvp75YU9HFvlRd8Tx6q6fE8YQcHNVXAkiY9q6d+xo0rKwT38xVqr7ZD0u0iPPkUL64lIZbqBAz+scqKmlzm8FDrypNC9Yjc8fPOLn9FX9KSYvKTr4rvx3iSIlTJabIQwj2ICCR/oLxBA=="

    static let cases: [Case] = [
        Case(name: "get-vanilla", signature: "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"),
        Case(name: "post-vanilla", method: "POST", signature: "5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b"),
        Case(name: "get-vanilla-query-order-key-case", query: [("Param2", "value2"), ("Param1", "value1")], canonicalQuery: "Param1=value1&Param2=value2",
             signature: "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500"),
        Case(name: "get-vanilla-query-order-key", query: [("Param1", "value2"), ("Param1", "Value1")], canonicalQuery: "Param1=Value1&Param1=value2",
             signature: "eedbc4e291e521cf13422ffca22be7d2eb8146eecf653089df300a15b2382bd1"),
        Case(name: "get-vanilla-query-order-value", query: [("Param1", "value2"), ("Param1", "value1")], canonicalQuery: "Param1=value1&Param1=value2",
             signature: "5772eed61e12b33fae39ee5e7012498b51d56abc0abb7c60486157bd471c4694"),
        Case(name: "get-vanilla-empty-query-key", query: [("Param1", "value1")], canonicalQuery: "Param1=value1",
             signature: "a67d582fa61cc504c4bae71f336f98b97f1ea3c7a6bfe1b6e45aec72011b9aeb"),
        Case(name: "get-vanilla-utf8-query", query: [("\u{1234}", "bar")], canonicalQuery: "%E1%88%B4=bar",
             signature: "2cdec8eed098649ff3a119c94853b13c643bcf08f8b0a1d91e12c9027818dd04"),
        Case(name: "get-vanilla-query-unreserved",
             query: [("-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", "-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")],
             canonicalQuery: "-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz=-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
             signature: "9c3e54bfcdf0b19771a7f523ee5669cdf59bc7cc0884027167c21bb143a40197"),
        Case(name: "get-unreserved", path: "/-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
             canonicalPath: "/-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
             signature: "07ef7494c76fa4850883e2b006601f940f8a34d404d0cfa977f52a65bbf5f24f"),
        Case(name: "get-utf8", path: "/\u{1234}", canonicalPath: "/%E1%88%B4", signature: "8318018e0b0f223aa2bbf98705b62bb787dc9c0e678f255a891fd03141be5d85"),
        Case(name: "get-header-key-duplicate", headers: [("My-Header1", "value2"), ("My-Header1", "value2"), ("My-Header1", "value1")],
             signature: "c9d5ea9f3f72853aea855b47ea873832890dbdd183b4468f858259531a5138ea"),
        Case(name: "get-header-value-order", headers: [("My-Header1", "value4"), ("My-Header1", "value1"), ("My-Header1", "value3"), ("My-Header1", "value2")],
             signature: "08c7e5a9acfcfeb3ab6b2185e75ce8b1deb5e634ec47601a50643f830c755c01"),
        Case(name: "get-header-value-multiline", headers: [("My-Header1", "value1"), ("My-Header1", "value2"), ("My-Header1", "value3")],
             signature: "ba17b383a53190154eb5fa66a1b836cc297cc0a3d70a5d00705980573d8ff790"),
        Case(name: "get-header-value-trim", headers: [("My-Header1", " value1"), ("My-Header2", " \"a   b   c\"")],
             signature: "acc3ed3afb60bb290fc8d2dd0098b9911fcaa05412b367055dee359757a9c736"),
        Case(name: "post-header-key-case", method: "POST", signature: "5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b"),
        Case(name: "post-header-key-sort", method: "POST", headers: [("My-Header1", "value1")],
             signature: "c5410059b04c1ee005303aed430f6e6645f61f4dc9e1461ec8f8916fdf18852c"),
        Case(name: "post-header-value-case", method: "POST", headers: [("My-Header1", "VALUE1")],
             signature: "cdbc9802e29d2942e5e10b5bccfdd67c5f22c7c4e8ae67b53629efa58b974b7d"),
        Case(name: "post-vanilla-query", method: "POST", query: [("Param1", "value1")], canonicalQuery: "Param1=value1",
             signature: "28038455d6de14eafc1f9222cf5aa6f1a96197d7deb8263271d420d138af7f11"),
        Case(name: "post-x-www-form-urlencoded", method: "POST", headers: [("Content-Type", "application/x-www-form-urlencoded")], body: "Param1=value1",
             signature: "ff11897932ad3f4e8b18135d722051e5ac45fc38421b1da7b9d196a0fe09473a"),
        Case(name: "post-x-www-form-urlencoded-parameters", method: "POST",
             headers: [("Content-Type", "application/x-www-form-urlencoded; charset=utf8")], body: "Param1=value1",
             signature: "1a72ec8f64bd914b0e42e42607c7fbce7fb2c7465f63e3092b3b0d39fa77a6fe"),
        Case(name: "post-sts-token/post-sts-header-before", method: "POST", sessionToken: token,
             signature: "85d96828115b5dc0cfc3bd16ad9e210dd772bbebba041836c64533a82be05ead"),
        Case(name: "normalize-path/get-relative", path: "/example/..", signature: "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"),
        Case(name: "normalize-path/get-relative-relative", path: "/example1/example2/../..", signature: "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"),
        Case(name: "normalize-path/get-slash", path: "//", signature: "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"),
        Case(name: "normalize-path/get-slash-dot-slash", path: "/./", signature: "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"),
        Case(name: "normalize-path/get-slash-pointless-dot", path: "/./example", canonicalPath: "/example",
             signature: "ef75d96142cf21edca26f06005da7988e4f8dc83a165a80865db7089db637ec5"),
        Case(name: "normalize-path/get-slashes", path: "//example//", canonicalPath: "/example/",
             signature: "9a624bd73a37c9a373b5312afbebe7a714a789de108f0bdfe846570885f57e84"),
        Case(name: "normalize-path/get-space", path: "/example space/", canonicalPath: "/example%20space/",
             signature: "652487583200325589f1fba4c7e578f72c47cb61beeca81406b39ddec1366741"),
    ]

    static let signer = SigV4Signer(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", region: "us-east-1", service: "service")
    static let timestamp = "20150830T123600Z"

    /// The suite's message for a case: its headers with `Host` and `X-Amz-Date` (and the token).
    static func message(_ test: Case) -> SigV4Signer.Message {
        var headers: [(name: String, value: String)] = [("Host", "example.amazonaws.com")] + test.headers + [("X-Amz-Date", timestamp)]
        if let token = test.sessionToken { headers.append(("X-Amz-Security-Token", token)) }
        let hash = SHA256Hex.of(test.body)
        return SigV4Signer.Message(method: test.method, path: test.path, query: test.query, headers: headers, payloadHash: hash)
    }

    @Test("each case's canonical request and Authorization header are the ones AWS publishes", arguments: cases)
    func suite(_ test: Case) {
        let signed = Self.signer.sign(Self.message(test), at: Self.timestamp)
        let lines = signed.canonicalRequest.components(separatedBy: "\n")
        #expect(lines[0] == test.method)
        #expect(lines[1] == test.canonicalPath)
        #expect(lines[2] == test.canonicalQuery)
        #expect(lines.last == SHA256Hex.of(test.body))
        let signedHeaders = lines[lines.count - 2]
        #expect(signed.stringToSign.hasPrefix("AWS4-HMAC-SHA256\n20150830T123600Z\n20150830/us-east-1/service/aws4_request\n"))
        #expect(
            signed.authorization
                == "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=\(signedHeaders), Signature=\(test.signature)"
        )
    }

    @Test("header values are trimmed and runs of spaces made one; repeated fields keep their order")
    func canonicalHeaders() {
        let trim = Self.signer.sign(Self.message(Self.cases.first { $0.name == "get-header-value-trim" }!), at: Self.timestamp)
        #expect(trim.canonicalRequest.contains("my-header1:value1\nmy-header2:\"a b c\"\n"))
        let duplicate = Self.signer.sign(Self.message(Self.cases.first { $0.name == "get-header-key-duplicate" }!), at: Self.timestamp)
        #expect(duplicate.canonicalRequest.contains("\nmy-header1:value2,value2,value1\n"))
        #expect(
            duplicate.stringToSign
                == "AWS4-HMAC-SHA256\n20150830T123600Z\n20150830/us-east-1/service/aws4_request\ndc7f04a3abfde8d472b0ab1a418b741b7c67174dad1551b4117b15527fbe966c"
        )
    }

    @Test("S3 signs the path as sent, each segment encoded once, without normalizing it")
    func s3Paths() {
        let s3 = SigV4Signer(accessKeyID: "a", secretAccessKey: "s", region: "us-east-1", service: "s3")
        #expect(s3.canonicalPath("/example%20space/") == "/example%20space/")
        #expect(s3.canonicalPath("//example//") == "//example//")
        #expect(s3.canonicalPath("/a/../b") == "/a/../b")
        #expect(s3.canonicalPath("/a+b/%E1%88%B4") == "/a%2Bb/%E1%88%B4")
        #expect(Self.signer.canonicalPath("/example%20space/") == "/example%2520space/")
        #expect(Self.signer.canonicalPath("/a/./b/../c") == "/a/c")
        #expect(Self.signer.canonicalPath("") == "/")
    }
}
