import Foundation

/// What a keyed container reads. Kept outside the generic container: nested in it, the enum would be
/// generic too, and every copy would look its metadata up at run time.
enum KeyedContainerSource {
  /// A plain object. `dataRole` gives the member `data` its meaning in a document or relationship.
  case object(MemberLookup, dataRole: DecodingNode.Role?)
  case resource(ResourceMembers)

  /// The node for `key`: for a resource, identity members, its own meta/links, then relationships, then
  /// attributes.
  func find(_ name: String, in decoder: DecoderImpl) -> DecodingNode? {
    let tape = decoder.tape
    switch self {
    case .object(let lookup, let dataRole):
      guard let value = lookup.value(for: name, in: tape) else { return nil }
      if let dataRole, name == "data" { return DecodingNode(index: value, role: dataRole) }
      return DecodingNode(index: value, role: .json)
    case .resource(let members):
      var bytes = name
      return bytes.withUTF8 { Self.find(name, utf8: $0, in: members, decoder: decoder) }
    }
  }

  /// Resource lookup on the key's bytes: identity members and the resource's own meta/links, then
  /// relationships, then attributes.
  private static func find(
    _ name: String, utf8: UnsafeBufferPointer<UInt8>, in members: ResourceMembers,
    decoder: DecoderImpl
  ) -> DecodingNode? {
    let tape = decoder.tape
    switch ResourceMemberName(utf8: utf8) {
    case .id?: return members.id.map { DecodingNode(index: $0, role: .identityString) }
    case .lid?: return members.lid.map { DecodingNode(index: $0, role: .identityString) }
    case .type?: return members.type.map { DecodingNode(index: $0, role: .identityString) }
    case .meta? where members.meta != nil:
      return members.meta.map { DecodingNode(index: $0, role: .json) }
    case .links? where members.links != nil:
      return members.links.map { DecodingNode(index: $0, role: .json) }
    default:
      break
    }
    if let relationship = members.relationships?.value(for: name, utf8: utf8, in: tape) {
      return DecodingNode(index: relationship, role: .relationshipObject)
    }
    return members.attributes?.value(for: name, utf8: utf8, in: tape).map {
      DecodingNode(index: $0, role: .json)
    }
  }
}
