/// Takes the related resources of a streamed collection apart and writes them while their trees
/// are still in the cache, as each primary resource streams, instead of keeping every copy until
/// the primary data is done and reading it then, cold, twice (taken apart, then written).
/// ``included(admittingInto:)`` then puts `included` together from the written text, in the order
/// the collector would have given (breadth first from the primary data, one per identity).
///
/// Exact, or nothing. The assembly this replaces keeps the first copy of a resource met breadth
/// first and merges later copies' extra fields into it, and throws the first error it meets taking
/// copies apart. Here copies are met depth first, so the text of every copy that the breadth-first
/// order reaches is kept; when two copies of one resource differ, or taking a reached copy apart
/// failed, the result could differ from the assembly's, and ``included(admittingInto:)`` gives
/// up: the document is then encoded again the other way, which says what it must.
///
/// Copies of a shared resource (one author on many articles) are compared, before they are taken
/// apart, with the copy in a small table of recent identities (``EncodedNode/sameObjects(_:_:depth:)``); the
/// same copy is not taken apart or written again.
final class IncludedPrewriter {
  /// A copy of a related resource, taken apart and written.
  private struct Record {
    /// `nil` for a resource without `id` or `lid`, which is never included.
    let identity: EncodedResourceIdentity?
    let hash: Int
    /// Its text in ``writer``'s bytes.
    let text: Range<Int>
    /// Its related resources' entries in ``children``, in the order of its relationships.
    let children: Range<Int>
    var state: State
  }

  private enum State {
    case written
    /// Taking it apart or writing it failed.
    case failed
    /// In `included` already.
    case included
  }

  /// A recently met identity and the record of its copy; `reference` is a copy of that copy's
  /// object as encoded (taking it apart marks its members), kept once the identity is met again.
  private struct Recent {
    /// The identity's hash, compared first: most look-ups meet another identity.
    var hash = 0
    var identity: EncodedResourceIdentity?
    var record = -1
    var reference: EncodedObject?
  }

  private let classifier: ResourceClassifier
  /// Where ``writer``'s buffer came from and goes back to once `included` is written.
  private let spare: SpareOutputBuffer?
  // Confined to one encode call on one thread: no dynamic exclusivity checks needed.
  @exclusivity(unchecked) private var writer: JSONWriter
  @exclusivity(unchecked) private var records: [Record] = []
  /// The records of the related resources of each primary resource, in order: where
  /// breadth-first order starts.
  @exclusivity(unchecked) private var roots: [Int] = []
  /// The records of each record's related resources (``Record/children``).
  @exclusivity(unchecked) private var children: [Int] = []
  /// Copies waiting to be taken apart, with the entry of ``roots`` (-1 - n) or ``children`` (n)
  /// their record goes to: depth first, so that each is read right after its parent.
  @exclusivity(unchecked) private var pending: [(entry: Int, resource: PendingResource)] = []
  /// Recent identities by hash: a power of two in size, found by the hash's low bits.
  @exclusivity(unchecked) private var recent: [Recent] = []
  private let recentSlots: Int

  /// Up to how many recent identities are kept: 1 024 entries of 64 bytes, 64 kB, stay in the
  /// cache.
  private static let recentLimit = 1024

  /// A prewriter for a collection of about `expectedCount` primary resources (0: not known),
  /// writing into a buffer from `spare` when there is one.
  init(classifier: ResourceClassifier, expectedCount: Int, spare: SpareOutputBuffer?) {
    self.classifier = classifier
    self.spare = spare
    writer = JSONWriter(
      formatting: classifier.options.outputFormatting, limits: classifier.options.limits,
      into: spare?.take() ?? OutputBuffer())
    var slots = 16
    while slots < Self.recentLimit && slots < expectedCount { slots *= 2 }
    recentSlots = slots
  }

  /// How many copies are written: no more resources than that can be included.
  var recordCount: Int { records.count }

