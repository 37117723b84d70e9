import Foundation

/// A snapshot of an encoder's settings, taken once per `encode` call.
struct EncodingOptions: @unchecked Sendable {
  // @unchecked: DateFormatter is not Sendable everywhere; like JSONEncoder we only read it.
  var outputFormatting: JSONAPIEncoder.OutputFormatting = []
  var keyEncodingStrategy: JSONAPIEncoder.KeyEncodingStrategy = .useDefaultKeys
  var dateEncodingStrategy: JSONAPIEncoder.DateEncodingStrategy = .deferredToDate
  var dataEncodingStrategy: JSONAPIEncoder.DataEncodingStrategy = .base64
  var nonConformingFloatEncodingStrategy: JSONAPIEncoder.NonConformingFloatEncodingStrategy = .throw
  var userInfo: [CodingUserInfoKey: any Sendable] = [:]
  var includesRelatedResources = true
  var sparseFieldsets: [String: Set<String>] = [:]
  /// The requested `include` paths; `nil` includes every related resource that carries more than
  /// its identifier (when ``includesRelatedResources``).
  var includeTree: IncludeTree?
  var limits = JSONAPIEncoder.Limits()
  /// Whether a nested value with a `type` is a related resource even without `id` or `lid`: a new
  /// resource of a graph (``JSONAPIEncoder/encode(graph:)``). Off everywhere else, where such a
  /// value is an attribute.
  var typedValuesAreResources = false
}
