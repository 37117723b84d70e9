import Foundation

extension EncodedNode {
  /// How deep ``sameObjects(_:_:depth:)`` compares before it answers `false`: deeper trees are
  /// taken apart as they come, which is always right, only slower.
  private static let samenessDepthLimit = 32

  /// ``sameObjects(_:_:depth:)`` for any two values, `depth` levels down.
  private func isSame(as other: EncodedNode, depth: Int) -> Bool {
    switch (self, other) {
    case (.null, .null), (.nullRelated, .nullRelated): return true
    case (.bool(let first), .bool(let second)): return first == second
    case (.integer(let first), .integer(let second)): return first == second
    case (.number(let first), .number(let second)), (.string(let first), .string(let second)):
      return Self.sameUTF8(first, second)
    case (.object(let first), .object(let second)):
      return first === second || Self.sameObjects(first, second, depth: depth + 1)
    case (.array(let first), .array(let second)):
      guard first !== second else { return true }
      guard depth < Self.samenessDepthLimit, first.stream == nil, second.stream == nil,
        first.holdsRelatedResources == second.holdsRelatedResources,
        first.elements.count == second.elements.count
      else { return false }
      for index in first.elements.indices
      where !first.elements[index].isSame(as: second.elements[index], depth: depth + 1) {
        return false
      }
      return true
    default:
      return false
    }
  }

  /// Whether two encoded objects not yet taken apart are the same: the same cases, roles, member
  /// names in the same order and the same UTF-8, so that taking them apart and writing them gives
  /// the same bytes and the same related resources. `false` whenever that is not sure (members
  /// already classified, a value already assembled, trees deeper than a limit): callers then take
  /// the object apart themselves.
  ///
  /// Strings compare by their UTF-8, not by `==`, which equates canonically equivalent text that is
  /// written differently.
  static func sameObjects(_ first: EncodedObject, _ second: EncodedObject, depth: Int = 0) -> Bool {
    guard depth < samenessDepthLimit, first.role == second.role, first.count == second.count
    else { return false }
    // By position: iterating would hold the arrays, and each member copy retains its value.
    for position in 0..<first.count {
      guard first.members[position].kind == .none, second.members[position].kind == .none,
        sameUTF8(first.members[position].key, second.members[position].key),
        first.members[position].value.isSame(as: second.members[position].value, depth: depth)
      else { return false }
    }
    return true
  }

  /// The two words of a string (its count and flags, and its storage or its bytes, when small).
  @inline(__always) private static func bits(of string: String) -> (UInt64, UInt64) {
    withUnsafeBytes(of: string) {
      (
        $0.loadUnaligned(fromByteOffset: 0, as: UInt64.self),
        $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
      )
    }
  }

  /// Whether two strings have the same UTF-8 bytes.
  private static func sameUTF8(_ first: String, _ second: String) -> Bool {
    // The same bits are the same storage, or the same small string: copies of one model's text
    // and member names from one set of coding keys, most of what is compared, stop here.
    if MemoryLayout<String>.size == 16, bits(of: first) == bits(of: second) { return true }
    let count = first.utf8.count
    guard count == second.utf8.count else { return false }
    let compared = first.utf8.withContiguousStorageIfAvailable { firstBytes in
      second.utf8.withContiguousStorageIfAvailable { secondBytes in
        guard let a = firstBytes.baseAddress, let b = secondBytes.baseAddress else { return true }
        return a == b || memcmp(a, b, count) == 0
      }
    }
    if let compared, let same = compared { return same }
    return first.utf8.elementsEqual(second.utf8)
  }
}
