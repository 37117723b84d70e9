import Foundation

/// Writes the primary resources of a collection while the collection is still being encoded: each
/// resource is taken apart and written as soon as its value is encoded, so its tree is let go at
/// once instead of living until the whole document has been encoded. Peak memory then follows the
/// output and the related resources waiting for `included`, not every model's tree.
///
/// Only the elements of a standard `Array` in the primary data slot stream (``EncoderImpl``
/// decides): `Array.encode(to:)` encodes each element once, in order, and never goes back to one.
/// The output and the errors are those of assembling the finished tree: a problem found while
/// streaming is kept and thrown where the whole-tree route would have thrown it.
final class PrimaryDataStream {
  // Confined to one encode call on one thread: no dynamic exclusivity checks needed.
  @exclusivity(unchecked) var assembler: DocumentAssembler
  @exclusivity(unchecked) var writer: JSONWriter
  /// The array whose elements stream; one per call. Weak: the array points back at the stream.
  @exclusivity(unchecked) private(set) weak var array: EncodedArray?
  /// Whether an array was adopted (``array`` is weak, so this is kept apart).
  @exclusivity(unchecked) private var adopted = false
  /// How many elements have been taken apart (and, unless writing failed, written).
  @exclusivity(unchecked) private var written = 0
  /// How many elements have streamed.
  var count: Int { written + batch.count }
  /// The Swift type errors name for an element that is not a resource.
  private let swiftType: Any.Type
  /// The first error taking an element apart: the whole-tree route would have thrown it once
  /// every model had encoded, before anything else the assembly checks.
  @exclusivity(unchecked) private var assemblyError: (any Error)?
  /// The first error writing an element: thrown last, as writing comes after assembly.
  @exclusivity(unchecked) private var writingError: (any Error)?

  /// A stream for a document whose primary data is of type `swiftType`.
  init(options: EncodingOptions, swiftType: Any.Type) {
    assembler = DocumentAssembler(options: options)
    writer = JSONWriter(formatting: options.outputFormatting, limits: options.limits)
    self.swiftType = swiftType
  }

  /// Lets `array` stream, when no other array does.
  func adopt(_ array: EncodedArray) -> Bool {
    guard !adopted else { return false }
    adopted = true
    self.array = array
    return true
  }

  /// Elements encoded but not yet taken apart: they are taken apart and written a batch at a time,
  /// which keeps each stage's code hot in the instruction cache (one element at a time ran the
  /// whole pipeline's code per resource) while holding only a batch of trees.
  @exclusivity(unchecked) private var batch: [EncodedNode] = []
  private static let batchSize = 64

  /// Takes the next element of the primary data, to be taken apart and written.
  func element(_ node: EncodedNode) {
    if batch.isEmpty { batch.reserveCapacity(Self.batchSize) }
    batch.append(node)
    if batch.count == Self.batchSize { flush() }
  }

  /// Takes apart and writes the batch.
  private func flush() {
    // By index, letting go of each tree as soon as it is written, while it is still in the cache.
    for index in batch.indices {
      let node = batch[index]
      batch[index] = .null
      write(node)
    }
    batch.removeAll(keepingCapacity: true)
  }

  /// Takes apart and writes the next element of the primary data.
  private func write(_ node: EncodedNode) {
    defer { written += 1 }
    // After a failure only encoding goes on, for its errors come first.
    guard assemblyError == nil else { return }
    let parts: ResourceParts
    do {
      guard case .object(let object) = node else {
        // A document's data is named as the whole-tree route names it.
        let name = swiftType is any JSONAPIDocumentMarker.Type ? "\(Any.self)" : "\(swiftType)"
        throw JSONAPIError.missingResourceType(
          swiftType: name, codingPath: EncodingPath.topLevel.appending(index: written).text)
      }
      parts = try assembler.primaryResource(object, at: written)
    } catch {
      assemblyError = assembler.firstPrimaryError(error)
      return
    }
    guard writingError == nil else { return }
    do {
      try writer.writeStreamedElement(.resource(parts), index: written)
    } catch {
      writingError = error
    }
  }

  /// The finished document, once the tree `root` (whose primary data is ``array``) is encoded.
  ///
  /// - Throws: What assembling and writing the tree would have thrown.
  func finish(_ root: EncodedNode) throws -> Data {
    guard let array, count > 0 else {
      // Nothing streamed: the document is assembled and written whole.
      let document = try assembler.assemble(root, rootType: swiftType)
      try writer.write(.object(document))
      return try writer.bytes.takeData()
    }
    flush()
    // Elements a nested container added after the stream are taken apart now, in order.
    for element in array.elements { write(element) }
    if let assemblyError { throw assemblyError }
    try assembler.checkPrimaryIdentities()
    let rest = try assembler.assemble(root, rootType: swiftType, streamed: array)
    if let writingError { throw writingError }
    try writer.finishStreamedDocument(rest)
    return try writer.bytes.takeData()
  }
}
