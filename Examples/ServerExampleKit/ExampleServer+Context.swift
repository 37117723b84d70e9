import Foundation
import JSONAPIServer

extension ExampleServer {
  /// One request's state: the request, its negotiated media type and parsed query, and the
  /// encoder that writes the answer.
  struct Context {
    let request: ExampleRequest
    var mediaType = JSONAPIMediaType()
    var query = JSONAPIQuery()
    let encoder: JSONAPIEncoder
    let decoder = JSONAPIDecoder()

    init(request: ExampleRequest) {
      self.request = request
      encoder = JSONAPIEncoder()
      encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
      // No related resources unless the request asks for them with `include`.
      encoder.includesRelatedResources = false
    }

    /// The request body, or a 400 when there is none.
    func body() throws -> Data {
      guard let body = request.body, !body.isEmpty else {
        throw JSONAPIErrorObject(
          status: "400", code: "missing-body", title: "Bad Request",
          detail: "This request needs a JSON:API document as its body.", source: .init(pointer: ""))
      }
      return body
    }

    /// A response with a JSON:API body.
    func document(_ status: Int, _ body: Data, extra: [String: String] = [:]) -> ExampleResponse {
      var headers = extra
      headers["Content-Type"] = mediaType.headerValue
      headers["Vary"] = "Accept"
      return ExampleResponse(status: status, headers: headers, body: body)
    }

    /// `204 No Content`.
    func noContent() -> ExampleResponse {
      ExampleResponse(status: 204, headers: ["Vary": "Accept"])
    }

    /// The error document for `error`, with the status its error object gives.
    func failure(_ error: any Error, varyAccept: Bool) -> ExampleResponse {
      let object = JSONAPIErrorObject(describing: error)
      let status = object.status.flatMap { Int($0) } ?? 500
      var headers = ["Content-Type": JSONAPIMediaType().headerValue]
      if varyAccept { headers["Vary"] = "Accept" }
      if status == 405, let allow = object.meta?["allow"]?.stringValue { headers["Allow"] = allow }
      let body =
        (try? encoder.encode(errors: [object])) ?? Data(#"{"errors":[{"status":"500"}]}"#.utf8)
      return ExampleResponse(status: status, headers: headers, body: body)
    }
  }
}
