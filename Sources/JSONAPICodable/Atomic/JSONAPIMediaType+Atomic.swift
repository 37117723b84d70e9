extension JSONAPIMediaType {
  /// The URI of the Atomic Operations extension, `https://jsonapi.org/ext/atomic`.
  public static let atomicExtension = "https://jsonapi.org/ext/atomic"

  /// `application/vnd.api+json;ext="https://jsonapi.org/ext/atomic"`: the `Content-Type` and
  /// `Accept` of every Atomic Operations request, which is always a `POST`.
  ///
  /// ```swift
  /// let request = URLRequest(
  ///   jsonAPI: URL(string: "https://api.example.com/operations")!, method: "POST",
  ///   body: try JSONAPIEncoder().encode(operations: operations), mediaType: .atomicOperations)
  /// ```
  public static let atomicOperations = JSONAPIMediaType(extensions: [atomicExtension])
}
