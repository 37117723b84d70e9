import Foundation

// Validators and conditional requests (RFC 9110, sections 8.8.3 and 13): every `200` answer of a
// `GET` carries a strong `ETag` made from the bytes served, `If-None-Match` turns a read into a
// `304`, and `If-Match` guards writes. See "Versions and conditional requests" in the catalog.
extension JSONAPIServer {
  /// The strong entity tag of a representation: the 128-bit BLAKE2b digest of the exact bytes
  /// served, in hexadecimal and quoted (`"3a7bd3e2360a3d29eea436fcfb7e44c7"`).
  ///
  /// From the bytes rather than a version the store keeps, so that every store has validators
  /// without a column for them, the tag changes exactly when the answer does (an included
  /// resource, a sparse fieldset or a page is part of it), and two instances serving one database
  /// agree. 128 bits of a cryptographic hash keep the header short while two versions of one
  /// answer sharing a tag stay out of reach.
  static func entityTag(of body: Data) -> String {
    "\"" + ServedDigest.hex(body) + "\""
  }

  /// A `GET` (or `HEAD`) answer `200` with its `ETag`, then the request's conditions evaluated
  /// against it in RFC 9110's order (section 13.2.2): a false `If-Match` is `412`, a true
  /// `If-None-Match` (weak comparison) is `304` with no body.
  func conditionalRead(_ response: JSONAPIServerResponse, exchange: ServedExchange) throws
    -> JSONAPIServerResponse
  {
    let tag = Self.entityTag(of: response.body)
    var response = response
    response.headers.append(("ETag", tag))
    let request = exchange.request
    if let ifMatch = ServedCondition(request, "If-Match"), !ifMatch.matches(tag, weakly: false) {
      throw Self.preconditionFailed(header: "If-Match")
    }
    if let ifNoneMatch = ServedCondition(request, "If-None-Match"),
      ifNoneMatch.matches(tag, weakly: true)
    {
      // RFC 9110, section 15.4.5: a 304 carries the validator and no content.
      return JSONAPIServerResponse(status: 304, headers: [("ETag", tag)])
    }
    return response
  }

  /// Evaluates `If-Match` and `If-None-Match` of a write against the target's current
  /// representation, which `current` renders exactly as a `GET` of the target would (`nil` when
  /// there is none). Called inside the write's transaction, after `current` has locked the
  /// resource, so that no other write can come between the comparison and this one.
  ///
  /// `If-Match` is compared strongly (RFC 9110, section 13.1.1) and `*` needs a current
  /// representation; `If-None-Match` weakly (section 13.1.2), and `*` needs none.
  ///
  /// - Throws: `412 Precondition Failed` when a condition is false.
  func checkPreconditions(
    exchange: ServedExchange, current: () async throws -> Data?
  ) async throws {
    let ifMatch = ServedCondition(exchange.request, "If-Match")
    let ifNoneMatch = ServedCondition(exchange.request, "If-None-Match")
    // Without conditions nothing is rendered: unconditional writes cost what they did.
    guard ifMatch != nil || ifNoneMatch != nil else { return }
    let tag = try await current().map(Self.entityTag(of:))
    if let ifMatch {
      guard let tag, ifMatch.matches(tag, weakly: false) else {
        throw Self.preconditionFailed(header: "If-Match")
      }
    }
    if let ifNoneMatch, let tag, ifNoneMatch.matches(tag, weakly: true) {
      throw Self.preconditionFailed(header: "If-None-Match")
    }
  }

  /// Refuses `If-Match` on the Atomic Operations endpoint: it has no representation, so by RFC
  /// 9110 (section 13.1.1) no condition on it can be true, and quietly ignoring it would let a
  /// client believe its operations were guarded.
  ///
  /// - Throws: `412`, saying where conditions go instead.
  func refuseOperationsPreconditions(_ exchange: ServedExchange) throws {
    guard ServedCondition(exchange.request, "If-Match") != nil else { return }
    throw JSONAPIErrorObject(
      status: "412", code: "precondition-failed", title: "Precondition Failed",
      detail: "The Atomic Operations endpoint has no representation, so If-Match cannot match "
        + "it and nothing was changed: send conditional requests (If-Match) to each resource's "
        + "own endpoint (https://www.rfc-editor.org/rfc/rfc9110#section-13.1.1)",
      source: JSONAPIErrorObject.Source(header: "If-Match"))
  }

