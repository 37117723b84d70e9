import Foundation

/// An entity tag (RFC 9110 §8.8.3): the version of a resource a server names in `ETag`, to be
/// sent back in `If-Match` (write only if it is still this version) or `If-None-Match` (send the
/// body only if it changed).
///
/// Read it from ``JSONAPIResponse/etag``, and hand it to a write to stop a lost update:
///
/// ```swift
/// let read = try await client.getResponse(Article.self, from: "articles/1")
/// if let version = read.etag { print(version, version.isWeak) }   // "v7" false
/// try await client.delete("articles/1", ifMatch: read.etag)
/// ```
///
/// The tag is kept exactly as the server wrote it, quotes and `W/` included, and sent back so.
public struct JSONAPIEntityTag: Sendable, Hashable, CustomStringConvertible {
  /// The tag as it travels in headers: `"v7"`, or `W/"v7"` for a weak one.
  public let headerValue: String

  /// Reads an `ETag` value: an optional `W/`, then an opaque tag in double quotes whose
  /// characters are visible ASCII other than `"` (or bytes above 0x7F); `nil` for anything else,
  /// such as a list or an unquoted word. Spaces around the tag are ignored.
  ///
  /// ```swift
  /// JSONAPIEntityTag(headerValue: #"W/"v7""#)?.isWeak   // true
  /// JSONAPIEntityTag(headerValue: "v7")                 // nil: not quoted
  /// ```
  public init?(headerValue: String) {
    let trimmed = headerValue.trimmingCharacters(in: .whitespaces)
    let bytes = Array(trimmed.utf8)
    let start = bytes.starts(with: Array("W/".utf8)) ? 2 : 0
    guard bytes.count >= start + 2, bytes[start] == UInt8(ascii: "\""),
      bytes[bytes.count - 1] == UInt8(ascii: "\"")
    else { return nil }
    let opaque = bytes[(start + 1)..<(bytes.count - 1)]
    // etagc = %x21 / %x23-7E / obs-text
    guard opaque.allSatisfy({ $0 == 0x21 || (0x23...0x7E).contains($0) || $0 >= 0x80 }) else {
      return nil
    }
    self.headerValue = trimmed
  }

  /// Whether the server marked the tag weak (`W/`): the same tag then names an equivalent
  /// version, not byte-identical bodies. RFC 9110 §13.1.1 compares `If-Match` tags strongly, so
  /// a server following it refuses a weak tag there with `412`.
  public var isWeak: Bool { headerValue.hasPrefix("W/") }

  /// The quoted tag without `W/`: what the weak comparison compares.
  var opaqueTag: Substring { isWeak ? headerValue.dropFirst(2) : Substring(headerValue) }

  /// The weak comparison of RFC 9110 §8.8.3.2: the same opaque tag, weak or not.
  func matchesWeakly(_ other: JSONAPIEntityTag) -> Bool { opaqueTag == other.opaqueTag }

  /// ``headerValue``.
  public var description: String { headerValue }
}
