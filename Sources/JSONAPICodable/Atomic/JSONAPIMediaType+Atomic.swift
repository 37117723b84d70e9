extension JSONAPIMediaType {
  /// The URI of the Atomic Operations extension, `https://jsonapi.org/ext/atomic`.
  public static let atomicExtension = "https://jsonapi.org/ext/atomic"

  /// `application/vnd.api+json;ext="https://jsonapi.org/ext/atomic"`: the `Content-Type` and
  /// `Accept` of every Atomic Operations request, which is always a `POST`.
  ///
  /// ```swift
  /// request.httpMethod = "POST"
  /// request.httpBody = try JSONAPIEncoder().encode(operations: operations)
  /// request.setValue(JSONAPIMediaType.atomicOperations.headerValue, forHTTPHeaderField: "Content-Type")
  /// request.setValue(JSONAPIMediaType.atomicOperations.headerValue, forHTTPHeaderField: "Accept")
  /// ```
  public static let atomicOperations = JSONAPIMediaType(extensions: [atomicExtension])
}
