// JSONAPICodable as Hummingbird 2's request decoder and response encoder for
// `application/vnd.api+json`, for apps that write their own routes: depend on the
// `JSONAPIHummingbirdCoders` product.
// (The blog and the library in this package are served by `JSONAPIHummingbird` instead.)
//
//   let router = Router(context: JSONAPIRequestContext.self)
//   router.get("/articles/:id") { request, context in
//     let article: Article = try await store.article(context.parameters.require("id"))
//     return try context.responseEncoder.encode(article, from: request, context: context)
//   }
//   router.post("/articles") { request, context in
//     let draft = try await request.decode(as: NewArticle.self, context: context)
//     ...
//   }

import Foundation
import Hummingbird
import JSONAPICodable

/// Encodes what a route returns as a JSON:API document, with the related resources and sparse
/// fieldsets the request's `include` and `fields[TYPE]` ask for.
public struct JSONAPIResponseEncoder: ResponseEncoder {
  /// Shared by every request: a `JSONAPIEncoder` is safe to use from many tasks at once.
  public static let shared: JSONAPIEncoder = {
    let encoder = JSONAPIEncoder()
    encoder.outputFormatting = [.withoutEscapingSlashes]
    // Related resources go to `included` only when the request names them in `include`.
    encoder.includesRelatedResources = false
    return encoder
  }()

  /// The encoder of this response encoder; ``shared`` unless the app sets another.
  public var encoder = JSONAPIResponseEncoder.shared

  /// Creates a response encoder with the shared encoder.
  public init() {}

  /// Answers `200 OK` with the document; change `status` and `headers` of the result for others.
  ///
  /// - Throws: `JSONAPIQueryError` for a query that is not valid JSON:API (validate it with
  ///   `JSONAPIQueryRules` first to say which parameters the endpoint supports), and the
  ///   encoder's errors.
  public func encode(
    _ value: some Encodable, from request: Request, context: some RequestContext
  ) throws
    -> Response
  {
    let query = try JSONAPIQuery(parsing: request.uri.query ?? "")
    let body = try encoder.encode(value, for: query)
    return Response(
      status: .ok,
      headers: [.contentType: JSONAPIMediaType.name, .contentLength: String(body.count)],
      body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
  }
}

/// Decodes a request's JSON:API document into a model, for `request.decode(as:context:)`.
public struct JSONAPIRequestDecoder: RequestDecoder {
  /// Shared by every request: a `JSONAPIDecoder` is safe to use from many tasks at once.
  public static let shared = JSONAPIDecoder()

  /// The decoder of this request decoder; ``shared`` unless the app sets another.
  public var decoder = JSONAPIRequestDecoder.shared

  /// Creates a request decoder with the shared decoder.
  public init() {}

  /// Reads at most `context.maxUploadSize` bytes of the body, then decodes them.
  ///
  /// - Throws: Hummingbird's `413 Content Too Large` for a longer body; for a body that is not a
  ///   valid document or does not fit `T`, the `JSONAPIErrorObject` that describes why (400, 409
  ///   or 422, with `source.pointer`). `request.decode(as:context:)` would turn a `DecodingError`
  ///   into a plain-text 400 and lose the pointer; an error object passes through it untouched.
  public func decode<T: Decodable>(
    _ type: T.Type, from request: Request, context: some RequestContext
  )
    async throws -> T
  {
    let body = try await request.body.collect(upTo: context.maxUploadSize)
    return try decode(T.self, from: Data(body.readableBytesView))
  }

  /// Decodes a body already read, as `decode(_:from:context:)` does.
  public func decode<T: Decodable>(_ type: T.Type, from body: Data) throws -> T {
    do {
      return try decoder.decode(T.self, from: body)
    } catch {
      throw JSONAPIErrorObject(describing: error)
    }
  }
}

/// A request context whose `requestDecoder` and `responseEncoder` speak JSON:API.
public struct JSONAPIRequestContext: RequestContext {
  /// Hummingbird's storage of the request's context.
  public var coreContext: CoreRequestContextStorage

  /// Creates the context of a request, as Hummingbird does for each one.
  public init(source: ApplicationRequestContextSource) {
    coreContext = CoreRequestContextStorage(source: source)
  }

  /// Decodes request bodies as JSON:API documents.
  public var requestDecoder: JSONAPIRequestDecoder { JSONAPIRequestDecoder() }
  /// Encodes responses as JSON:API documents.
  public var responseEncoder: JSONAPIResponseEncoder { JSONAPIResponseEncoder() }
  /// Request documents are small: 1 MiB is plenty, and bounds what one request can make the
  /// server read.
  public var maxUploadSize: Int { 1 << 20 }
}
