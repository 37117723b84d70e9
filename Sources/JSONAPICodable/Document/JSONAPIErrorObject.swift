import Foundation

/// One error object of a JSON:API error document (`{"errors": [...]}`), with every member the
/// specification defines.
///
/// ``JSONAPIDecoder`` throws ``JSONAPIError/errorDocument(_:)`` with these whenever a response carries
/// `errors`; ``JSONAPIEncoder/encode(errors:meta:jsonapi:links:)`` writes them on the server side.
///
/// ```swift
/// let error = JSONAPIErrorObject(
///   status: "422", title: "Invalid Attribute",
///   detail: "First name must contain at least two characters.",
///   source: .init(pointer: "/data/attributes/firstName"))
/// ```
///
/// Decoding is lenient where real servers bend the rules: a numeric `id`, `status` or `code` is read
/// as its decimal string.
public struct JSONAPIErrorObject: Sendable, Hashable, Error {
  /// A unique identifier for this occurrence of the problem.
  public var id: String?
  /// `about` and (JSON:API 1.1) `type` links.
  public var links: JSONAPILinks?
  /// The HTTP status code as a string, such as `"422"`.
  public var status: String?
  /// An application-specific error code, as a string.
  public var code: String?
  /// A short summary that does not change from occurrence to occurrence.
  public var title: String?
  /// An explanation specific to this occurrence.
  public var detail: String?
  /// What in the request caused the error.
  public var source: Source?
  /// Non-standard meta-information.
  public var meta: JSONAPIValue?

  /// The `source` member of an error object: where in the request the problem lies.
  public struct Source: Codable, Sendable, Hashable {
    /// A JSON Pointer (RFC 6901) into the request document, such as `"/data/attributes/title"`.
    public var pointer: String?
    /// The query parameter that caused the error.
    public var parameter: String?
    /// The request header that caused the error (JSON:API 1.1).
    public var header: String?

    /// Creates a source; every member is optional.
    public init(pointer: String? = nil, parameter: String? = nil, header: String? = nil) {
      self.pointer = pointer
      self.parameter = parameter
      self.header = header
    }
  }

  /// Creates an error object; every member is optional, but JSON:API 1.1 wants at least one.
  public init(
    id: String? = nil, links: JSONAPILinks? = nil, status: String? = nil, code: String? = nil,
    title: String? = nil, detail: String? = nil, source: Source? = nil, meta: JSONAPIValue? = nil
  ) {
    self.id = id
    self.links = links
    self.status = status
    self.code = code
    self.title = title
    self.detail = detail
    self.source = source
    self.meta = meta
  }
}

extension JSONAPIErrorObject: Codable {
  private enum CodingKeys: String, CodingKey {
    case id, links, status, code, title, detail, source, meta
  }

  /// Decodes an error object; numbers in `id`, `status` and `code` are accepted as strings.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    func lenientString(_ key: CodingKeys) throws -> String? {
      if let number = try? container.decodeIfPresent(Int.self, forKey: key) {
        return String(number)
      }
      return try container.decodeIfPresent(String.self, forKey: key)
    }
    self.init(
      id: try lenientString(.id),
      links: try container.decodeIfPresent(JSONAPILinks.self, forKey: .links),
      status: try lenientString(.status),
      code: try lenientString(.code),
      title: try container.decodeIfPresent(String.self, forKey: .title),
      detail: try container.decodeIfPresent(String.self, forKey: .detail),
      source: try container.decodeIfPresent(Source.self, forKey: .source),
      meta: try container.decodeIfPresent(JSONAPIValue.self, forKey: .meta))
  }

  /// Encodes the members that are set.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeIfPresent(id, forKey: .id)
    try container.encodeIfPresent(links, forKey: .links)
    try container.encodeIfPresent(status, forKey: .status)
    try container.encodeIfPresent(code, forKey: .code)
    try container.encodeIfPresent(title, forKey: .title)
    try container.encodeIfPresent(detail, forKey: .detail)
    try container.encodeIfPresent(source, forKey: .source)
    try container.encodeIfPresent(meta, forKey: .meta)
  }
}

extension JSONAPIErrorObject: CustomStringConvertible {
  /// A one-line summary: status, code, title, detail and source, where present.
  public var description: String {
    var parts: [String] = []
    if let status { parts.append(status) }
    if let code { parts.append("[\(code)]") }
    if let title { parts.append(title) }
    if let detail { parts.append(title == nil ? detail : "- \(detail)") }
    if let pointer = source?.pointer { parts.append("(at \(pointer.isEmpty ? "/" : pointer))") }
    if let parameter = source?.parameter { parts.append("(parameter \(parameter))") }
    if let header = source?.header { parts.append("(header \(header))") }
    return parts.isEmpty ? "JSON:API error" : parts.joined(separator: " ")
  }
}