  /// Takes apart and writes the related resources of a primary resource, and theirs in turn.
  func prewrite(_ relatives: [ResourceParts.Relative]) {
    guard !relatives.isEmpty else { return }
    if recent.isEmpty { recent = Array(repeating: Recent(), count: recentSlots) }
    let first = roots.count
    roots.append(contentsOf: repeatElement(-1, count: relatives.count))
    // Last first, so that the first is taken apart first. By index: `enumerated().reversed()`
    // makes an array of the pairs, whose copies are destroyed one by one through the runtime.
    for offset in stride(from: relatives.count - 1, through: 0, by: -1) {
      pending.append((-1 - (first + offset), relatives[offset].resource))
    }
    while let (entry, resource) = pending.popLast() {
      let record = take(resource)
      if entry < 0 { roots[-1 - entry] = record } else { children[entry] = record }
    }
  }

  /// The record for the copy `resource`: a recent one when it is the same, else a new one whose
  /// related resources are queued.
  private func take(_ resource: PendingResource) -> Int {
    let identity = resource.identifier.identity
    let hash = identity?.hashValue ?? 0
    let slot = hash & (recentSlots - 1)
    // Met before: the same copy has the same record.
    let metBefore =
      identity != nil && recent[slot].hash == hash && recent[slot].identity == identity
    if metBefore, let reference = recent[slot].reference,
      EncodedNode.sameObjects(resource.object, reference)
    {
      return recent[slot].record
    }
    // The second copy met is kept as encoded, to compare the next ones with.
    let reference = metBefore && recent[slot].reference == nil ? resource.object.copy() : nil
    let start = writer.bytes.count
    guard let parts = try? classifier.resource(resource),
      writer.writeIncludedElement(.resource(parts))
    else {
      writer.bytes.truncate(to: start)
      records.append(
        Record(identity: identity, hash: hash, text: start..<start, children: 0..<0, state: .failed)
      )
      return records.count - 1
    }
    var text = start..<writer.bytes.count
    if metBefore {
      // Written as before: one text for both.
      let earlier = records[recent[slot].record].text
      if writer.bytes.bytes(at: earlier, equal: text) {
        writer.bytes.truncate(to: start)
        text = earlier
      }
    }
    let relatives = parts.takeRelatives()
    let first = children.count
    children.append(contentsOf: repeatElement(-1, count: relatives.count))
    for offset in stride(from: relatives.count - 1, through: 0, by: -1) {
      pending.append((first + offset, relatives[offset].resource))
    }
    records.append(
      Record(
        identity: identity, hash: hash, text: text, children: first..<children.count,
        state: .written))
    let record = records.count - 1
    if let identity {
      if metBefore {
        if let reference {
          recent[slot].reference = reference
          recent[slot].record = record
        }
      } else {
        recent[slot] = Recent(hash: hash, identity: identity, record: record, reference: nil)
      }
    }
    return record
  }

  /// Gives the text's buffer back for the encoder's next call, once `included` has been copied
  /// into the document: nothing is written to it or read from it afterwards.
  func finish() {
    spare?.giveBack(writer.bytes)
  }

  /// `included`, breadth first from the primary data, each identity admitted into `collector`
  /// (which holds the primary ones) once; `nil` when it could differ from what assembling the
  /// document would give: two copies of a resource reached differ, taking a reached copy apart
  /// failed, or memory for the text could not be had.
  func included(admittingInto collector: inout IncludedCollector) -> PrewrittenElements? {
    guard !writer.bytes.hasFailed else { return nil }
    var queue = roots
    var head = 0
    var texts: [Range<Int>] = []
    while head < queue.count {
      let index = queue[head]
      head += 1
      guard records.indices.contains(index) else { return nil }
      switch records[index].state {
      case .failed: return nil
      case .included: continue
      case .written: break
      }
      // Without `id` or `lid`: neither included nor followed.
      guard let identity = records[index].identity else { continue }
      switch collector.admit(identity, hash: records[index].hash, position: index) {
      case .primary:
        continue
      case .known(let earlier):
        guard records.indices.contains(earlier),
          writer.bytes.bytes(at: records[earlier].text, equal: records[index].text)
        else { return nil }
      case .added:
        records[index].state = .included
        texts.append(records[index].text)
        queue.append(contentsOf: children[records[index].children])
      }
    }
    return PrewrittenElements(bytes: writer.bytes, ranges: texts)
  }
}
