import ArgumentParser
import Foundation
import Sluice

/// `sluice send`'s output options, as curl names them (`-o`, `-O`, `-D`, `-i`, `-w`, `-s`, `-S`,
/// `-f`, `--fail-with-body`, `-C`, `--compressed`, `--raw`, `--create-dirs`), their rules, and the file they open.
struct SendOutputOptions: ParsableArguments {
    @Option(name: [.short, .customLong("output")], help: ArgumentHelp(
        "Write the body to this file instead of standard output (- is standard output), as curl writes it: through to a device, FIFO or terminal; into an existing file in place, keeping its hard links, mode and owner; following a symbolic link. A regular file changes only when the transfer succeeds. Repeated, the Nth -o goes with the Nth URL.",
        valueName: "FILE"
    ))
    var outputs: [String] = []

    @Flag(name: [.customShort("O"), .customLong("remote-name")], help: "Write each body to a file in the current folder named as the URL's last path segment, as curl's -O (a URL's own -o wins).")
    var remoteName = false

    @Flag(name: .customLong("create-dirs"), help: "Create the folders an -o (or -O) file's path names that do not exist (mode 0750), as curl's --create-dirs.")
    var createDirectories = false

    @Option(name: [.customShort("D"), .customLong("dump-header")], help: ArgumentHelp("Write the response heads (every one with -L) to this file (- for standard output), as curl's -D.", valueName: "FILE"))
    var dumpHeader: String?

    @Flag(name: [.short, .customLong("include")], help: "Print the status line and headers before the body.")
    var include = false

    @Option(name: [.customShort("w"), .customLong("write-out")], help: ArgumentHelp("Printed after the body, %{http_code}, %{time_total}, %{size_download}, %{url_effective}, %{json} and the like filled in, as curl's -w (@FILE reads it from a file).", valueName: "FORMAT"))
    var writeOut: String?

    @Flag(name: [.customShort("s"), .customLong("silent")], help: "Write no error message (the exit status still says), as curl's -s; there is no progress meter to hide.")
    var silent = false

    @Flag(name: [.customShort("S"), .customLong("show-error")], help: "With -s, write error messages all the same, as curl's -S.")
    var showError = false

    @Flag(name: [.customShort("f"), .customLong("fail")], help: "Exit with status 22 when the response status is 400 or more, writing no body (an -o file stays as it was), as curl's -f: the head still goes to -D and -i, and -w's line is written.")
    var fail = false

    @Flag(name: .customLong("fail-with-body"), help: "Exit with status 22 when the response status is 400 or more, after writing the body as usual, as curl's --fail-with-body.")
    var failWithBody = false

    @Option(
        name: [.customShort("C"), .customLong("continue-at")],
        help: ArgumentHelp("Resume the download into -o FILE, as curl's -C: '-' from the file's size, or from OFFSET bytes; a 206 is appended, a 200 (the server ignored the range) rewrites the file whole, a 416 for a complete file leaves it. Without -o, the body from OFFSET to standard output (exit 33 for a 200).", valueName: "OFFSET|-")
    )
    var continueAt: String?

    @Flag(
        help: "Ask for a compressed response (deflate, gzip, br, zstd) and decode it, as curl's --compressed. sluice send always does; the flag keeps curl command lines working. A coding it does not know leaves the body as it came."
    )
    var compressed = false

    @Flag(help: "Ask for no compressed response and write the body undecoded, as it came, as curl's --raw (a request's own Accept-Encoding is still sent).")
    var raw = false

    /// `-s` without `-S`: no error message is written.
    var quiet: Bool { silent && !showError }

    func validate() throws {
        if showError, !silent {
            throw ValidationError("-S goes with -s (without -s, errors are shown anyway)")
        }
        if fail && failWithBody {
            throw ValidationError("give one of -f (write no body of a 4xx or 5xx answer) and --fail-with-body (write its body)")
        }
        if let writeOut {
            _ = try writeOutFormat(writeOut)
        }
        if let continueAt {
            guard continueAt == "-" || (Int64(continueAt).map { $0 >= 0 } ?? false) else {
                throw ValidationError("-C '\(continueAt)': give - (from the file's size) or a byte offset")
            }
        }
        if outputs.contains("") {
            throw ValidationError("-o needs a file name (- for standard output)")
        }
        if compressed && raw {
            throw ValidationError("give one of --compressed (decode the body) and --raw (leave it as it came)")
        }
    }

    /// `path` (`-o`'s, or `-O`'s name), opened as an `OutputFile`: the head (with `-i`) and the
    /// body are written to it as they arrive, and a regular file changes only once they all have
    /// (with `-C`, as they arrive); `nil` for standard output (`-`).
    func file(at path: String) throws(SluiceError) -> OutputFile? {
        guard path != "-" else { return nil }
        if createDirectories {
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o750])
            } catch {
                throw SluiceError(kind: .fileIO, stage: "output", message: "--create-dirs: cannot create \(folder.path) for \(path): \((error as NSError).localizedDescription)")
            }
        }
        // With -C the bytes reach the file as they come, as curl's -o writes them, so that a
        // run cut short leaves what it got for the next -C - to go on from.
        return try OutputFile(path: path, replacement: continueAt == nil ? .onCommit : .asWritten, role: "the download", stage: "output")
    }

    /// The `-w` format, read from a file for `@FILE` (`@-` standard input, as curl's).
    func writeOutFormat(_ argument: String) throws -> WriteOut {
        var format = argument
        if argument == "@-" {
            format = String(decoding: try DataPiece.contents(of: "-", role: "standard input"), as: UTF8.self)
        } else if argument.hasPrefix("@") {
            do {
                format = try InputFile.text(at: String(argument.dropFirst()), role: "the -w file")
            } catch {
                throw ValidationError("-w: \(error.description)")
            }
        }
        do {
            return try WriteOut(format)
        } catch {
            throw ValidationError("-w: \(error.description)")
        }
    }
}
