import Foundation

/// The approach of the original JSONAPICodable and of Japx, written here as the baseline:
/// parse with JSONSerialization, inline every relationship from `included`, serialize the
/// flattened tree again, and decode that with JSONDecoder.
///
/// It gets the benefit of a hash index over (type, id) rather than a scan of `included`.
enum FlattenThenDecode {
  struct NotADocument: Error, CustomStringConvertible {
    var description: String { "not a JSON:API collection document" }
  }

  static func decode<T: Decodable>(
    _ type: [T].Type, from document: Data, decoder: JSONDecoder
  ) throws -> [T] {
    guard let root = try JSONSerialization.jsonObject(with: document) as? [String: Any],
      let primary = root["data"] as? [[String: Any]]
    else { throw NotADocument() }
    let included = root["included"] as? [[String: Any]] ?? []

    var index: [String: [String: Any]] = [:]
    index.reserveCapacity(included.count + primary.count)
    for resource in primary + included {
      if let key = identity(of: resource) { index[key] = resource }
    }

    // Relationship depth is bounded like the real decoder's default, so cycles terminate.
    func flatten(_ resource: [String: Any], depth: Int) -> [String: Any] {
      var flat: [String: Any] = [:]
      if let attributes = resource["attributes"] as? [String: Any] {
        flat.merge(attributes) { current, _ in current }
      }
      flat["id"] = resource["id"]
      flat["type"] = resource["type"]
      guard depth < 64, let relationships = resource["relationships"] as? [String: Any] else {
        return flat
      }
      for (name, value) in relationships {
        guard let relationship = value as? [String: Any], let linkage = relationship["data"] else {
          continue
        }
        if let identifier = linkage as? [String: Any] {
          flat[name] = resolve(identifier, depth: depth)
        } else if let identifiers = linkage as? [[String: Any]] {
          flat[name] = identifiers.map { resolve($0, depth: depth) }
        } else {
          flat[name] = NSNull()
        }
      }
      return flat
    }
    func resolve(_ identifier: [String: Any], depth: Int) -> [String: Any] {
      guard let key = identity(of: identifier), let resource = index[key] else { return identifier }
      return flatten(resource, depth: depth + 1)
    }

    let flattened = primary.map { flatten($0, depth: 0) }
    let bytes = try JSONSerialization.data(withJSONObject: flattened)
    return try decoder.decode([T].self, from: bytes)
  }

  private static func identity(of resource: [String: Any]) -> String? {
    guard let type = resource["type"] as? String, let id = resource["id"] as? String else {
      return nil
    }
    return type + "\u{0}" + id
  }
}
