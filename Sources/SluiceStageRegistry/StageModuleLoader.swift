import Foundation
import SluiceCore

/// Loads stage modules built as shared libraries, for a pipeline's `plugins:` list.
///
/// A module is a `.so` built against the same Sluice as the program that loads it, exporting two
/// C entry points: `sluice_stage_module_version`, which returns the Sluice version it was built
/// against (`SluiceVersion.compiled`), and `sluice_stage_module_register`, which registers its
/// stages with the ``StageModuleRegistrar`` it is given. The module does not carry a copy of
/// Sluice: its references to Sluice bind, when it is loaded, to the copy of the program that
/// loads it (the `sluice` runner exports its symbols for this), so both share one copy of every
/// type. A module is loaded once per process and never unloaded, since its stages live on.
public enum StageModuleLoader {
    /// Why a module could not be loaded.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// The module's path as given.
        public var path: String
        /// What went wrong.
        public var message: String

        /// The message.
        public var description: String { message }
    }

    /// The entry point returning the Sluice version a module was built against: `const char *(void)`.
    public static let versionSymbol = "sluice_stage_module_version"
    /// The entry point registering a module's stages: `void (void *registrar)`.
    public static let registerSymbol = "sluice_stage_module_register"

    private typealias VersionFunction = @convention(c) () -> UnsafePointer<UInt8>?
    private typealias RegisterFunction = @convention(c) (UnsafeMutableRawPointer) -> Void

    /// Modules loaded so far, by resolved path.
    private static let loaded = Locked<[String: [StageDescriptor]]>([:])

    /// Loads the module at `path` (once per process) and returns the stages it registers.
    /// - Throws: ``Failure`` when the file is missing, is not a shared library, was built against
    ///   another Sluice, or is not a stage module.
    public static func load(path: String) throws(Failure) -> [StageDescriptor] {
        func failure(_ message: String) -> Failure { Failure(path: path, message: message) }
        guard FileManager.default.fileExists(atPath: path) else {
            throw failure("no such file")
        }
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        return try loaded.withLock { (loaded: inout [String: [StageDescriptor]]) throws(Failure) -> [StageDescriptor] in
            if let stages = loaded[resolved] { return stages }
            let stages = try open(resolved, failure: failure)
            loaded[resolved] = stages
            return stages
        }
    }

    private static func open(_ path: String, failure: (String) -> Failure) throws(Failure) -> [StageDescriptor] {
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "unknown error"
            if reason.contains("undefined symbol") {
                throw failure(
                    "it needs symbols this program does not have, so it was built against a different Sluice than this one (\(SluiceVersion.current)), or the program does not export Sluice's symbols; rebuild the module against this runner (\(reason))"
                )
            }
            throw failure("cannot load it as a shared library: \(reason)")
        }
        var keepOpen = false
        defer { if !keepOpen { dlclose(handle) } }
        guard let versionAddress = dlsym(handle, versionSymbol) else {
            throw failure("it is not a Sluice stage module: it exports no \(versionSymbol) entry point")
        }
        let version = unsafeBitCast(versionAddress, to: VersionFunction.self)().map { String(cString: $0) } ?? "?"
        guard version == SluiceVersion.current else {
            throw failure("it was built against Sluice \(version), and this runner is Sluice \(SluiceVersion.current); rebuild the module against this runner")
        }
        guard let registerAddress = dlsym(handle, registerSymbol) else {
            throw failure("it is not a Sluice stage module: it exports no \(registerSymbol) entry point")
        }
        let registrar = StageModuleRegistrar()
        unsafeBitCast(registerAddress, to: RegisterFunction.self)(registrar.opaquePointer)
        let stages = registrar.descriptors
        guard !stages.isEmpty else {
            throw failure("it registered no stages")
        }
        keepOpen = true
        return stages
    }
}
