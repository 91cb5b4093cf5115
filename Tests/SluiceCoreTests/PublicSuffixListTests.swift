import Foundation
import Testing
@testable import SluiceCore

@Suite("Public Suffix List")
struct PublicSuffixListTests {
    static let vectors: [(String?, String?)] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/publicsuffix/test_psl.txt")
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        func argument(_ text: Substring) -> String? {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            return trimmed == "null" ? nil : String(trimmed.dropFirst().dropLast())
        }
        return text.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("checkPublicSuffix("), let close = line.lastIndex(of: ")") else { return nil }
            let inside = line[line.index(line.startIndex, offsetBy: "checkPublicSuffix(".count)..<close]
            let parts = inside.split(separator: ",", maxSplits: 1)
            return (argument(parts[0]), argument(parts[1]))
        }
    }()

    @Test(
        "the list's own test vectors (test_psl.txt, public domain), against libpsl's list and against Debian's text copy read here",
        arguments: ["libpsl", "text"]
    )
    func vectors(source: String) throws {
        #expect(Self.vectors.count == 78)
        let list = source == "libpsl"
            ? PublicSuffixList.system
            : try PublicSuffixList(contentsOf: URL(fileURLWithPath: "/usr/share/publicsuffix/public_suffix_list.dat"))
        #expect(!list.isFallback, "install libpsl-dev and publicsuffix (scripts/setup)")
        for (domain, expected) in Self.vectors {
            // A leading dot or an empty label is not a host name: no registrable domain.
            let host = domain.flatMap { $0.hasPrefix(".") ? nil : HostName.normalized($0) }
            let registrable = host.flatMap(list.registrableDomain(of:))
            #expect(registrable == expected.flatMap(HostName.normalized), "\(domain ?? "null")")
        }
    }

    @Test("libpsl's list and the text copy agree on public suffixes, IDNA names, wildcards and exceptions")
    func sourcesAgree() throws {
        let text = try PublicSuffixList(contentsOf: URL(fileURLWithPath: "/usr/share/publicsuffix/public_suffix_list.dat"))
        let hosts = [
            "com", "co.uk", "example.co.uk", "github.io", "user.github.io", "xn--p1ai", "xn--80ak6aa92e.xn--p1ai",
            "xn--55qx5d.cn", "a.xn--55qx5d.cn", "ck", "foo.ck", "www.ck", "city.kawasaki.jp", "x.kawasaki.jp",
            "unknowntld", "a.b.unknowntld", "localhost", "app.localhost", "s3.amazonaws.com",
        ]
        for host in hosts {
            #expect(PublicSuffixList.system.publicSuffix(of: host) == text.publicSuffix(of: host), "\(host)")
            #expect(PublicSuffixList.system.isPublicSuffix(host) == text.isPublicSuffix(host), "\(host)")
        }
        for host in ["127.0.0.1", "::1", "a..b", ""] {
            #expect(PublicSuffixList.system.publicSuffix(of: host) == nil, "\(host)")
        }
        // The one difference: libpsl (and so curl) takes the parent of a wildcard rule (`*.kawasaki.jp`)
        // for a public suffix too; the list's algorithm finds only `jp` above `kawasaki.jp`.
        #expect(PublicSuffixList.system.publicSuffix(of: "kawasaki.jp") == "kawasaki.jp")
        #expect(text.publicSuffix(of: "kawasaki.jp") == "jp")
    }

    @Test("an IPv4 address is four parts of one to three ASCII digits, each at most 255 (what inet_pton takes, leading zeros aside)")
    func ipv4() {
        for address in ["127.0.0.1", "0.0.0.0", "255.255.255.255", "10.001.2.3"] {
            #expect(PublicSuffixList.isIPv4(address), "\(address)")
        }
        for text in ["256.1.1.1", "1.2.3", "1.2.3.4.", "1..2.3", "+1.2.3.4", "1.2.3.4.5", "1234.1.1.1", "a.b.c.d", "", "1.2.3.\u{661}", "127.evil.example"] {
            #expect(!PublicSuffixList.isIPv4(text), "\(text)")
        }
    }
}
