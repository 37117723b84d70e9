/// A JSON array under construction.
final class EncodedArray {
  /// Whether the array's Swift element type is ``JSONAPIRelationshipExpressible``, so that even an
  /// empty array is a to-many relationship.
  @exclusivity(unchecked) var holdsRelatedResources: Bool
  // Confined to one encode call on one thread: no dynamic exclusivity checks needed.
  @exclusivity(unchecked) var elements: [EncodedNode] = []
  /// Whether the writer lets go of each element once it is written, while its memory is still in
  /// the cache: set on a document's `included`, which is written once and then dropped (freeing a
  /// large tree afterwards walks it all again, cold).
  @exclusivity(unchecked) var releasesElementsWhenWritten = false
  /// Where the elements go instead of ``elements`` while the array is the streamed primary data.
  @exclusivity(unchecked) var stream: PrimaryDataStream?

  init(holdsRelatedResources: Bool = false) {
    self.holdsRelatedResources = holdsRelatedResources
  }

  /// How many elements streamed before the stream ended (see ``endStream()``).
  @exclusivity(unchecked) private var streamedCount = 0

  /// How many elements the array has, streamed ones included.
  var count: Int { (stream?.count ?? streamedCount) + elements.count }

  /// Adds an element: to the stream while there is one, else to ``elements``.
  func append(_ element: EncodedNode) {
    if let stream { stream.element(element) } else { elements.append(element) }
  }

  /// Stops streaming: a later element must be kept, such as a slot a nested container fills later.
  /// Streamed elements stay streamed; the rest follow them when the document is finished.
  func endStream() {
    guard let stream else { return }
    streamedCount = stream.count
    self.stream = nil
  }
}
