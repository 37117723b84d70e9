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
/// as its decimal string, and members the specification does not define, or defines with another
/// type than the server sent, are kept in ``additionalMembers`` rather than failing the document.
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
  /// Members this type does not model: non-standard ones a server adds (`"traceId"`), and standard
  /// ones of the wrong type (`"status": true`). Encoded back as they are.
  public var additionalMembers: [String: JSONAPIValue] = [:]

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
  private enum Member: String, CaseIterable {
    case id, links, status, code, title, detail, source, meta
  }

  /// Decodes an error object leniently: numbers in `id`, `status` and `code` become strings; a member
  /// of the wrong type, or one the specification does not define, goes to ``additionalMembers``.
  ///
  /// - Throws: `DecodingError` when the value is not an object.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: AnyCodingKey.self)
    self.init()
    for key in container.allKeys {
      if let member = Member(rawValue: key.stringValue), try read(member, key, container) {
        continue
      }
      if let value = try? container.decode(JSONAPIValue.self, forKey: key) {
        additionalMembers[key.stringValue] = value
      }
    }
  }

  /// Reads one standard member; false when it has another type than the specification gives it.
  private mutating func read(
    _ member: Member, _ key: AnyCodingKey, _ container: KeyedDecodingContainer<AnyCodingKey>
  ) throws -> Bool {
    /// The member as a string (a number as its decimal spelling); nil when it is neither. Read as
    /// `Int64`, not `Int`: a code past 2^31 reads the same on 32-bit platforms.
    func lenientString() -> String?? {
      if let number = try? container.decode(Int64.self, forKey: key) {
        return .some(String(number))
      }
      guard let string = try? container.decode(String.self, forKey: key) else { return nil }
      return .some(string)
    }
    if try container.decodeNil(forKey: key) { return true }
    switch member {
    case .id:
      guard let value = lenientString() else { return false }
      id = value
    case .status:
      guard let value = lenientString() else { return false }
      status = value
    case .code:
      guard let value = lenientString() else { return false }
      code = value
    case .title:
      guard let value = try? container.decode(String.self, forKey: key) else { return false }
      title = value
    case .detail:
      guard let value = try? container.decode(String.self, forKey: key) else { return false }
      detail = value
    case .links:
      guard let value = try? container.decode(JSONAPILinks.self, forKey: key) else { return false }
      links = value
    case .source:
      guard let value = try? container.decode(Source.self, forKey: key) else { return false }
      source = value
    case .meta:
      guard let value = try? container.decode(JSONAPIValue.self, forKey: key),
        value.objectValue != nil
      else { return false }
      meta = value
    }
    return true
  }

  /// Encodes the members that are set, then ``additionalMembers`` whose names are not taken.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: AnyCodingKey.self)
    func put<T: Encodable>(_ value: T?, _ member: Member) throws {
      try container.encodeIfPresent(value, forKey: AnyCodingKey(member.rawValue))
    }
    try put(id, .id)
    try put(links, .links)
    try put(status, .status)
    try put(code, .code)
    try put(title, .title)
    try put(detail, .detail)
    try put(source, .source)
    try put(meta, .meta)
    // A standard name here was sent with another type; it yields to the member if that is set.
    let written: [Member: Bool] = [
      .id: id != nil, .links: links != nil, .status: status != nil, .code: code != nil,
      .title: title != nil, .detail: detail != nil, .source: source != nil, .meta: meta != nil,
    ]
    for (name, value) in additionalMembers.sorted(by: { $0.key < $1.key })
    where !(Member(rawValue: name).flatMap { written[$0] } ?? false) {
      try container.encode(value, forKey: AnyCodingKey(name))
    }
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
