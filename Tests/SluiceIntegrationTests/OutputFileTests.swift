import Foundation
import Testing

@testable import SluiceCore
@testable import SluiceCurl
@testable import SluiceReachability
@testable import SluiceStageRegistry
@testable import SluicePipelineFiles
@testable import SluiceRunner
@testable import SluiceLoad

#if canImport(Glibc)
import Glibc
#endif

/// `OutputFile` and `InputFile` against every kind of node a path can name, each made in the
/// test's own folder (a device is a private `mknod` copy, never the machine's own).
@Suite("Files a user names: written through, never replaced", .timeLimit(.minutes(1)))
struct OutputFileTests {
    private static let body = Data("the new body\n".utf8)

    private func write(_ path: String, _ replacement: OutputFile.Replacement, commit: Bool = true) throws {
        let file = try OutputFile(path: path, replacement: replacement, role: "the download")
        try file.write(Self.body)
        if commit { try file.commit() }
    }

    @Test("a path that names nothing gets a new file at the commit, mode 0666 less the umask; abandoned, nothing is left")
    func newFile() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("new.txt").path
        let file = try OutputFile(path: path, role: "the download")
        try file.write(Self.body)
        #expect(FileNode(path) == nil, "nothing at the path before the commit")
        #expect(directory.contents.count == 1 && directory.contents[0].hasSuffix(".sluice-part"))
        try file.commit()
        let mask = umask(0)
        umask(mask)
        #expect(FileNode(path)?.permissions == 0o666 & ~mask)
        #expect(FileNodes.contents(path) == "the new body\n")
        #expect(directory.contents == ["new.txt"])

