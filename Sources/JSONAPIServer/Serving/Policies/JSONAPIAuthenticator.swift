import Foundation

/// What a ``JSONAPIAuthenticator`` decides about a request: who is asking, or a refusal.
public enum JSONAPIAuthentication: Sendable, Hashable {
  /// The request is answered for `requester` (policies read it as
  /// ``JSONAPIServerRequest/requester``). An API that serves anonymous requests answers them with
  /// `JSONAPIRequester(userID: nil)`.
  case requester(JSONAPIRequester)
  /// The request is answered `401 Unauthorized` before anything is read or written.
  case refused(JSONAPIAuthenticationRefusal)
}

/// Why a request was refused, as its `401` answer says it: the error object's `detail`, and the
/// `error` parameter of the `WWW-Authenticate` challenge (RFC 6750 §3.1: `invalid_token` when
/// credentials were sent and are wrong, none when none were sent).
public struct JSONAPIAuthenticationRefusal: Sendable, Hashable {
  /// The error object's `detail`: what was wrong and what to send instead.
  public var detail: String
  /// The challenge's `error` parameter, such as `invalid_token`; `nil` for none.
  public var error: String?

  /// Creates a refusal.
  public init(detail: String, error: String? = nil) {
    self.detail = detail
    self.error = error
  }
}

/// Turns a request's header fields into the ``JSONAPIRequester`` its policies see, or refuses it
/// with `401 Unauthorized`, a JSON:API error document and a `WWW-Authenticate` challenge.
///
/// Framework glue runs it before the server reads anything: a refused request never reaches the
/// store. The common case, a bearer token (RFC 6750), has ``bearer(realm:_:)``:
///
/// ```swift
/// let authenticator = JSONAPIAuthenticator.bearer(realm: "tracker") { token in
///   tokens[token].map { JSONAPIRequester(userID: $0) }   // nil: an unknown token
/// }
/// let response = await server.respond(to: request, authenticatedBy: authenticator)
/// ```
///
/// Any other scheme is an ``init(scheme:realm:authenticate:)`` closure over the header fields.
public struct JSONAPIAuthenticator: Sendable {
  /// The authentication scheme the `WWW-Authenticate` challenge names, such as `Bearer`.
  public var scheme: String
  /// The challenge's `realm`; `nil` for none.
  public var realm: String?
  /// Decides who sends the request from its header fields (names in any case).
  public var authenticate:
    @Sendable ([(name: String, value: String)]) async -> JSONAPIAuthentication

  /// Creates an authenticator for `scheme`.
  ///
  /// - Parameters:
  ///   - scheme: The scheme the challenge names (`Bearer`, `Basic`, …), an HTTP token.
  ///   - realm: The challenge's `realm`, or `nil`.
  ///   - authenticate: Reads the request's header fields; returns the requester, or a refusal.
  public init(
    scheme: String, realm: String? = nil,
    authenticate:
      @escaping @Sendable ([(name: String, value: String)]) async ->
      JSONAPIAuthentication
  ) {
    self.scheme = scheme
    self.realm = realm
    self.authenticate = authenticate
  }

  /// The longest token ``bearer(realm:_:)`` looks up; a longer one is refused unread.
  public static let maxBearerTokenLength = 4096

  /// An authenticator of `Authorization: Bearer <token>` (RFC 6750 §2.1): `requester` maps a
  /// token to who holds it, `nil` for a token it does not know. A request without the field, with
  /// another scheme, or with a token that is not a `b64token` or is longer than
  /// ``maxBearerTokenLength`` is refused without calling `requester`.
  ///
  /// ```swift
  /// let authenticator = JSONAPIAuthenticator.bearer { token in
  ///   token == "tok-ann" ? JSONAPIRequester(userID: "1") : nil
  /// }
  /// ```
  public static func bearer(
    realm: String? = nil,
    _ requester: @escaping @Sendable (String) async -> JSONAPIRequester?
  ) -> JSONAPIAuthenticator {
    JSONAPIAuthenticator(scheme: "Bearer", realm: realm) { headers in
      let fields = headers.filter {
        $0.name.caseInsensitiveCompare("Authorization") == .orderedSame
      }
      guard let field = fields.first else {
        return .refused(
          JSONAPIAuthenticationRefusal(
            detail: "The request has no credentials: send `Authorization: Bearer <token>`"))
      }
      guard fields.count == 1, let token = bearerToken(field.value) else {
        return .refused(
          JSONAPIAuthenticationRefusal(
            detail: "The Authorization header is not `Bearer <token>` with one token",
            error: "invalid_request"))
      }
      guard let found = await requester(token) else {
        return .refused(
          JSONAPIAuthenticationRefusal(
            detail: "The bearer token is unknown or expired: sign in again",
            error: "invalid_token"))
      }
      return .requester(found)
    }
  }

