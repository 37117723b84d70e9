import Foundation

/// The member names JSON:API gives a resource object, and the one home of their spellings.
///
/// The reader matches them on UTF-8 bytes (``init(utf8:)``, escaped names unescaped first by the tape),
/// the encoder on strings (``init(_:)``); key strategies leave the identity and `meta`/`links` names
/// alone (``isExemptFromKeyStrategies``). Digest R12-R14, R21-R24, R34.
package enum ResourceMemberName: UInt8, CaseIterable, Sendable {
  case type, id, lid, attributes, relationships, links, meta

  /// The member name as JSON:API spells it.
  package var text: String {
    switch self {
    case .type: return "type"
    case .id: return "id"
    case .lid: return "lid"
    case .attributes: return "attributes"
    case .relationships: return "relationships"
    case .links: return "links"
    case .meta: return "meta"
    }
  }

  /// Whether a key strategy leaves this name alone: the identity members and the resource's own
  /// `meta` and `links`, which are never attributes or relationships.
  var isExemptFromKeyStrategies: Bool { self != .attributes && self != .relationships }

  /// Whether the name is one of a resource's identity members (`type`, `id`, `lid`).
  package var isIdentity: Bool { self == .type || self == .id || self == .lid }

  /// The member called `name`, if JSON:API defines it. Lengths first: most names are fields, and a
  /// failing string comparison is a call into the runtime.
  @inline(__always) package init?(_ name: String) {
    switch name.utf8.count {
    case 2 where name == "id": self = .id
    case 3 where name == "lid": self = .lid
    case 4 where name == "type": self = .type
    case 4 where name == "meta": self = .meta
    case 5 where name == "links": self = .links
    case 10 where name == "attributes": self = .attributes
    case 13 where name == "relationships": self = .relationships
    default: return nil
    }
  }

  /// The member spelled by these (unescaped) UTF-8 bytes; by length first, then `memcmp`.
  @inline(__always) init?(utf8 raw: UnsafeBufferPointer<UInt8>) {
    switch raw.count {
    case 2 where raw.equals("id"): self = .id
    case 3 where raw.equals("lid"): self = .lid
    case 4 where raw.equals("type"): self = .type
    case 4 where raw.equals("meta"): self = .meta
    case 5 where raw.equals("links"): self = .links
    case 10 where raw.equals("attributes"): self = .attributes
    case 13 where raw.equals("relationships"): self = .relationships
    default: return nil
    }
  }
}
