/// The top level of an error document, as ``JSONAPIEncoder/encode(errors:meta:jsonapi:links:)``
/// hands it to the encoding pipeline: encoded like a ``JSONAPIDocument`` (its members are the
/// document's, never a resource's or subject to key strategies), assembled with `errors` in place
/// of `data`.
struct EncodableErrorDocument: Encodable, JSONAPIDocumentMarker {
  let errors: [JSONAPIErrorObject]
  let meta: JSONAPIValue?
  let jsonapi: JSONAPIObject?
  let links: JSONAPILinks?

  private enum CodingKeys: String, CodingKey {
    case errors, meta, links, jsonapi
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(errors, forKey: .errors)
    try container.encodeIfPresent(meta, forKey: .meta)
    try container.encodeIfPresent(links, forKey: .links)
    try container.encodeIfPresent(jsonapi, forKey: .jsonapi)
  }
}
