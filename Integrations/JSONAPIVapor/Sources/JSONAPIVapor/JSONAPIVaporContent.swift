// JSONAPICodable as Vapor 4's content encoder and decoder for `application/vnd.api+json`. Copy this
// file into an app and register both once, at start-up:
//
//   ContentConfiguration.global.use(encoder: JSONAPIContentEncoder(), for: .jsonAPI)
//   ContentConfiguration.global.use(decoder: JSONAPIContentDecoder(), for: .jsonAPI)
//
// Then a model whose `defaultContentType` is `.jsonAPI` is answered as a JSON:API document, and a
// request sent with `Content-Type: application/vnd.api+json` decodes with `req.content.decode`:
//
//   struct Article: Content, JSONAPIResource {
//     static let jsonAPIType = "articles"
//     static let defaultContentType = HTTPMediaType.jsonAPI
//     var id: String?
//     var title: String
//   }
//   app.get("articles", ":id") { req async throws -> Article in try await store.article(req) }
//   app.post("articles") { req async throws -> Article in
//     let draft = try req.content.decode(Article.self)
//     ...
//   }
//
// To apply a request's `include` and `fields[TYPE]`, encode with `JSONAPIEncoder.encode(_:for:)`
// and a `JSONAPIQuery` parsed from `req.url.query`, as the Hummingbird example does.

import Foundation
import JSONAPIServer
import Vapor

/// Writes an `Encodable` value as a JSON:API document with a `JSONAPIEncoder`.
public struct JSONAPIContentEncoder: ContentEncoder {
  /// The encoder that writes every document.
  public let encoder: JSONAPIEncoder

  /// Uses `encoder`; by default one that includes related resources only when asked to.
  public init(encoder: JSONAPIEncoder = JSONAPIContentEncoder.defaultEncoder) {
    self.encoder = encoder
  }

  /// Shared by every request: a `JSONAPIEncoder` is safe to use from many tasks at once.
  public static let defaultEncoder: JSONAPIEncoder = {
    let encoder = JSONAPIEncoder()
    encoder.includesRelatedResources = false
    return encoder
  }()

  /// Encodes `encodable` into `body` and sets `Content-Type: application/vnd.api+json`.
  ///
  /// - Throws: The encoder's errors, such as `JSONAPIError.missingResourceType` for a value with
  ///   no JSON:API `type`.
  public func encode<E: Encodable>(
    _ encodable: E, to body: inout ByteBuffer, headers: inout HTTPHeaders
  ) throws {
    headers.contentType = .jsonAPI
    body.writeBytes(try encoder.encode(encodable))
  }
}

/// Reads a JSON:API request document into a `Decodable` model with a `JSONAPIDecoder`.
public struct JSONAPIContentDecoder: ContentDecoder {
  /// The decoder that reads every request document.
  public let decoder: JSONAPIDecoder

  /// Uses `decoder`, by default one with the library's default limits.
  public init(decoder: JSONAPIDecoder = JSONAPIDecoder()) {
    self.decoder = decoder
  }

  /// Decodes the body as `D`.
  ///
  /// - Throws: `JSONAPIError` for a body that is not a valid document, `DecodingError` for one that
  ///   does not fit `D`; `JSONAPIErrorObject(describing:)` turns either into the error object to
  ///   answer with (400, 409 or 422, with `source.pointer`).
  public func decode<D: Decodable>(_ decodable: D.Type, from body: ByteBuffer, headers: HTTPHeaders)
    throws -> D
  {
    try decoder.decode(D.self, from: Data(body.readableBytesView))
  }
}
