import Foundation

/// Writes the primary resources of a collection while the collection is still being encoded: each
/// resource is taken apart and written soon after its value is encoded, so its tree is let go of
/// instead of living until the whole document has been encoded. Peak memory then follows the
/// output and the related resources waiting for `included`, not every model's tree.
///
/// Only the elements of a standard `Array` in the primary data slot stream while they are encoded
/// (``EncoderImpl`` decides): `Array.encode(to:)` encodes each element once, in order, and never
/// goes back to one. Any other array of primary data is written by the same steps once the whole
/// value is encoded (``finish(_:)``): every array of primary data takes this one route.
///
/// Errors come in the order of the primary data: an element's error (encoding it, taking it apart,
/// writing it) is thrown once the elements before it are taken apart and written, so the first
/// element that fails is the one reported, and nothing after it is encoded.
///
/// A resource with an empty array whose kind no element type tells (``ToManyLedger``) is held
/// back, with every resource after it, until a later resource shows the member to be a to-many
/// relationship or the document is complete: a resource is written only once its members are
/// settled. Until then those resources stay in memory, as they would without streaming; the
/// resources written are never revisited. (A resource held back is written later, so an error
/// writing it can come after an error taking a later resource apart.)
final class PrimaryDataStream {
  // Confined to one encode call on one thread: no dynamic exclusivity checks needed.
  @exclusivity(unchecked) var assembler: DocumentAssembler
  @exclusivity(unchecked) private var writer: DocumentWriter
  /// The array whose elements stream; one per call. Weak: the container that streams into the
  /// stream holds the array.
  @exclusivity(unchecked) private(set) weak var array: EncodedArray?
  /// Whether an array was adopted (``array`` is weak, so this is kept apart).
  @exclusivity(unchecked) private var adopted = false
  /// Whether elements still stream: a slot a nested container fills later ends it, and the
  /// elements from that slot on wait in the array until ``completeData()``.
  @exclusivity(unchecked) private(set) var isOpen = false
  /// Whether ``completeData()`` has run.
  @exclusivity(unchecked) private var isComplete = false
  /// How many elements have been taken apart (and written or held).
  @exclusivity(unchecked) private var written = 0
  /// A primary resource taken apart and not yet written: element `index` of the primary data.
  private struct Held {
    let parts: ResourceParts
    let index: Int
  }
  /// The resources held back, in order, from ``heldHead`` on (`nil` once written).
  @exclusivity(unchecked) private var held: [Held?] = []
  @exclusivity(unchecked) private var heldHead = 0
  /// How many elements have streamed.
  var count: Int { written + batch.count }
  /// The Swift type errors name for an element that is not a resource.
  private let swiftType: Any.Type

  /// A stream for a document whose primary data is of type `swiftType`.
  init(options: EncodingOptions, swiftType: Any.Type) {
    assembler = DocumentAssembler(options: options)
    writer = DocumentWriter(options: options)
    self.swiftType = swiftType
  }

  /// Lets `array` stream, when no other array does.
  func adopt(_ array: EncodedArray) -> Bool {
    guard !adopted else { return false }
    adopted = true
    isOpen = true
    self.array = array
    return true
  }

  /// Ends streaming: later elements are kept in the array.
  func end() {
    isOpen = false
  }

  /// Elements encoded but not yet taken apart: they are taken apart and written a batch at a time,
  /// which keeps each stage's code hot in the instruction cache (one element at a time would run
  /// the whole pipeline's code per resource) while holding only a batch of trees.
  @exclusivity(unchecked) private var batch: [EncodedNode] = []
  private static let batchSize = 64

  /// Takes the next element of the primary data, to be taken apart and written.
  ///
  /// - Throws: The first error of an element of a full batch.
  func element(_ node: EncodedNode) throws {
    if batch.isEmpty { batch.reserveCapacity(Self.batchSize) }
    batch.append(node)
    if batch.count == Self.batchSize { try flush() }
  }

  /// The error to throw for `error`, met encoding the next element: the first error of an earlier
  /// element still in the batch, if one has one.
  func failing(with error: any Error) -> any Error {
    do { try flush() } catch { return error }
    return error
  }

  /// Takes apart and writes the elements of the batch, in order.
  ///
  /// - Throws: The first element's error.
  private func flush() throws {
    // By index, letting go of each tree as soon as it is written, while it is still in the cache.
    for index in batch.indices {
      let node = batch[index]
      batch[index] = .null
      try write(node)
    }
    batch.removeAll(keepingCapacity: true)
  }

  /// Ends the primary data, once its array is encoded: takes apart and writes what is left, then
  /// checks that no resource was given twice (R40). Errors in the primary data so come before any
  /// of the members encoded after it.
  ///
  /// - Throws: The first element's error, then a repeated resource.
  func completeData() throws {
    guard !isComplete else { return }
    isComplete = true
    isOpen = false
    try flush()
    // Elements kept after the stream ended (all of them for an array adopted once encoded), in
    // order.
    if let array {
      for element in array.elements { try write(element) }
    }
    try assembler.checkPrimaryIdentities()
  }

  /// Takes apart and writes the next element of the primary data.
  private func write(_ node: EncodedNode) throws {
    let index = written
    written += 1
    do {
      let parts = try assembler.primaryElement(node, at: index, rootType: swiftType)
      let blocking = assembler.firstUnsettledPrimary()
      if heldHead == held.count, blocking == nil {
        try writer.writeStreamedResource(parts, index: index)
      } else {
        held.append(Held(parts: parts, index: index))
        try writeHeld(upTo: blocking)
      }
    } catch {
      throw assembler.firstPrimaryError(error)
    }
  }

  /// Writes the resources held back, in order, up to `blocking` (`nil`: all of them).
  private func writeHeld(upTo blocking: ResourceParts?) throws {
    while heldHead < held.count, let next = held[heldHead], next.parts !== blocking {
      held[heldHead] = nil
      heldHead += 1
      try writer.writeStreamedResource(next.parts, index: next.index)
    }
    if heldHead == held.count {
      held.removeAll(keepingCapacity: true)
      heldHead = 0
    } else if heldHead >= 64, heldHead * 2 >= held.count {
      // Drop the entries written, in amortised constant time.
      held.removeSubrange(0..<heldHead)
      heldHead = 0
    }
  }

  /// The finished document, once the tree `root` is encoded.
  ///
  /// An array of primary data that did not stream while it was encoded (one of another collection
  /// type than `Array`, or one whose elements a nested container filled) is written here through
  /// the same steps, element by element: every array of primary data takes this one route. Other
  /// documents (one resource, `null`, errors, a relationship's body) are planned and written whole.
  ///
  /// - Throws: What planning and writing the rest of the document throws.
  func finish(_ root: EncodedNode) throws -> Data {
    if !adopted, let late = DocumentAssembler.primaryArray(of: root), adopt(late) {
      end()
      assembler.expectPrimaryResources(late.elements.count)
    }
    guard let array else {
      try writer.write(try assembler.assemble(root, rootType: swiftType))
      return try writer.takeData()
    }
    try completeData()
    // Takes the rest apart, which settles every member still undecided: then the resources held
    // back can be written.
    let rest = try assembler.assemble(root, rootType: swiftType, streamed: array)
    try writeHeld(upTo: nil)
    try writer.finishStreamedDocument(rest.others, count: written)
    return try writer.takeData()
  }
}
