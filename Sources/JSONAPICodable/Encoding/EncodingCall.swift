/// One call of an encoding entry point (`encode`, `including:`, `for:`, changes, graph, Atomic
/// Operations): the encoder's settings, read once, and one type cache that every Codable walk of
/// the call shares — started from what earlier calls of any encoder learnt, and kept for later
/// ones when the call ends (``JSONAPIEncoder/withCall(_:)``).
struct EncodingCall {
  /// The call's settings. A stage that needs others (a request body never collects related
  /// resources) works with an ``adjusted(_:)`` copy, which shares the type cache.
  private(set) var options: EncodingOptions
  /// What the call knows of types: traits depend on the type alone, not on the settings.
  let traits: EncodingTypeTraitsCache

  init(options: EncodingOptions, traits: EncodingTypeTraitsCache = EncodingTypeTraitsCache()) {
    self.options = options
    self.traits = traits
  }

  /// The same call with some settings changed.
  func adjusted(_ change: (inout EncodingOptions) -> Void) -> EncodingCall {
    var call = self
    change(&call.options)
    return call
  }

  /// The root of a Codable walk of a value of `type`, streaming its primary data to `stream`
  /// when one is given.
  func root(for type: Any.Type, stream: PrimaryDataStream? = nil) -> EncoderImpl {
    EncoderImpl.root(
      for: type, context: EncodingContext(options: options, stream: stream, traits: traits))
  }
}