  /// The token of a `Bearer` credential (the scheme in any case, one or more spaces, a
  /// `b64token`), or `nil` when `value` is not one.
  static func bearerToken(_ value: String) -> String? {
    // Bounded before splitting: a header field may be long, a token here never is.
    guard value.utf8.count <= maxBearerTokenLength + 64 else { return nil }
    let parts = value.split(separator: " ")
    guard parts.count == 2, parts[0].caseInsensitiveCompare("Bearer") == .orderedSame else {
      return nil
    }
    // b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
    let token = parts[1].unicodeScalars
    let padding = token.reversed().prefix(while: { $0 == "=" }).count
    guard token.count <= maxBearerTokenLength, padding < token.count,
      token.dropLast(padding).allSatisfy({ scalar in
        scalar.isASCII
          && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
            || "-._~+/".unicodeScalars.contains(scalar))
      })
    else { return nil }
    return String(parts[1])
  }

  /// The `WWW-Authenticate` value for `refusal`: `Bearer realm="tracker", error="invalid_token"`.
  public func challenge(for refusal: JSONAPIAuthenticationRefusal) -> String {
    var parameters: [String] = []
    if let realm { parameters.append("realm=\(Self.quoted(realm))") }
    if let error = refusal.error { parameters.append("error=\(Self.quoted(error))") }
    return parameters.isEmpty ? scheme : scheme + " " + parameters.joined(separator: ", ")
  }

  /// `value` as an HTTP quoted-string.
  private static func quoted(_ value: String) -> String {
    var result = "\""
    for character in value {
      if character == "\"" || character == "\\" { result.append("\\") }
      // A control character would end the header field: it is left out.
      if character.isASCII, let ascii = character.asciiValue, ascii < 0x20 || ascii == 0x7F {
        continue
      }
      result.append(character)
    }
    return result + "\""
  }
}

extension JSONAPIServer {
  /// Answers `request` for the requester `authenticator` finds in its header fields, or with
  /// `401 Unauthorized` when it refuses: an error document (R53) and a `WWW-Authenticate`
  /// challenge, before any store read or write. The requester becomes the request's
  /// ``JSONAPIServerRequest/context``, replacing what was there.
  ///
  /// ```swift
  /// let response = await server.respond(to: request, authenticatedBy: .bearer { token in
  ///   await sessions.user(for: token).map { JSONAPIRequester(userID: $0.id) }
  /// })
  /// response.status                           // 401 for an unknown token
  /// response.header("WWW-Authenticate")       // Bearer error="invalid_token"
  /// ```
  public func respond(
    to request: JSONAPIServerRequest, authenticatedBy authenticator: JSONAPIAuthenticator
  ) async -> JSONAPIServerResponse {
    switch await authenticator.authenticate(request.headers) {
    case .requester(let requester):
      var authenticated = request
      authenticated.context = requester
      return await respond(to: authenticated)
    case .refused(let refusal):
      return unauthorizedResponse(to: request, refusal: refusal, authenticator: authenticator)
    }
  }

  /// The `401 Unauthorized` answer to `request`, which `authenticator` refused: an error document
  /// (R53) saying why, and the `WWW-Authenticate` challenge. For glue that authenticates before
  /// it reads the body; ``respond(to:authenticatedBy:)`` answers with it itself.
  ///
  /// ```swift
  /// if case .refused(let refusal) = await authenticator.authenticate(headers) {
  ///   return server.unauthorizedResponse(
  ///     to: request, refusal: refusal, authenticator: authenticator)
  /// }
  /// ```
  public func unauthorizedResponse(
    to request: JSONAPIServerRequest, refusal: JSONAPIAuthenticationRefusal,
    authenticator: JSONAPIAuthenticator
  ) -> JSONAPIServerResponse {
    var exchange = ServedExchange(request: request)
    exchange.headers.append(("WWW-Authenticate", authenticator.challenge(for: refusal)))
    let error = JSONAPIErrorObject(
      status: "401", code: "unauthorized", title: "Unauthorized", detail: refusal.detail)
    return errorResponse([error], exchange: exchange)
  }
}
