import Foundation
import JSONAPIServer
import Testing
import Vapor
import JSONAPIVapor

struct Article: Content, JSONAPIResource {
  static let jsonAPIType = "articles"
  static let defaultContentType = HTTPMediaType.jsonAPI
  var id: String?
  var title: String
}

/// The glue through Vapor's own `ContentContainer`, as a route handler uses it.
@Test func vaporEncodesAndDecodesJSONAPIDocumentsWithTheGlue() throws {
  var configuration = ContentConfiguration.default()
  configuration.use(encoder: JSONAPIContentEncoder(), for: .jsonAPI)
  configuration.use(decoder: JSONAPIContentDecoder(), for: .jsonAPI)

  var headers = HTTPHeaders()
  var body = ByteBuffer()
  let encoder = try configuration.requireEncoder(for: Article.defaultContentType)
  try encoder.encode(Article(id: "1", title: "Hello"), to: &body, headers: &headers)
  #expect(headers.contentType == .jsonAPI)
  let text = String(decoding: body.readableBytesView, as: UTF8.self)
  #expect(text == #"{"data":{"type":"articles","id":"1","attributes":{"title":"Hello"}}}"#)

  let request = ByteBuffer(
    string: #"{"data":{"type":"articles","attributes":{"title":"New"}}}"#)
  let decoder = try configuration.requireDecoder(for: .jsonAPI)
  let draft = try decoder.decode(Article.self, from: request, headers: headers)
  #expect(draft.id == nil && draft.title == "New")

  let wrongType = ByteBuffer(string: #"{"data":{"type":"people","attributes":{"title":"x"}}}"#)
  #expect(throws: JSONAPIError.self) {
    _ = try decoder.decode(Article.self, from: wrongType, headers: headers)
  }
}
