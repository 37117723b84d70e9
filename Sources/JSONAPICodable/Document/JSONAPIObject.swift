import Foundation

/// The top-level `jsonapi` member: which version of JSON:API, extensions and profiles a document uses.
///
/// ```swift
/// let jsonapi = JSONAPIObject(version: "1.1", ext: ["https://jsonapi.org/ext/atomic"])
/// ```
public struct JSONAPIObject: Codable, Sendable, Hashable {
  /// The highest JSON:API version the sender supports; readers assume at least "1.0" when absent.
  public var version: String?
  /// URIs of all applied extensions (JSON:API 1.1).
  public var ext: [String]?
  /// URIs of all applied profiles (JSON:API 1.1).
  public var profile: [String]?
  /// Non-standard meta-information.
  public var meta: JSONAPIValue?

  /// Creates a `jsonapi` object; every member is optional.
  public init(
    version: String? = nil, ext: [String]? = nil, profile: [String]? = nil,
    meta: JSONAPIValue? = nil
  ) {
    self.version = version
    self.ext = ext
    self.profile = profile
    self.meta = meta
  }
}
