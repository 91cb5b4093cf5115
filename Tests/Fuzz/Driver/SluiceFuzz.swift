import Foundation
import SluiceFuzzTargets

#if SLUICE_FUZZING
/// libFuzzer's driver (from the `libclang_rt.fuzzer_no_main` runtime `scripts/fuzz` links): parses
/// libFuzzer's options from the command line and calls `callback` with each input it makes.
@_silgen_name("LLVMFuzzerRunDriver")
private func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The target named by `SLUICE_FUZZ_TARGET`, read once: the callback below cannot capture it.
private let selectedTarget = ProcessInfo.processInfo.environment["SLUICE_FUZZ_TARGET"].flatMap(FuzzTarget.init(rawValue:))

/// Under libFuzzer (`scripts/fuzz` builds with SanitizerCoverage, ASan and `-DSLUICE_FUZZING`):
/// runs the target named by `SLUICE_FUZZ_TARGET` over every input libFuzzer makes.
@main
enum SluiceFuzzDriver {
    static func main() {
        guard selectedTarget != nil else {
            FileHandle.standardError.write(Data("SLUICE_FUZZ_TARGET must be one of: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))\n".utf8))
            exit(2)
        }
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(runFuzzerDriver(&argc, &argv) { data, size in
            selectedTarget!.run(size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size)))
            return 0
        })
    }
}
#else
/// Without libFuzzer, `sluice-fuzz TARGET FILE|DIRECTORY...` replays inputs through a target:
/// a crash found by `scripts/fuzz` can be debugged in a plain build.
@main
enum SluiceFuzzReplay {
    static func main() throws {
        let arguments = CommandLine.arguments.dropFirst()
        guard let name = arguments.first, let target = FuzzTarget(rawValue: name) else {
            print("usage: sluice-fuzz TARGET FILE|DIRECTORY...; targets: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))")
            exit(2)
        }
        var count = 0
        for path in arguments.dropFirst() {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                print("sluice-fuzz: no file or directory \(path)")
                exit(2)
            }
            let files = isDirectory.boolValue
                ? try FileManager.default.contentsOfDirectory(atPath: path).sorted().map { "\(path)/\($0)" }
                : [path]
            for file in files {
                target.run(Array(try Data(contentsOf: URL(fileURLWithPath: file))))
                count += 1
            }
        }
        print("sluice-fuzz: \(count) inputs through \(target.rawValue), no failure")
    }
}
#endif
