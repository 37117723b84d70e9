import Foundation

extension JSONAPIEncoder {
  /// Encodes the Atomic Operations request that creates `draft` together with every new resource
  /// reachable from it through relationships: `{"atomic:operations": [...]}`, one `add` per new
  /// resource, each once, with this encoder's settings (key and date strategies, sparse
  /// fieldsets, limits). Send it with `POST` and the media type
  /// `application/vnd.api+json;ext="https://jsonapi.org/ext/atomic"`, or let
  /// `JSONAPIClient.create(graph:at:as:)` send it and map the results back.
  ///
  /// ```swift
  /// let blog = Blog(name: "Swift notes")                 // no id: new
  /// let dan = Person(name: "Dan"), eve = Person(name: "Eve")
  /// let draft = Entry(headline: "Graphs", blog: blog, authors: [dan, eve])
  /// let body = try JSONAPIEncoder().encode(graph: draft)
  /// // add blogs (lid graph-2), add people (graph-3), add people (graph-4),
  /// // then add entries (graph-1) with its relationships by lid
  /// ```
  ///
  /// What is a resource, and which:
  /// - A resource without `id` is new and added; a resource with an `id` is referenced by `type`
  ///   and `id`, never added or changed (its members are not sent, nor followed).
  /// - Inside a graph, a nested value with a `type` (stored, or from ``JSONAPIResource``) is a
  ///   related resource even without `id` or `lid`; a ``JSONAPIAttributeExpressible`` value is
  ///   still an attribute. (``encode(_:)`` keeps such values attributes, and refuses those of a
  ///   ``JSONAPIResource`` or ``JSONAPIRelationshipExpressible`` type.)
  /// - Values with the same `type` and `lid` are one resource: the first copy met that carries
  ///   members gives its members, and a copy with only `type` and `lid` points at it. A new
  ///   resource without `lid` gets one unique in the request (`graph-1`, `graph-2`, … skipping any
  ///   `lid` of yours); each such value is a resource of its own, so give shared new resources a
  ///   `lid`.
  ///
  /// Order: every relationship points at a resource that exists or was added before. A cycle
  /// among new resources is broken by adding one side without the relationship that closes the
  /// cycle, and setting that relationship afterwards with
  /// `{"op": "update", "ref": {"type", "lid", "relationship"}, "data": ...}`. Attributes go only
  /// in `data.attributes`, relationships as resource identifiers (`type` with `id` or `lid`).
  /// The same input gives the same bytes.
  ///
  /// - Throws: ``JSONAPIError/missingResourceType(swiftType:codingPath:)`` when `draft` does not
  ///   encode as a resource with a `type`; ``JSONAPIError/invalidValue(reason:codingPath:)`` when
  ///   `draft` has an `id` (it is the resource to create) or is not one resource, and for members
  ///   JSON:API cannot express (as ``encode(_:)``); the errors of ``encode(_:)`` for the models'
  ///   values (non-conforming floats, nesting beyond ``Limits/maxNestingDepth``).
  public func encode<T: Encodable>(graph draft: T) throws -> Data {
    try encodeGraph(draft).body
  }

  /// ``encode(graph:)`` with what the client needs to read the results: how many operations the
  /// request has and which one adds the root.
  package func encodeGraph<T: Encodable>(_ draft: T) throws -> JSONAPIGraphRequest {
    try withCall { call in
      let plan = try GraphPlanner(call: call).plan(draft)
      let body = try AtomicDocumentWriter(call: call).write(
        member: "atomic:operations", plan.operations, meta: nil, jsonapi: nil)
      return JSONAPIGraphRequest(
        body: body, operationCount: plan.operations.count, rootOperation: plan.rootOperation)
    }
  }
}

/// An encoded graph create (``JSONAPIEncoder/encode(graph:)``) and how to read its results.
package struct JSONAPIGraphRequest: Sendable {
  /// The `atomic:operations` document.
  package var body: Data
  /// How many operations it holds: a conforming answer has as many results (R111).
  package var operationCount: Int
  /// The position of the operation that adds the root, whose result is the created root.
  package var rootOperation: Int
}
