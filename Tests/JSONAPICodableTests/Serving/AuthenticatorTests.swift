import Foundation
import Testing

@testable import JSONAPICodable
@testable import JSONAPIServer

/// `JSONAPIAuthenticator` and `JSONAPIServer.respond(to:authenticatedBy:)` without framework
/// glue, and the secured OpenAPI description.
@Suite struct AuthenticatorTests {
  static let authenticator = JSONAPIAuthenticator.bearer(realm: "blog") { token in
    token == "good-token" ? JSONAPIRequester(userID: "1") : nil
  }

  @Test func bearerTokensAreReadAsRFC6750WritesThem() {
    let accepted = [
      ("Bearer abc", "abc"), ("bearer abc", "abc"), ("BEARER  a-b.c_d~e+f/g==", "a-b.c_d~e+f/g=="),
      (" Bearer abc ", "abc"),
    ]
    for (value, token) in accepted {
      #expect(JSONAPIAuthenticator.bearerToken(value) == token, "\(value)")
    }
    let refused = [
      "", "Bearer", "Bearer ", "Basic abc", "Bearer a b", "Bearer ===", "Bearer a=b", "Bearer é",
      "Bearerabc", "Bearer a\u{0}",
      "Bearer " + String(repeating: "x", count: JSONAPIAuthenticator.maxBearerTokenLength + 1),
    ]
    for value in refused {
      #expect(JSONAPIAuthenticator.bearerToken(value) == nil, "\(value.prefix(20))")
    }
    #expect(
      JSONAPIAuthenticator.bearerToken(
        "Bearer " + String(repeating: "x", count: JSONAPIAuthenticator.maxBearerTokenLength))
        != nil)
  }

  @Test func aRefusedRequestIsA401WithAChallengeAndNoStoreCall() async throws {
    let (server, store) = try await ServerFixture.server()
    let cases: [([(name: String, value: String)], String)] = [
      ([], #"Bearer realm="blog""#),
      ([("Authorization", "Bearer bad-token")], #"Bearer realm="blog", error="invalid_token""#),
      ([("authorization", "Basic Zm9v")], #"Bearer realm="blog", error="invalid_request""#),
      (
        [("Authorization", "Bearer good-token"), ("Authorization", "Bearer good-token")],
        #"Bearer realm="blog", error="invalid_request""#
      ),
    ]
    for (headers, challenge) in cases {
      var request = ServerFixture.request("DELETE", "/articles/1")
      request.headers += headers
      let response = await server.respond(to: request, authenticatedBy: Self.authenticator)
      #expect(response.status == 401)
      #expect(response.header("WWW-Authenticate") == challenge)
      #expect(response.header("Content-Type") == "application/vnd.api+json")
      let document = try JSONDecoder().decode(JSONAPIValue.self, from: response.body)
      #expect(document["errors"]?[0]?["status"] == "401")
      #expect(document["errors"]?[0]?["code"] == "unauthorized")
    }
    #expect(store.takeCalls().isEmpty)
    var head = ServerFixture.request("HEAD", "/articles")
    head.headers.append(("Authorization", "Bearer bad-token"))
    let answer = await server.respond(to: head, authenticatedBy: Self.authenticator)
    #expect(answer.status == 401 && answer.body.isEmpty)
    #expect(store.takeCalls().isEmpty)
  }

  @Test func anAcceptedRequestCarriesItsRequesterToTheServer() async throws {
    let seen = JSONAPIRequesterBox()
    var hooks = JSONAPIResourceHooks()
    hooks.authorize = { access in
      if let requester = access.request.requester { seen.set(requester) }
    }
    let (server, _) = try await ServerFixture.server(hooks: hooks)
    var request = ServerFixture.request("GET", "/articles/1")
    request.headers.append(("Authorization", "Bearer good-token"))
    // What the glue had put there is replaced by the requester.
    request.context = JSONAPIRequester(userID: "someone else")
    let response = await server.respond(to: request, authenticatedBy: Self.authenticator)
    #expect(response.status == 200)
    #expect(seen.value == JSONAPIRequester(userID: "1"))
  }

  @Test func challengesQuoteWhatTheyCarry() {
    let authenticator = JSONAPIAuthenticator(scheme: "Bearer", realm: "a \"b\" \\ c\r\n") { _ in
      .refused(JSONAPIAuthenticationRefusal(detail: "no"))
    }
    #expect(
      authenticator.challenge(for: JSONAPIAuthenticationRefusal(detail: "no", error: "x"))
        == #"Bearer realm="a \"b\" \\ c", error="x""#)
    let bare = JSONAPIAuthenticator(scheme: "Basic") { _ in
      .refused(JSONAPIAuthenticationRefusal(detail: "no"))
    }
    #expect(bare.challenge(for: JSONAPIAuthenticationRefusal(detail: "no")) == "Basic")
  }

  @Test func theSecuredDescriptionKeepsThePlainOneAndAddsTheScheme() async throws {
    let (server, _) = try await ServerFixture.server()
    let plain = server.openAPIDocument(title: "Blog", version: "1")
    let secured = plain.secured(by: .bearer(format: "JWT"), named: "token auth")
    let tree = try JSONDecoder().decode(JSONAPIValue.self, from: secured.jsonData())
    let original = try JSONDecoder().decode(JSONAPIValue.self, from: plain.jsonData())
    #expect(tree["components"]?["securitySchemes"]?["token_auth"]?["bearerFormat"] == "JWT")
    #expect(tree["components"]?["schemas"] == original["components"]?["schemas"])
    #expect(tree["info"] == original["info"])
    var operations = 0
    for (path, item) in original["paths"]?.objectValue ?? [:] {
      for (method, operation) in item.objectValue ?? [:] where method != "parameters" {
        operations += 1
        let served = tree["paths"]?[path]?[method]
        #expect(served?["security"] == [["token_auth": []]])
        #expect(served?["responses"]?["401"]?["headers"]?["WWW-Authenticate"] != nil)
        // Every answer the plain description lists is kept as it was.
        for (status, answer) in operation["responses"]?.objectValue ?? [:] {
          #expect(served?["responses"]?[status] == answer, "\(method) \(path) \(status)")
        }
        let bodyOf401 = served?["responses"]?["401"]?["content"]
        #expect((bodyOf401 == nil) == (method == "head"), "\(method) \(path)")
      }
    }
    #expect(operations > 10)
    // The same declarations give the same bytes.
    #expect(
      try secured.jsonData()
        == plain.secured(by: .bearer(format: "JWT"), named: "token auth").jsonData())
  }
}

/// A requester written from inside the authenticator's closure, read after the request.
final class JSONAPIRequesterBox: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: JSONAPIRequester?
  var value: JSONAPIRequester? { lock.withLock { stored } }
  func set(_ requester: JSONAPIRequester) { lock.withLock { stored = requester } }
}
