import Foundation

/// One link of a JSON:API links object: the string form (`"https://…"`) or the link-object form
/// (`{"href": "…", "meta": {…}}`, with the JSON:API 1.1 members `rel`, `describedby`, `title`,
/// `type` and `hreflang`).
///
/// Both forms decode into this type; it encodes back as a plain string when only ``href`` is set.
/// `href` is kept as written: JSON:API 1.1 allows relative URI references such as `/articles?page[number]=2`.
public struct JSONAPILink: Sendable, Hashable {
  /// The link's target, a URI reference (absolute or relative).
  public var href: String
  /// Non-standard meta-information about the link.
  public var meta: JSONAPIValue?
  /// The link's relation type (RFC 8288), when it differs from the member name.
  public var rel: String?
  /// A human-readable title.
  public var title: String?
  /// The media type of the target, a hint only.
  public var type: String?
  /// The language(s) of the target (RFC 5646 tags), a hint only. A single string decodes as one element.
  public var hreflang: [String]?
  // A link may describe itself with another link: boxed so that the struct stays finite.
  private var describedByBox: Box?

  /// A link to a description document (for example a JSON Schema) of the target.
  public var describedBy: JSONAPILink? {
    get { describedByBox?.link }
    set { describedByBox = newValue.map(Box.init) }
  }

  /// Creates a link.
  ///
  /// ```swift
  /// let next = JSONAPILink(href: "/articles?page[number]=3", meta: ["count": 10])
  /// ```
  public init(
    href: String, meta: JSONAPIValue? = nil, rel: String? = nil, describedBy: JSONAPILink? = nil,
    title: String? = nil, type: String? = nil, hreflang: [String]? = nil
  ) {
    self.href = href
    self.meta = meta
    self.rel = rel
    self.title = title
    self.type = type
    self.hreflang = hreflang
    self.describedByBox = describedBy.map(Box.init)
  }

  /// The target as a `URL`, read by `URL(jsonAPIReference:relativeTo:)` so that
  /// a raw `[`, space or non-ASCII character in `href` gives the same URL on every platform; `nil`
  /// only when even the encoded text is not a URL. Relative when `href` is.
  public var url: URL? { URL(jsonAPIReference: href) }

  /// Whether only `href` is set, so that the link is written in its string form.
  var isPlainHref: Bool {
    meta == nil && rel == nil && describedByBox == nil && title == nil && type == nil
      && hreflang == nil
  }

  private final class Box: Sendable, Hashable {
    let link: JSONAPILink
    init(_ link: JSONAPILink) { self.link = link }
    static func == (lhs: Box, rhs: Box) -> Bool { lhs.link == rhs.link }
    func hash(into hasher: inout Hasher) { hasher.combine(link) }
  }
}

extension JSONAPILink: ExpressibleByStringLiteral {
  /// A link whose `href` is the literal.
  public init(stringLiteral value: String) { self.init(href: value) }
}

extension JSONAPILink: Codable {
  private enum CodingKeys: String, CodingKey {
    case href, meta, rel, describedby, title, type, hreflang
  }

  /// Decodes either the string form or the object form of a link.
  ///
  /// - Throws: `DecodingError` when the value is neither a string nor an object with a string `href`.
  public init(from decoder: any Decoder) throws {
    if let single = try? decoder.singleValueContainer(), let href = try? single.decode(String.self)
    {
      self.init(href: href)
      return
    }
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let hreflang: [String]?
    if let one = try? container.decodeIfPresent(String.self, forKey: .hreflang) {
      hreflang = [one]
    } else {
      hreflang = try container.decodeIfPresent([String].self, forKey: .hreflang)
    }
    self.init(
      href: try container.decode(String.self, forKey: .href),
      meta: try container.decodeIfPresent(JSONAPIValue.self, forKey: .meta),
      rel: try container.decodeIfPresent(String.self, forKey: .rel),
      describedBy: try container.decodeIfPresent(JSONAPILink.self, forKey: .describedby),
      title: try container.decodeIfPresent(String.self, forKey: .title),
      type: try container.decodeIfPresent(String.self, forKey: .type),
      hreflang: hreflang)
  }

  /// Encodes a plain string when only `href` is set, the link object otherwise.
  public func encode(to encoder: any Encoder) throws {
    if isPlainHref {
      var single = encoder.singleValueContainer()
      try single.encode(href)
      return
    }
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(href, forKey: .href)
    try container.encodeIfPresent(rel, forKey: .rel)
    try container.encodeIfPresent(describedBy, forKey: .describedby)
    try container.encodeIfPresent(title, forKey: .title)
    try container.encodeIfPresent(type, forKey: .type)
    if let hreflang {
      if hreflang.count == 1 {
        try container.encode(hreflang[0], forKey: .hreflang)
      } else {
        try container.encode(hreflang, forKey: .hreflang)
      }
    }
    try container.encodeIfPresent(meta, forKey: .meta)
  }
}
