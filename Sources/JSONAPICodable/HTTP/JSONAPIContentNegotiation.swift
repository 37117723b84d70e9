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
/// let mediaType = try negotiation.negotiate(
///   accept: headers["Accept"], contentType: body.isEmpty ? nil : headers["Content-Type"] ?? "")
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

  /// Checks the request's headers and returns the media type to answer with.
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
    let range = MediaRange(Substring(contentType))
    guard range.isJSONAPI else {
      throw JSONAPINegotiationError.unsupportedMediaType(
        contentType: contentType,
        reason: "request documents must be sent as \(JSONAPIMediaType.name)")
    }
    if let foreign = range.foreignParameters.first {
      throw JSONAPINegotiationError.unsupportedMediaType(
        contentType: contentType,
        reason: "the parameter `\(foreign)` is not allowed; only `ext` and `profile` are")
    }
    if let unsupported = range.uris("ext").first(where: { !supportedExtensions.contains($0) }) {
      throw JSONAPINegotiationError.unsupportedMediaType(
        contentType: contentType, reason: "the extension \(unsupported) is not supported")
    }
  }
}
