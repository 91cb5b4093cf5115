import Foundation
import Testing
@testable import SluiceCore

@Suite("recent URLs")
struct RecentURLsTests {
    /// The same URL text, byte for byte, or both `nil`.
    private func sameText(_ lhs: URL?, _ rhs: URL?) -> Bool {
        switch (lhs, rhs) {
        case (nil, nil): true
        case (let lhs?, let rhs?): lhs.absoluteString.utf8.elementsEqual(rhs.absoluteString.utf8)
        default: false
        }
    }

    @Test("a remembered URL is the one Foundation parses anew, past the memory's bound, three rounds over")
    func rememberedIsParsed() {
        let texts = (0..<(RecentURLs.limit * 2 + 7)).map { number in
            number % 9 == 0 ? "http://[bad-\(number)" : "https://h\(number % 5).test/items/\(number)?q=\(number)#f"
        }
        for round in 0..<3 {
            for text in texts {
                #expect(sameText(RecentURLs.url(text), URL(string: text)), "round \(round): \(text)")
            }
        }
    }

    @Test("texts that differ only as canonical equivalents are told apart, as the wire tells them apart")
    func canonicalEquivalents() {
        let precomposed = "http://h.test/caf\u{E9}?x=\u{E9}"
        let decomposed = "http://h.test/cafe\u{301}?x=e\u{301}"
        #expect(precomposed == decomposed, "Swift's String == would take one for the other")
        let first = RecentURLs.url(precomposed)
        let second = RecentURLs.url(decomposed)
        #expect(sameText(first, URL(string: precomposed)))
        #expect(sameText(second, URL(string: decomposed)))
        #expect(!sameText(first, second))
    }
}