        let abandoned = directory.file("abandoned.txt").path
        try write(abandoned, .onCommit, commit: false)
        #expect(FileNode(abandoned) == nil)
        #expect(directory.contents == ["new.txt"], "the staging file is removed")
    }

    @Test("an existing file with a second hard link keeps its inode, mode and links: the new content at the commit, the old one when abandoned")
    func hardLinkedFile() throws {
        let directory = try TemporaryDirectory()
        let other = directory.file("other-name.xml").path
        let (path, inode) = try FileNodes.hardLinked(at: directory.file("report.xml").path, otherName: other)

        try write(path, .onCommit, commit: false)
        #expect(FileNodes.contents(other) == "old\n", "abandoned: the old content stays")
        #expect(Set(directory.contents) == ["report.xml", "other-name.xml"], "and no staging file is left")

        let file = try OutputFile(path: path, role: "the report")
        try file.write(Self.body)
        #expect(FileNodes.contents(path) == "old\n", "nothing changes before the commit")
        try file.commit()
        #expect(FileNode(path) == FileNode(other))
        #expect(FileNode(path)?.inode == inode)
        #expect(FileNode(path)?.permissions == 0o600)
        #expect(FileNode(path)?.links == 2)
        #expect(FileNodes.contents(other) == "the new body\n")
        #expect(Set(directory.contents) == ["report.xml", "other-name.xml"])
    }

    @Test("as written: an existing file is emptied at the first write and written in place; an empty commit empties it; nothing is ever removed")
    func asWritten() throws {
        let directory = try TemporaryDirectory()
        let path = try FileNodes.file(at: directory.file("out.bin").path, "a longer old content\n", permissions: 0o640)
        let inode = FileNode(path)?.inode

        let untouched = try OutputFile(path: path, replacement: .asWritten)
        #expect(FileNodes.contents(path) == "a longer old content\n", "opening alone changes nothing")
        _ = untouched

        let file = try OutputFile(path: path, replacement: .asWritten)
        try file.write(Data("new".utf8))
        #expect(FileNodes.contents(path) == "new", "emptied at the first write, written as it goes")
        try file.commit()
        #expect(FileNode(path)?.inode == inode)
        #expect(FileNode(path)?.permissions == 0o640)

        try OutputFile(path: path, replacement: .asWritten).commit()
        #expect(FileNode(path)?.size == 0, "an empty body empties the file, as curl's -o does")

        let partial = directory.file("partial.bin").path
        let cut = try OutputFile(path: partial, replacement: .asWritten)
        try cut.write(Data("half".utf8))
        #expect(FileNodes.contents(partial) == "half", "a new file is there at once, and stays when the writer stops")
        #expect(directory.contents.allSatisfy { !$0.hasSuffix(".sluice-part") })
    }

    @Test("a symbolic link is followed in both modes; a dangling one gets its target created and stays a link", arguments: [OutputFile.Replacement.onCommit, .asWritten])
    func symbolicLinks(replacement: OutputFile.Replacement) throws {
        let directory = try TemporaryDirectory()
        let target = try FileNodes.file(at: directory.file("target.txt").path, "old\n")
        let link = try FileNodes.link(at: directory.file("link.txt").path, to: "target.txt")
        try write(link, replacement)
        #expect(FileNode(link)?.isSymbolicLink == true)
        #expect(FileNodes.contents(target) == "the new body\n")

        try FileManager.default.createDirectory(atPath: directory.file("sub").path, withIntermediateDirectories: false)
        let dangling = try FileNodes.link(at: directory.file("dangling.txt").path, to: "sub/created.txt")
        let chained = try FileNodes.link(at: directory.file("chained.txt").path, to: "dangling.txt")
        try write(chained, replacement)
        #expect(FileNode(chained)?.isSymbolicLink == true)
        #expect(FileNode(dangling)?.isSymbolicLink == true)
        #expect(FileNodes.contents(directory.file("sub/created.txt").path) == "the new body\n")
        #expect(directory.contents.allSatisfy { !$0.hasSuffix(".sluice-part") })
    }

    @Test(
        "a private copy of /dev/null stays the same device in both modes, abandoned or committed",
        .enabled(if: FileNodes.canMakeDevices, "mknod needs root"), arguments: [OutputFile.Replacement.onCommit, .asWritten]
    )
    func device(replacement: OutputFile.Replacement) throws {
        let directory = try TemporaryDirectory()
        let null = try FileNodes.null(at: directory.file("null").path)
        let before = try #require(FileNode(null))
        let file = try OutputFile(path: null, replacement: replacement)
        #expect(file.isSpecial)
        #expect(file.stagingPath == nil)
        try file.write(Self.body)
        try file.commit()
        try write(null, replacement, commit: false)
        #expect(FileNode(null) == before)
        #expect(directory.contents == ["null"])
    }

    @Test("a terminal (a pseudo-terminal of the test's own) is written through, and stays a terminal")
    func terminal() throws {
        // Python's pty module holds a new pseudo-terminal, names its terminal end, prints what
        // arrives at the other end once a line has, and holds the terminal until it is ended.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        holder.arguments = ["-c", "import os, pty, sys; m, s = pty.openpty(); print(os.ttyname(s), flush=True); print(repr(os.read(m, 256)), flush=True); sys.stdin.read()"]
        let output = Pipe()
        holder.standardOutput = output
        holder.standardInput = Pipe()
        try holder.run()
        defer { holder.terminate() }
        let lines = LineReader(output.fileHandleForReading)
        let terminal = try #require(lines.next())
        let before = try #require(FileNode(terminal))
        #expect(before.isCharacterDevice)
        let file = try OutputFile(path: terminal, role: "the download")
        #expect(file.isSpecial)
        try file.write(Self.body)
        try file.commit()
        #expect(lines.next() == #"b'the new body\r\n'"#, "the terminal's own line discipline ends the line")
        #expect(FileNode(terminal) == before)
    }

    @Test("a FIFO is written through to its reader and stays a FIFO")
    func fifo() async throws {
        let directory = try TemporaryDirectory()
        let fifo = try FileNodes.fifo(at: directory.file("pipe").path)
        let reader = FIFOReader(fifo)
        let large = Data(repeating: 0x61, count: 1 << 20)
        let file = try OutputFile(path: fifo, role: "the download")
        try file.write(large)
        try file.commit()
        #expect(await reader.data() == large, "1 MiB through a 64 KiB pipe: every write waited for the reader")
        #expect(FileNode(fifo)?.isFIFO == true)
    }

    @Test("a FIFO whose reader goes away fails the write with .fileIO (Broken pipe); the process gets no SIGPIPE")
    func readerGoesAway() async throws {
        let directory = try TemporaryDirectory()
        let fifo = try FileNodes.fifo(at: directory.file("pipe").path)
        let reader = FIFOReader(fifo, stopAfter: 10)
        let file = try OutputFile(path: fifo, role: "the download")
        let failure = #expect(throws: SluiceError.self) {
            for _ in 0..<64 { try file.write(Data(repeating: 0x62, count: 64 << 10)) }
        }
        #expect(failure?.kind == .fileIO)
        #expect(failure?.message == "cannot write the download to \(fifo): Broken pipe")
        #expect(await reader.data().count == 10)
        #expect(FileNode(fifo)?.isFIFO == true)
    }

    @Test("a FIFO is opened at the first byte, as curl opens its output; with no reader it is waited for, and cancelling the task ends the wait with .cancelled")
    func fifoWithoutReader() async throws {
        let directory = try TemporaryDirectory()
        let fifo = try FileNodes.fifo(at: directory.file("pipe").path)
        let unopened = try OutputFile(path: fifo, role: "the download")
        #expect(unopened.isSpecial, "made at once, with no reader: nothing was opened yet")
        let waiting = Task {
            let file = try OutputFile(path: fifo, role: "the download")
            try file.write(Data("x".utf8))
        }
        try await Task.sleep(for: .milliseconds(50))
        waiting.cancel()
        let failure = await #expect(throws: SluiceError.self) { try await waiting.value }
        #expect(failure?.kind == .cancelled)
        #expect(FileNode(fifo)?.isFIFO == true)
    }

    @Test("a directory, a socket, a loop of links, a missing folder and an empty path are refused, each saying why")
    func refused() throws {
        let directory = try TemporaryDirectory()
        let socketPath = directory.file("daemon.sock").path
        let listener = try UnixSocket(boundTo: socketPath)
        _ = try FileNodes.link(at: directory.file("loop-a").path, to: "loop-b")
        _ = try FileNodes.link(at: directory.file("loop-b").path, to: "loop-a")
        let cases: [(String, String)] = [
            (directory.url.path, "cannot write the report to \(directory.url.path): it is a directory"),
            (socketPath, "cannot write the report to \(socketPath): it is a socket, which cannot be opened as a file"),
            (directory.file("loop-a").path, "cannot write the report to \(directory.file("loop-a").path): Too many levels of symbolic links"),
            (directory.file("no/such/folder.xml").path, "cannot write the report to \(directory.file("no/such/folder.xml").path): the folder \(directory.file("no/such").path) does not exist"),
            ("", "the report needs a path; it is empty"),
        ]
        for (path, message) in cases {
            let failure = #expect(throws: SluiceError.self) { try OutputFile(path: path, role: "the report", stage: "report") }
            #expect(failure?.kind == .fileIO)
            #expect(failure?.stage == "report")
            #expect(failure?.message == message)
        }
        #expect(FileNode(socketPath)?.type == S_IFSOCK)
        _ = listener
    }

    @Test("write(_:at:) rewrites a regular file written in place, as a growing document does")
    func writeAtOffset() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("log.har").path
        let file = try OutputFile(path: path, replacement: .asWritten)
        try file.write(Data("[]".utf8))
        try file.write(Data("1]".utf8), at: 1)
        try file.write(Data(",2]".utf8), at: 2)
        try file.commit()
        #expect(FileNodes.contents(path) == "[1,2]")
    }

    @Test("calls a file cannot take are typed errors, not traps: a write or a commit after the commit, a rewrite at an offset of a staged file")
    func misuse() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("out.txt").path
        let staged = try OutputFile(path: path, role: "the report")
        let rewrite = #expect(throws: SluiceError.self) { try staged.write(Data("x".utf8), at: 0) }
        #expect(rewrite?.kind == .invalidRequest)
        #expect(rewrite?.message == "the report \(path): only a regular file written in place (asWritten), written to once and not yet committed, can be rewritten at an offset")
        try staged.commit()
        let late = #expect(throws: SluiceError.self) { try staged.write(Data("late".utf8)) }
        #expect(late?.message == "the report \(path): it was committed already; nothing more can be written")
        let twice = #expect(throws: SluiceError.self) { try staged.commit() }
        #expect(twice?.kind == .invalidRequest)
        #expect(FileNodes.contents(path) == "")
    }

    @Test("InputFile reads a device as empty and a FIFO as written; refuses a directory, a missing file, an endless device and non-UTF-8 text, each saying why")
    func inputFiles() async throws {
        let directory = try TemporaryDirectory()
        if FileNodes.canMakeDevices {
            #expect(try InputFile.data(at: FileNodes.null(at: directory.file("null").path)).isEmpty)
            let zero = try FileNodes.zero(at: directory.file("zero").path)
            let endless = #expect(throws: InputFile.Unreadable.self) { try InputFile.data(at: zero, role: "the cookie file", limit: 1 << 20) }
            #expect(endless?.description == "cannot read the cookie file \(zero): it holds more than the 1048576 bytes it may")
        }
        let fifo = try FileNodes.fifo(at: directory.file("pipe").path)
        let writer = Thread {
            let descriptor = open(fifo, O_WRONLY)
            _ = "from a pipe\n".withCString { Glibc.write(descriptor, $0, 12) }
            close(descriptor)
        }
        writer.start()
        #expect(try InputFile.text(at: fifo) == "from a pipe\n")

        let latin1 = directory.file("latin1.txt").path
        try Data([0x63, 0x61, 0x66, 0xE9]).write(to: URL(fileURLWithPath: latin1))
        let cases: [(String, String)] = [
            (directory.url.path, "it is a directory"),
            (directory.file("missing").path, "no such file"),
            (latin1, "it is not UTF-8 text"),
        ]
        for (path, reason) in cases {
            let failure = #expect(throws: InputFile.Unreadable.self) { try InputFile.text(at: path, role: "the variables file") }
            #expect(failure?.description == "cannot read the variables file \(path): \(reason)")
            #expect(failure?.isMissing == (reason == "no such file"))
        }
    }
}

/// Reads a child's output a line at a time, waiting for each.
private final class LineReader {
    private let handle: FileHandle
    private var buffered = Data()

    init(_ handle: FileHandle) {
        self.handle = handle
    }

    /// The next line without its newline; `nil` at the end.
    func next() -> String? {
        while !buffered.contains(0x0A) {
            let more = handle.availableData
            if more.isEmpty { return nil }
            buffered.append(more)
        }
        let end = buffered.firstIndex(of: 0x0A)!
        let line = String(decoding: buffered[..<end], as: UTF8.self)
        buffered.removeSubrange(...end)
        return line
    }
}

/// A listening Unix domain socket at a path, closed with the object.
private final class UnixSocket {
    private let descriptor: Int32

    init(boundTo path: String) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            bytes.copyBytes(from: path.utf8.prefix(bytes.count - 1))
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    }

    deinit {
        close(descriptor)
    }
}
