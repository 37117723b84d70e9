import Foundation

extension EncoderImpl {
  /// `Date`, `Data`, `URL` and `Decimal` under the encoder's strategies, recognised by metatype;
  /// `nil` for every other type.
  func wrapFoundationValue<T: Encodable>(_ value: T, key: (any CodingKey)?) throws -> EncodedNode? {
    if T.self == Date.self, let date = value as? Date { return try wrapDate(date, key: key) }
    if T.self == Data.self, let data = value as? Data { return try wrapData(data, key: key) }
    if T.self == URL.self, let url = value as? URL { return .string(url.absoluteString) }
    if T.self == Decimal.self, let decimal = value as? Decimal {
      guard !decimal.isNaN else {
        throw EncodingError.invalidValue(
          decimal,
          EncodingError.Context(
            codingPath: path.appending(key).codingPath,
            debugDescription: "Unable to encode Decimal.nan directly in JSON."))
      }
      return .number(decimal.description)
    }
    return nil
  }

  private func wrapDate(_ date: Date, key: (any CodingKey)?) throws -> EncodedNode {
    switch context.options.dateEncodingStrategy {
    case .deferredToDate:
      return try encodedByItself(date, key: key)
    case .secondsSince1970:
      return try number(date.timeIntervalSince1970, key: key)
    case .millisecondsSince1970:
      return try number(1000 * date.timeIntervalSince1970, key: key)
    case .iso8601:
      return .string(date.formatted(Date.ISO8601FormatStyle()))
    case .formatted(let formatter):
      return .string(formatter.string(from: date))
    case .custom(let encode):
      let encoder = child(for: Date.self, key: key)
      try encode(date, encoder)
      return encoder.node ?? .object(EncodedObject(swiftType: Date.self))
    }
  }

  private func wrapData(_ data: Data, key: (any CodingKey)?) throws -> EncodedNode {
    switch context.options.dataEncodingStrategy {
    case .deferredToData:
      return try encodedByItself(data, key: key)
    case .base64:
      return .string(data.base64EncodedString())
    case .custom(let encode):
      let encoder = child(for: Data.self, key: key)
      try encode(data, encoder)
      return encoder.node ?? .object(EncodedObject(swiftType: Data.self))
    }
  }

  private func encodedByItself<T: Encodable>(_ value: T, key: (any CodingKey)?) throws
    -> EncodedNode
  {
    let encoder = child(for: T.self, key: key)
    try value.encode(to: encoder)
    return encoder.node ?? .object(EncodedObject(swiftType: T.self))
  }
}
