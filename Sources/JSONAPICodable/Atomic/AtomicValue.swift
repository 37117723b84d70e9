/// A value kept by an operation or result for the encoder to write later (an ``EncodableBox`` of
/// any type).
protocol AtomicValue: Sendable {
  /// The value as `writer` writes primary data: a resource object, an array of them, or `null`.
  func primaryData(by writer: AtomicDocumentWriter, at path: EncodingPath) throws -> PlannedNode
}
