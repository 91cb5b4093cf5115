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

extension ChainValidating where Self: Stage {
    /// Throws `.configuration` when a ``Serialization`` stage comes below this one in `chain`: for
    /// a stage that must see the body as it is sent (a redirect resends it, a signature covers it).
    /// - Parameters:
    ///   - chain: the pipeline's stages, top to bottom.
    ///   - reason: why, for the message (`a redirect resends the serialized request`).
    public func requireSerializationAbove(in chain: [any Stage], _ reason: String) throws(SluiceError) {
        guard let index = chain.firstIndex(where: { $0.name == name }),
            chain[index...].contains(where: { $0 is Serialization })
        else { return }
        throw SluiceError(kind: .configuration, stage: name, message: "\(name) must come after serialization: \(reason)")
    }
}
