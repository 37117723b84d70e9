/// Content negotiation as a JSON:API server must do it: checks a request's `Content-Type` and
/// `Accept` headers against the extensions and profiles the server supports, and says which
/// `Content-Type` to answer with.
///
/// - `Content-Type` must be `application/vnd.api+json` with no parameters but `ext` and
///   `profile`, and every extension in `ext` must be supported; otherwise `415`. Unknown profiles
///   are ignored.
/// - In `Accept`, JSON:API entries with other parameters, with an unsupported extension, or with
///   `q=0` are ignored. The best remaining entry (highest `q`, then first) decides the response's
///   `ext` and the supported part of its `profile`. With none left, a wildcard (`*/*`,
///   `application/*`) still allows the plain media type; otherwise `406`. No `Accept` header
///   accepts anything.
///
/// ```swift
/// let negotiation = JSONAPIContentNegotiation(
///   supportedExtensions: ["https://jsonapi.org/ext/atomic"])
/// let mediaType = try negotiation.negotiate(headers: request.headers, hasBody: !body.isEmpty)
/// responseHeaders["Content-Type"] = mediaType.headerValue
/// if negotiation.sendsVaryAccept { responseHeaders["Vary"] = "Accept" }
/// ```
public struct JSONAPIContentNegotiation: Sendable, Hashable {
  /// URIs of the extensions the server supports.
  public var supportedExtensions: Set<String>
  /// URIs of the profiles the server applies when asked.
  public var supportedProfiles: Set<String>

  /// Creates a negotiation for a server supporting these extensions and profiles; by default
  /// none, which is JSON:API 1.0 behaviour.
  public init(supportedExtensions: Set<String> = [], supportedProfiles: Set<String> = []) {
    self.supportedExtensions = supportedExtensions
    self.supportedProfiles = supportedProfiles
  }

  /// Whether responses should carry `Vary: Accept`: the server supports an extension or a
  /// profile, so the response depends on `Accept`.
  public var sendsVaryAccept: Bool { !supportedExtensions.isEmpty || !supportedProfiles.isEmpty }

  /// Checks a request's headers, as a dictionary, and returns the media type to answer with.
  ///
  /// Header names are matched without regard to case (`content-type`, as HTTP/2 sends it, is
  /// `Content-Type`), as ``negotiate(headers:hasBody:)-(Sequence<(String,String)>,_)`` does.
  ///
  /// ```swift
  /// let mediaType = try JSONAPIContentNegotiation().negotiate(
  ///   headers: ["accept": "application/vnd.api+json"], hasBody: false)
  /// ```
  ///
  /// - Parameters:
  ///   - headers: The request's header fields by name.
  ///   - hasBody: Whether the request has a body. A body without `Content-Type` is refused (`415`);
  ///     a `Content-Type` is checked whenever it is sent.
  /// - Returns: The `Content-Type` to answer with, with the `ext` and `profile` applied.
  /// - Throws: As ``negotiate(accept:contentType:)``.
  public func negotiate(headers: [String: String], hasBody: Bool) throws -> JSONAPIMediaType {
    try negotiate(headers: headers.lazy.map { ($0.key, $0.value) }, hasBody: hasBody)
  }

  /// Checks a request's header fields and returns the media type to answer with.
  ///
  /// Pass the fields as your framework gives them: Vapor's `HTTPHeaders` is such a sequence, and
  /// for Hummingbird's `HTTPFields` map each field to `($0.name.rawName, $0.value)`. Names are
  /// matched without regard to case; several `Accept` fields are joined with `,` as HTTP allows,
  /// and several `Content-Type` fields are refused.
  ///
  /// ```swift
  /// let mediaType = try negotiation.negotiate(
  ///   headers: request.headers.map { ($0.name.rawName, $0.value) }, hasBody: !body.isEmpty)
  /// ```
  ///
  /// - Parameters:
  ///   - headers: The request's header fields as `(name, value)` pairs, in the order received.
  ///   - hasBody: Whether the request has a body. A body without `Content-Type` is refused (`415`);
  ///     a `Content-Type` is checked whenever it is sent.
  /// - Returns: The `Content-Type` to answer with, with the `ext` and `profile` applied.
  /// - Throws: As ``negotiate(accept:contentType:)``.
  public func negotiate(headers: some Sequence<(String, String)>, hasBody: Bool) throws
    -> JSONAPIMediaType
  {
    var accept: String?
    var contentTypes: [String] = []
    for (name, value) in headers {
      if Self.isNamed(name, "accept") {
        accept = accept.map { $0 + ", " + value } ?? value
      } else if Self.isNamed(name, "content-type") {
        contentTypes.append(value)
      }
    }
    // Several Content-Type fields cannot be joined into one media type (RFC 9110 §5.3); joined,
    // a quoted string opened in one and closed in the next would read as a single valid value.
    if contentTypes.count > 1 {
      throw JSONAPINegotiationError.unsupportedMediaType(
        contentType: contentTypes.joined(separator: ", "),
        reason: "send one `Content-Type` header, not \(contentTypes.count)")
    }
    return try negotiate(accept: accept, contentType: contentTypes.first ?? (hasBody ? "" : nil))
  }

