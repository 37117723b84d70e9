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
  func memberValue(ofObjectAt objectIndex: Int, named name: StaticString) -> Int? {
    let key = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
    let end = self[objectIndex].containerEnd
    var k = objectIndex + 1
    while k < end {
      if TapeStrings.equals(self, self[k], key) { return k + 1 }
      k = next(after: k + 1)
    }
    return nil
  }
}
