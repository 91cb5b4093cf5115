/// A stage that checks, when its pipeline is built, that it can work with the stages around it.
///
/// ``Pipeline`` calls `validate(in:)` on every stage that conforms, so a configuration that cannot
/// work (pinning on a pipeline whose base URL is plain `http`) fails at once, never when a
/// request is sent.
public protocol ChainValidating {
    /// Throws `.configuration` when the stage cannot work in this chain.
    /// - Parameter chain: every stage of the pipeline, top to bottom, this one included.
    func validate(in chain: [any Stage]) throws(SluiceError)
}
