import Foundation

/// JSON Pointers (RFC 6901) to tape entries, for error messages. Computed by walking down from the top,
/// only when an error is being reported.
package enum JSONPointer {
  static func pointer(to target: Int, in tape: Tape) -> String {
    var pointer = ""
    var current = 0
    descending: while current != target {
      let entry = tape[current]
      switch entry.kind {
      case .object:
        var k = current + 1
        while k < entry.containerEnd {
          let valueEnd = tape.next(after: k + 1)
          if target >= k && target < valueEnd {
            pointer += "/" + escape(TapeStrings.string(tape, tape[k]))
            if target == k { break descending }
            current = k + 1
            continue descending
          }
          k = valueEnd
        }
        break descending
      case .array:
        var element = current + 1
        var position = 0
        while element < entry.containerEnd {
          let elementEnd = tape.next(after: element)
          if target >= element && target < elementEnd {
            pointer += "/\(position)"
            current = element
            continue descending
          }
          element = elementEnd
          position += 1
        }
        break descending
      default:
        break descending
      }
    }
    return pointer
  }

  package static func escape(_ token: String) -> String {
    guard token.contains("~") || token.contains("/") else { return token }
    return token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
  }
}
