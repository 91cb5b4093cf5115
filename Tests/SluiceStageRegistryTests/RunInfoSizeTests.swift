import Testing
@testable import SluiceStageRegistry

/// The runner stores a `RunInfo` in the storage of every task it sends. A value larger than an
/// existential's inline room (three words) is put in a box of its own there: a malloc and a free a
/// request.
@Suite("RunInfo's size")
struct RunInfoSizeTests {
    @Test("a RunInfo fits in an existential's inline room, so storing it allocates nothing")
    func fitsInline() {
        #expect(MemoryLayout<RunInfo>.size <= 3 * MemoryLayout<Int>.size, "\(MemoryLayout<RunInfo>.size) bytes")
        let info = RunInfo(isDryRun: true, redactor: Redactor(secrets: ["s3cret"]))
        let stored: any Sendable = info
        let read = stored as? RunInfo
        #expect(read?.isDryRun == true && read?.redactor.secrets == ["s3cret"])
    }
}
