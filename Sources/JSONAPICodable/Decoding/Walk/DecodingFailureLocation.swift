/// Where in the document a `DecodingError` of ``JSONAPIDecoder`` happened, attached as the
/// context's `underlyingError` so that ``JSONAPIErrorObject/init(describing:)`` can fill
/// `source.pointer` without reading the message.
///
/// For a value of the wrong type or `null`, ``pointer`` is the value itself. For a missing member
/// (`keyNotFound`), ``pointer`` is the object that lacks it (a pointer must name an existing value)
/// and ``missingMember`` the path the member would have: `"/data/attributes/title"` for a field of
/// a resource (the decoder cannot tell an absent attribute from an absent relationship, so a field
/// is given under `attributes`), `"/data/id"` for `type`/`id`/`lid`, `"/meta/total"` elsewhere.
/// The member is named by the model's coding key, before any key decoding strategy.
///
/// Printing a `DecodingError` prints this value after "Underlying error: " (Swift 6.2 and later)
/// or inside `Optional(…)` of the context dump (earlier runtimes, through `debugDescription`), so
/// both descriptions are a phrase a person reads, never the memberwise dump of an internal type.
struct DecodingFailureLocation: Error, Sendable, Hashable {
  /// A JSON Pointer (RFC 6901) to the value at fault, or to the object missing a member.
  let pointer: String
  /// For a missing member: the pointer it would have.
  var missingMember: String?
}

extension DecodingFailureLocation: CustomStringConvertible, CustomDebugStringConvertible {
  /// "the value at JSON Pointer /data/attributes/age", or for a missing member "no value at JSON
  /// Pointer /data/attributes/title". No final period: the standard library follows it with its
  /// own punctuation, or with nothing.
  var description: String {
    if let missingMember { return "no value at JSON Pointer \(missingMember)" }
    return pointer.isEmpty ? "the whole document" : "the value at JSON Pointer \(pointer)"
  }

  var debugDescription: String { description }
}
