/// A value an operation or result was built with, kept until an encoder writes it so that the
/// encoder's settings (key strategies, sparse fieldsets, date strategies, `userInfo`) apply.
///
/// `@unchecked Sendable`: the value comes in through a `sending` parameter, so the caller gave it up
/// (a `Sendable` value is a copy anyway); nothing mutates it afterwards, and encoding only reads it.
/// Generic rather than `any Encodable`, so that the value keeps its static type for the encoder.
final class EncodableBox<Value: Encodable>: AtomicValue, @unchecked Sendable {
  let value: Value

  init(_ value: sending Value) {
    self.value = value
  }

  func primaryData(by writer: AtomicDocumentWriter, at path: EncodingPath) throws -> PlannedNode {
    try writer.primaryData(value, at: path)
  }
}

/// A value kept by an operation or result for the encoder to write later (an ``EncodableBox`` of
/// any type).
protocol AtomicValue: Sendable {
  /// The value as `writer` writes primary data: a resource object, an array of them, or `null`.
  func primaryData(by writer: AtomicDocumentWriter, at path: EncodingPath) throws -> PlannedNode
}