  /// The `412` error object for a false condition in `header`.
  static func preconditionFailed(header: String) -> JSONAPIErrorObject {
    let section = header == "If-Match" ? "13.1.1" : "13.1.2"
    let reason =
      header == "If-Match"
      ? "The target has changed since the version If-Match names, or it does not exist"
      : "The target has a current representation that If-None-Match names"
    return JSONAPIErrorObject(
      status: "412", code: "precondition-failed", title: "Precondition Failed",
      detail: "\(reason): nothing was changed. Read it again (GET) for its current ETag, and "
        + "send the request again with it "
        + "(https://www.rfc-editor.org/rfc/rfc9110#section-\(section))",
      source: JSONAPIErrorObject.Source(header: header))
  }
}

/// The value of `If-Match` or `If-None-Match`: `*`, or a list of entity tags (RFC 9110, section
/// 8.8.3). A field that does not follow the grammar is an empty list, which matches nothing, so
/// a garbled `If-Match` never lets a write through.
enum ServedCondition: Equatable {
  case any
  case tags([ServedEntityTag])

  /// The condition of every field named `name` in `request` (several fields are one list, RFC
  /// 9110 section 5.3); `nil` when there is none.
  init?(_ request: JSONAPIServerRequest, _ name: String) {
    let values = request.headers.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }
    guard !values.isEmpty else { return nil }
    let text = values.map(\.value).joined(separator: ",")
    if text.trimmingCharacters(in: .whitespaces) == "*" {
      self = .any
    } else {
      self = .tags(ServedEntityTag.list(text) ?? [])
    }
  }

  /// Whether the condition names `tag` (a strong tag this server made): `*` names any current
  /// representation. `weakly` compares opaque tags only (section 8.8.3.2); strongly, a weak tag
  /// matches nothing.
  func matches(_ tag: String, weakly: Bool) -> Bool {
    switch self {
    case .any: return true
    case .tags(let tags):
      return tags.contains { $0.opaque == tag && (weakly || !$0.isWeak) }
    }
  }
}

/// One entity tag of a condition's list.
struct ServedEntityTag: Equatable {
  /// Whether it was sent with `W/`.
  var isWeak: Bool
  /// The opaque tag, quotes included.
  var opaque: String

  /// The entity tags of a comma-separated list; `nil` when the list breaks the grammar.
  static func list(_ text: String) -> [ServedEntityTag]? {
    let bytes = Array(text.utf8)
    var tags: [ServedEntityTag] = []
    var index = 0
    func skipSpaces() {
      while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
    }
    while index < bytes.count {
      skipSpaces()
      // Empty list elements are allowed (RFC 9110, section 5.6.1).
      if index < bytes.count, bytes[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      guard index < bytes.count else { break }
      var isWeak = false
      if bytes[index] == UInt8(ascii: "W"), index + 1 < bytes.count,
        bytes[index + 1] == UInt8(ascii: "/")
      {
        isWeak = true
        index += 2
      }
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
      let start = index
      index += 1
      // etagc: %x21 / %x23-7E / obs-text.
      while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
        guard bytes[index] == 0x21 || bytes[index] >= 0x23 && bytes[index] != 0x7F else {
          return nil
        }
        index += 1
      }
      guard index < bytes.count else { return nil }
      index += 1
      tags.append(
        ServedEntityTag(
          isWeak: isWeak, opaque: String(decoding: bytes[start..<index], as: UTF8.self)))
      skipSpaces()
      guard index == bytes.count || bytes[index] == UInt8(ascii: ",") else { return nil }
    }
    return tags
  }
}