  /// The extensions and profiles a request applies to its body: its `Content-Type` read as a
  /// JSON:API media type, or `nil` when it sends none or another type (R60). Call it after
  /// ``negotiate(headers:hasBody:)-(Sequence<(String,String)>,_)`` has accepted the request, to
  /// tell which extension the body follows, such as Atomic Operations:
  ///
  /// ```swift
  /// let applied = JSONAPIContentNegotiation.requestMediaType(headers: fields)
  /// if applied?.extensions.contains(JSONAPIMediaType.atomicExtension) != true {
  ///   // 415: an Atomic Operations request declares the extension
  /// }
  /// ```
  public static func requestMediaType(headers: some Sequence<(String, String)>)
    -> JSONAPIMediaType?
  {
    var found: String?
    for (name, value) in headers where isNamed(name, "content-type") {
      guard found == nil else { return nil }
      found = value
    }
    return found.flatMap(JSONAPIMediaType.init(headerValue:))
  }

  /// Whether a header field's `name` is `lowercased`, ignoring ASCII case (RFC 9110 §5.1).
  private static func isNamed(_ name: String, _ lowercased: String) -> Bool {
    name.utf8.count == lowercased.utf8.count
      && zip(name.utf8, lowercased.utf8).allSatisfy { pair in
        let byte =
          pair.0 >= UInt8(ascii: "A") && pair.0 <= UInt8(ascii: "Z") ? pair.0 | 0x20 : pair.0
        return byte == pair.1
      }
  }

  /// Checks the request's `Accept` and `Content-Type` values and returns the media type to answer
  /// with.
  ///
  /// ```swift
  /// try JSONAPIContentNegotiation().negotiate(
  ///   accept: "application/vnd.api+json", contentType: "application/vnd.api+json; charset=utf-8")
  /// // throws JSONAPINegotiationError.unsupportedMediaType (415)
  /// ```
  ///
  /// - Parameters:
  ///   - accept: The `Accept` header, `nil` when absent (anything is accepted). Several `Accept`
  ///     headers are joined with `,`.
  ///   - contentType: The `Content-Type` header of a request with a body; `nil` for a request
  ///     without one. Pass `""` for a body sent without `Content-Type`.
  /// - Returns: The `Content-Type` to answer with, with the `ext` and `profile` applied.
  /// - Throws: ``JSONAPINegotiationError/unsupportedMediaType(contentType:reason:)`` (415), checked
  ///   first, or ``JSONAPINegotiationError/notAcceptable(accept:reason:)`` (406).
  public func negotiate(accept: String?, contentType: String?) throws -> JSONAPIMediaType {
    if let contentType { try check(contentType: contentType) }
    guard let accept, !accept.allSatisfy({ $0 == " " || $0 == "\t" }) else {
      return JSONAPIMediaType()
    }
    var best: (range: MediaRange, quality: Double)?
    var wildcard = false
    var sawJSONAPI = false
    for entry in HeaderParameters.splitList(accept) {
      let range = MediaRange(entry)
      guard range.quality > 0 else { continue }
      if range.coversJSONAPI { wildcard = true }
      guard range.isJSONAPI else { continue }
      sawJSONAPI = true
      guard range.foreignParameters.isEmpty,
        range.uris("ext").allSatisfy(supportedExtensions.contains)
      else { continue }
      if best.map({ range.quality > $0.quality }) ?? true { best = (range, range.quality) }
    }
    if let best {
      return JSONAPIMediaType(
        extensions: best.range.uris("ext"),
        profiles: best.range.uris("profile").filter(supportedProfiles.contains))
    }
    if wildcard { return JSONAPIMediaType() }
    throw JSONAPINegotiationError.notAcceptable(
      accept: accept,
      reason: sawJSONAPI
        ? "every JSON:API entry has a parameter other than `ext` and `profile` or an unsupported "
          + "extension"
        : "it does not accept \(JSONAPIMediaType.name)")
  }

  private func check(contentType: String) throws {
    guard !contentType.allSatisfy({ $0 == " " || $0 == "\t" }) else {
      throw JSONAPINegotiationError.unsupportedMediaType(
        contentType: contentType,
        reason: "send `Content-Type: \(JSONAPIMediaType.name)`")
    }
    let range = MediaRange(Substring(contentType), isAcceptEntry: false)
    guard range.isJSONAPI else {
      throw JSONAPINegotiationError.unsupportedMediaType(
        contentType: contentType,
        reason: "request documents must be sent as \(JSONAPIMediaType.name)")
    }
    if let foreign = range.foreignParameters.first {
      throw JSONAPINegotiationError.unsupportedMediaType(
        contentType: contentType,
        reason: foreign == "ext" || foreign == "profile"
          ? "the parameter `\(foreign)` has no value"
          : "the parameter `\(foreign)` is not allowed; only `ext` and `profile` are")
    }
    if let unsupported = range.uris("ext").first(where: { !supportedExtensions.contains($0) }) {
      throw JSONAPINegotiationError.unsupportedMediaType(
        contentType: contentType, reason: "the extension \(unsupported) is not supported")
    }
  }
}
