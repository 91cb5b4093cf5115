import Testing
import SluicePipelineFiles

@Suite("Header lines")
struct HeaderLineTests {
    @Test("split at the first colon, the value's spaces and tabs trimmed; no colon, no name, or a name with a blank in, before or after it is no line")
    func split() {
        let line = HeaderLine("X-A:  b: c \t")
        #expect(line?.name == "X-A")
        #expect(line?.value == "b: c")
        #expect(HeaderLine("X-Empty:")?.value == "")
        for text in ["no colon", ": no name", "Bad Name: x", "Tab\tName: x", "Del\u{7F}: x", "X-D : v", " X-Lead: v", "\tX-Tab: v"] {
            #expect(HeaderLine(text) == nil, "\(text)")
        }
    }

    @Test("a colon followed by a combining mark is still the colon: the bytes are split, not the graphemes")
    func combiningMarkAfterColon() {
        let line = HeaderLine("X-A:\u{301}b")
        #expect(line?.name == "X-A")
        #expect(line.map { Array($0.value.utf8) } == Array("\u{301}b".utf8))
    }
}
