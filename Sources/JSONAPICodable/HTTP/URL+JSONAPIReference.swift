import Foundation

extension URL {
  /// A URL from link, `Location` or request-target text that a server or a client wrote, read
  /// the same way on every platform.
  ///
  /// Servers write links such as `/articles?page[number]=2` or `/people/café` that are not valid
  /// RFC 3986 URI references. `URL(string:)` parses such text strictly on older systems (iOS 16,
  /// macOS 13 and earlier: `nil`) and encodes it on newer ones, so the same document pages on one
  /// device and stops on another. This initializer first percent-encodes, as UTF-8 `%XX`, every
  /// character RFC 3986 does not allow where it stands: spaces and other controls, `"`, `<`, `>`,
  /// `\`, `^`, the backtick, `{`, `|`, `}`, non-ASCII characters, `[` and `]` outside the host, a
  /// second `#`, and a `%` that is not followed by two hexadecimal digits. Valid `%XX` escapes and
  /// every reserved character (`:/?#@!$&'()*+,;=`) are kept as they are, so text that is already
  /// valid is not changed. The result is then given to `URL(string:relativeTo:)`.
  ///
  /// ```swift
  /// let base = URL(string: "https://api.example.com/articles")!
  /// let next = URL(jsonAPIReference: "?page[number]=2", relativeTo: base)?.absoluteString
  /// // "https://api.example.com/articles?page%5Bnumber%5D=2"
  /// ```
  ///
  /// A `URL`-typed attribute does not go through this: it decodes with `URL(string:)`, as
  /// `JSONDecoder` does.
  ///
  /// - Parameters:
  ///   - text: An absolute URL or a relative reference, as the server wrote it.
  ///   - base: What a relative reference resolves against, usually the URL that answered.
  /// - Returns: `base` itself when `text` is empty (the same document, RFC 3986 §5.2.2); `nil`
  ///   when `text` is empty without a base, or when Foundation cannot read even the encoded text
  ///   (such as a port that is not a number).
  public init?(jsonAPIReference text: String, relativeTo base: URL? = nil) {
    // Platforms disagree on `URL(string: "")`, so the empty reference is answered here.
    if text.isEmpty {
      guard let base else { return nil }
      self = base
      return
    }
    guard let url = URL(string: URIReference.encoded(text), relativeTo: base) else { return nil }
    self = url
  }
}

/// The percent-encoding behind `URL(jsonAPIReference:relativeTo:)`
/// (RFC 3986 §2, §3).
enum URIReference {
  /// `text` with every byte that RFC 3986 does not allow where it stands written as `%XX`; `text`
  /// itself when nothing needs encoding.
  static func encoded(_ text: String) -> String {
    let bytes = Array(text.utf8)
    let authority = authorityRange(bytes)
    var fragmentStarted = false
    var output: [UInt8] = []
    var changed = false
    output.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      let keep: Bool
      switch byte {
      case UInt8(ascii: "%"):
        // Kept only as the start of an escape (`%5B`); a lone `%` is itself encoded.
        keep =
          index + 2 < bytes.count && Hexadecimal.byte(bytes[index + 1], bytes[index + 2]) != nil
      case UInt8(ascii: "["), UInt8(ascii: "]"):
        // Allowed only around an IP literal in the host (`http://[::1]/`).
        keep = authority.contains(index)
      case UInt8(ascii: "#"):
        // The first `#` starts the fragment; a fragment cannot contain another.
        keep = !fragmentStarted
        fragmentStarted = true
      default:
        keep = isAllowed(byte)
      }
      if keep {
        output.append(byte)
      } else {
        Hexadecimal.appendPercentEscape(byte, to: &output)
        changed = true
      }
      index += 1
    }
    return changed ? String(decoding: output, as: UTF8.self) : text
  }

  /// Where the authority (`user@host:port`) is: after `scheme://` or a leading `//`, up to the
  /// next `/`, `?` or `#` (RFC 3986 §3.2). Empty when there is none.
  private static func authorityRange(_ bytes: [UInt8]) -> Range<Int> {
    var start = 0
    // A scheme: a letter, then letters, digits, `+`, `-` or `.`, then `:` (RFC 3986 §3.1).
    if let first = bytes.first, isLetter(first) {
      var index = 1
      while index < bytes.count, isSchemeCharacter(bytes[index]) { index += 1 }
      if index < bytes.count, bytes[index] == UInt8(ascii: ":") { start = index + 1 }
    }
    guard start + 1 < bytes.count, bytes[start] == UInt8(ascii: "/"),
      bytes[start + 1] == UInt8(ascii: "/")
    else { return 0..<0 }
    let authorityStart = start + 2
    var end = authorityStart
    while end < bytes.count, bytes[end] != UInt8(ascii: "/"), bytes[end] != UInt8(ascii: "?"),
      bytes[end] != UInt8(ascii: "#")
    {
      end += 1
    }
    return authorityStart..<end
  }

  /// Unreserved characters, and the reserved ones other than `[`, `]` and `#`, which depend on
  /// where they stand (RFC 3986 §2.2, §2.3).
  private static func isAllowed(_ byte: UInt8) -> Bool {
    if isLetter(byte) || isDigit(byte) { return true }
    switch byte {
    case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
      UInt8(ascii: ":"), UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "@"),
      UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"),
      UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"),
      UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="):
      return true
    default:
      return false
    }
  }

  private static func isLetter(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
      || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
  }

  private static func isDigit(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
  }

  private static func isSchemeCharacter(_ byte: UInt8) -> Bool {
    isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
      || byte == UInt8(ascii: ".")
  }
}
