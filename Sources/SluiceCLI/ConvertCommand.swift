import ArgumentParser
import SluiceHurlFiles
import SluicePipelineFiles

/// `sluice convert`: a Hurl file as the equivalent pipeline file.
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Prints the pipeline file a Hurl file is equivalent to.",
        discussion: """
            The YAML is what `sluice run FILE.hurl` runs: the same requests, checks and captures in the pipeline format's words (pipelines/README.md, "Hurl files"). A construct with no pipeline spelling is an error at its FILE:LINE:COLUMN; nothing is dropped.

            Exit status: 0 when the file was converted, 2 otherwise.
            """
    )

    @Argument(help: ArgumentHelp("The Hurl file.", valueName: "FILE.hurl"))
    var file: String

    @OptionGroup(title: "Hurl's command line, written into the converted file") var hurl: HurlCommandLineOptions

    @Option(name: [.customShort("H"), .long], help: ArgumentHelp("Hurl's --header: a header every entry sends after its own and before its header options, written into the file (repeatable).", valueName: "NAME: VALUE"))
    var header: [String] = []

    @Option(name: [.customShort("u"), .long], help: ArgumentHelp("With --digest: each entry's credential, written into the file.", valueName: "USER:PASSWORD"))
    var user: String?

    func validate() throws {
        if user != nil, !hurl.digest { throw ValidationError("-u goes with --digest here: sluice run -u sends Basic to every request of any file, and a converted file does not hold it") }
    }

    func run() throws {
        var defaults = try hurl.defaults(user: user) ?? HurlDefaults()
        defaults.headerLines = try HurlCommandLineOptions.headerLines(header)
        Terminal.write(try HurlPipelineFile.yamlText(path: file, defaults: defaults))
    }
}
