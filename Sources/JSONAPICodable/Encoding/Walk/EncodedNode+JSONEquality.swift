extension EncodedNode {
  /// Whether `self` and `other` write the same JSON value: what a server receiving either would
  /// read. ``ChangeSet`` compares the two versions of a resource's members with it, so models need
  /// no `Equatable`.
  ///
  /// - Numbers compare by their text (an integer by its decimal text), which is what the writer
  ///   sends; the same Swift type always writes the same value the same way.
  /// - Strings compare by their UTF-8 bytes, not by Swift's canonical equivalence: two spellings
  ///   of "é" are different bytes on the wire, and a server may store them differently.
  /// - Objects compare as JSON objects, which are unordered: the same names with equal values, in
  ///   any order (a model's `encode(to:)` may write its keys in another order than before).
  /// - Arrays compare element by element, in order.
  /// - `null` and ``nullRelated`` are both `null`.
  ///
  /// Iterative, with a stack of pairs still to compare: nesting as deep as a model can build costs
  /// no call stack, and each value is visited once (objects of 32 members or more look members up
  /// through ``EncodedObject``'s position table, so comparing stays linear).
  func writesSameJSON(as other: EncodedNode) -> Bool {
    var pending: [NodePair] = [NodePair(first: self, second: other)]
    while let pair = pending.popLast() {
      switch (pair.first, pair.second) {
      case (.null, .null), (.null, .nullRelated), (.nullRelated, .null),
        (.nullRelated, .nullRelated):
        continue
      case (.bool(let first), .bool(let second)):
        guard first == second else { return false }
      case (.integer(let first), .integer(let second)):
        guard first == second else { return false }
      case (.number(let first), .number(let second)), (.string(let first), .string(let second)):
        guard first.utf8.elementsEqual(second.utf8) else { return false }
      case (.integer(let integer), .number(let text)), (.number(let text), .integer(let integer)):
        // An integer too large for Int64 is written as text (``EncodedNode/integer(_:)``).
        guard String(integer).utf8.elementsEqual(text.utf8) else { return false }
      case (.object(let first), .object(let second)):
        if first === second { continue }
        guard first.count == second.count else { return false }
        // Member names are unique in an encoded object (`set` replaces), so equal counts and
        // every name of one found in the other mean the same names.
        for member in first.members {
          guard let position = second.position(of: member.key) else { return false }
          pending.append(NodePair(first: member.value, second: second.members[position].value))
        }
      case (.array(let first), .array(let second)):
        if first === second { continue }
        guard first.elements.count == second.elements.count else { return false }
        for index in first.elements.indices {
          pending.append(NodePair(first: first.elements[index], second: second.elements[index]))
        }
      default:
        return false
      }
    }
    return true
  }
}

/// Two values still to compare. A struct, not a tuple: an array of tuples looks up its element
/// type's metadata at run time each time one is allocated.
private struct NodePair {
  let first: EncodedNode
  let second: EncodedNode
}
