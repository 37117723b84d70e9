import Foundation

/// Walking and searching the members of an object entry in the tape.
extension Tape {
  /// Calls `body` with the tape index of each member name (its value is at `name + 1`).
  @inline(__always) func forEachMember(
    ofObjectAt objectIndex: Int, _ body: (_ nameIndex: Int) throws -> Void
  ) rethrows {
    let end = self[objectIndex].containerEnd
    var k = objectIndex + 1
    while k < end {
      try body(k)
      k = next(after: k + 1)
    }
  }

  /// The tape index of the value of the member named `name` (ASCII, no escapes needed), if present.
  @inline(__always) func memberValue(ofObjectAt objectIndex: Int, named name: StaticString) -> Int?
  {
    memberValue(
      ofObjectAt: objectIndex,
      utf8: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
  }

  /// The tape index of the value of the member whose (unescaped) name is these UTF-8 bytes.
  @inline(__always) func memberValue(
    ofObjectAt objectIndex: Int, utf8 key: UnsafeBufferPointer<UInt8>
  )
    -> Int?
  {
    let end = self[objectIndex].containerEnd
    var k = objectIndex + 1
    while k < end {
      if TapeStrings.equals(self, self[k], key) { return k + 1 }
      k = next(after: k + 1)
    }
    return nil
  }

  /// The member JSON:API gives a resource object that the name at `nameIndex` spells, escaped or
  /// not (`"\u0074ype"` is `type`).
  @inline(__always) func resourceMemberName(at nameIndex: Int) -> ResourceMemberName? {
    let entry = self[nameIndex]
    guard entry.hasFlag else { return ResourceMemberName(utf8: rawBytes(entry)) }
    return TapeStrings.unescaped(rawBytes(entry)).withUnsafeBufferPointer {
      ResourceMemberName(utf8: $0)
    }
  }
}
