/// The traits of every type one `encode` call meets, each worked out once.
final class EncodingTypeTraitsCache {
  // Confined to one encode call on one thread: no dynamic exclusivity checks needed.
  @exclusivity(unchecked) private var known: [ObjectIdentifier: EncodingTypeTraits] = [:]

  func traits(of type: Any.Type) -> EncodingTypeTraits {
    let identifier = ObjectIdentifier(type)
    if let traits = known[identifier] { return traits }
    let traits = EncodingTypeTraits.of(type)
    known[identifier] = traits
    return traits
  }
}
