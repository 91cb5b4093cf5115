import SluiceAWSSigV4
import SluiceHAR
import SluiceHMACSignature
import SluiceOAuth2
import SluiceRetry
import Sluice
import SluiceReachability
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceLoad

/// The stages the runner knows: the built-in ones and those of every module under `Plugins/`.
/// (A pipeline's `plugins:` adds more while it loads.)
enum StageCatalog {
    /// The modules under `Plugins/`, in the order `sluice stages` lists them.
    static var modules: [any StageModule.Type] {
        [
            RetryModule.self,
            AWSSigV4Module.self,
            HMACSignatureModule.self,
            OAuth2Module.self,
            HARModule.self,
        ]
    }

    /// The built-in stages and the modules' stages.
    /// - Throws: `.configuration` if two modules name a stage alike.
    static func registry() throws(SluiceError) -> StageRegistry {
        var registry = StageRegistry.builtIn
        for module in modules {
            try registry.register(module)
        }
        return registry
    }
}
