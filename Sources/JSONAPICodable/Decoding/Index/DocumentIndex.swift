import Foundation

/// What one pass over the top level and the resource objects learns about a document: where its
/// members are, and which resource object each identity designates.
///
/// Checks the document rules decoding depends on (R2, R3, R5, R12, R14, R37, R40) and throws
/// ``JSONAPIError`` with a JSON Pointer when one is broken.
///
/// The data of one entry of an Atomic Operations document is indexed alone, where it lies in the
/// document's tape (``init(tape:entryData:member:outside:)``): its own resources as primary data,
/// and the resources of the other entries found through `outside` as relationships name them.
final class DocumentIndex {
  let tape: Tape
  /// `data`, or where an Atomic Operations entry's data is (`atomic:operations/3/data`): what
  /// pointers to the primary data start with.
  private let dataMember: String
  /// For an Atomic Operations entry: the resource object (tape index) of another entry that a
  /// relationship may resolve to, by identity; `nil` for a document.
  private let outside: ((_ type: Int, _ value: Int, _ isLocal: Bool) -> Int?)?
  /// The ordinal given to each resource found through `outside`, by its tape index: such resources
  /// are numbered after the entry's own as they are met, so that a decode sizes its bookkeeping
  /// by what it reaches, not by the whole document.
  @exclusivity(unchecked) private var outsideOrdinals: [Int32: Int32] = [:]
  private(set) var data: Int?
  private(set) var errors: Int?
  private(set) var included: Int?
  private(set) var meta: Int?
  private(set) var links: Int?
  private(set) var jsonapi: Int?

  // Written only while indexing, then read by one decode call on one thread: the dynamic
  // exclusivity checks on these class properties would run on every access, in hot loops.
  /// Tape index of each resource object, by ordinal.
  @exclusivity(unchecked) private(set) var resourceObjects: [Int32] = []
  /// Tape indices of each resource object's `type` and `id` strings, by ordinal (`id` -1 when it
  /// has only a `lid`). One array: a call that decodes one resource makes one allocation fewer.
  @exclusivity(unchecked) private var identities: [(type: Int32, id: Int32)] = []
  /// Ordinals below this are resources of `data`, the rest of `included`: each part is in document
  /// order, so ascending by tape index.
  @exclusivity(unchecked) private var dataResourceCount = 0
  /// The ordinal `ordinal(ofResourceAt:)` found last: arrays of resources are read in order, so
  /// the next one is usually the answer.
  @exclusivity(unchecked) private var lastOrdinal = -1
  /// The ordinal `resource(type:value:isLocal:)` found last, kept apart for types whose names
  /// differ in length (mod 4): a chain's next link, or the next of a to-many relationship's
  /// resources, usually follows the one found last of its type in `included`, while resources of
  /// other types (each comment's author) are looked up in between.
  @exclusivity(unchecked) private var lastFound = LastFound()

  private struct LastFound {
    private var slots: (Int, Int, Int, Int) = (-1, -1, -1, -1)

    subscript(typeNameLength: Int) -> Int {
      get {
        switch typeNameLength & 3 {
        case 0: return slots.0
        case 1: return slots.1
        case 2: return slots.2
        default: return slots.3
        }
      }
      set {
        switch typeNameLength & 3 {
        case 0: slots.0 = newValue
        case 1: slots.1 = newValue
        case 2: slots.2 = newValue
        default: slots.3 = newValue
        }
      }
    }
  }
  @exclusivity(unchecked) private var table: ResourceTable

  init(tape: Tape) throws {
    self.tape = tape
    dataMember = "data"
    outside = nil
    table = ResourceTable(expectedCount: 0)
    let top = tape[0]
    guard top.kind == .object else {
      throw JSONAPIError.notADocument(
        reason: "the top level is \(top.kind.phrase), expected an object with data, errors or meta")
    }
    var hasExtensionMember = false
    tape.forEachMember(ofObjectAt: 0) { name in
      let entry = tape[name]
      switch TapeStrings.string(tape, entry) {
      case "data": data = name + 1
      case "errors": errors = name + 1
      case "included": included = name + 1
      case "meta": meta = name + 1
      case "links": links = name + 1
      case "jsonapi": jsonapi = name + 1
      // An extension member such as atomic:operations also makes a document (R2).
      case let other where other.contains(":"): hasExtensionMember = true
      default: break
      }
    }
    // `null` where the member's null means nothing of its own reads as absent (issue 36: what
    // real servers send, where the meaning is plain): no errors, no included resources, no meta
    // (R43 wants an object), no links, no jsonapi object. `"data": null` keeps its meaning (R8,
    // R115). So `{"meta": null}` has none of data, errors and meta, and is no document (R2).
    errors = Self.nonNull(errors, in: tape)
    included = Self.nonNull(included, in: tape)
    meta = Self.nonNull(meta, in: tape)
    links = Self.nonNull(links, in: tape)
    jsonapi = Self.nonNull(jsonapi, in: tape)
    try checkTopLevel(hasExtensionMember: hasExtensionMember)
    if errors == nil { try indexResources() }
  }

  /// Indexes the `data` of an Atomic Operations entry, the value at `data` in `tape`, as a
  /// document's primary data; `member` places it in the document for pointers
  /// (`atomic:operations/3/data`). Relationships naming a resource the entry does not hold resolve
  /// to what `outside` finds for that identity (`type` and `id` or `lid` tape indices), unless it
  /// shares an identity with one of the entry's own resources: one document cannot hold both (R40).
  init(
    tape: Tape, entryData data: Int, member: String,
    outside: @escaping (_ type: Int, _ value: Int, _ isLocal: Bool) -> Int?
  ) throws {
    self.tape = tape
    dataMember = member
    self.outside = outside
    table = ResourceTable(expectedCount: 0)
    self.data = data
    try checkData()
    try indexResources()
  }

  /// `member`, or `nil` when its value is `null`.
  private static func nonNull(_ member: Int?, in tape: Tape) -> Int? {
    member.flatMap { tape[$0].kind == .null ? nil : $0 }
  }

  private func checkTopLevel(hasExtensionMember: Bool) throws {
    if data != nil && errors != nil {
      throw JSONAPIError.invalidDocument(
        reason: SpecSection.cite(
          "a document must not contain both data and errors", SpecSection.topLevel), pointer: "")
    }
    if let errors, tape[errors].kind != .array {
      throw JSONAPIError.invalidDocument(
        reason: SpecSection.cite(
          "errors must be an array, found \(tape[errors].kind.phrase)", SpecSection.topLevel),
        pointer: "/errors")
    }
    if data == nil && errors == nil {
      guard let meta else {
        if hasExtensionMember { return }
        throw JSONAPIError.notADocument(
          reason: SpecSection.cite(
            "the top level has none of data, errors and meta", SpecSection.topLevel))
      }
      guard tape[meta].kind == .object else {
        throw JSONAPIError.notADocument(
          reason: SpecSection.cite(
            "meta must be an object, found \(tape[meta].kind.phrase)", SpecSection.meta))
      }
    }
    if let included {
      guard data != nil else {
        throw JSONAPIError.invalidDocument(
          reason: SpecSection.cite(
            "included must not appear without data", SpecSection.topLevel), pointer: "/included")
      }
      guard tape[included].kind == .array else {
        throw JSONAPIError.invalidDocument(
          reason: "included must be an array, found \(tape[included].kind.phrase)",
          pointer: "/included")
      }
    }
    try checkData()
  }

  private func checkData() throws {
    guard let data else { return }
    switch tape[data].kind {
    case .object, .array, .null: break
    default:
      throw JSONAPIError.invalidDocument(
        reason: "data must be a resource, an array of resources or null, found "
          + tape[data].kind.phrase, pointer: "/\(dataMember)")
    }
  }

  /// Reads every resource's identity in document order, then places them all in the table at once
  /// (``ResourceTable/placeAdded(_:)``). The first error in document order is thrown, as if each
  /// were placed when read: a repeated identity (R40) found by the placing comes before a broken
  /// resource that stopped the reading, since the reading stops at the first broken one.
  private func indexResources() throws {
    var expected = 0
    if let data { expected += tape[data].kind == .array ? tape[data].elementCount : 1 }
    if let included { expected += tape[included].elementCount }
    table = ResourceTable(expectedCount: expected)
    resourceObjects.reserveCapacity(expected)
    identities.reserveCapacity(expected)
    var broken: (any Error)?
    do {
      if let data {
        if tape[data].kind == .object {
          try indexResource(at: data, member: dataMember, position: nil)
        } else if tape[data].kind == .array {
          try indexElements(ofArrayAt: data, member: dataMember)
        }
      }
      dataResourceCount = resourceObjects.count
      if let included { try indexElements(ofArrayAt: included, member: "included") }
    } catch {
      broken = error
    }
    if let repeated = table.placeAdded(tape) {
      throw JSONAPIError.duplicateResource(
        type: TapeStrings.string(tape, tape[repeated.type]),
        id: TapeStrings.string(tape, tape[repeated.value]),
        pointer: pointer(toResourceAt: Int(resourceObjects[Int(repeated.ordinal)])))
    }
    if let broken { throw broken }
  }

  private func indexElements(ofArrayAt array: Int, member: String) throws {
    var position = 0
    var element = array + 1
    let end = tape[array].containerEnd
    while element < end {
      // The first bytes of the next resources are read all at once, before any is indexed: in a
      // large document the scan left them long ago, and each resource's `type` and `id` was a
      // wait for memory.
      // Read together, the waits overlap; read one resource ahead, they did not.
      var count = 0
      var next = element
      var touched: UInt8 = 0
      while count < Self.batchSize, next < end {
        touched |= tape.base[min(Int(tape[next].offset) &+ Self.readAheadBytes, tape.byteCount - 1)]
        count += 1
        next = tape.next(after: next)
      }
      // Kept, so that the reads are not optimized away.
      readAheadSink |= touched
      for _ in 0..<count {
        try indexResource(at: element, member: member, position: position)
        position += 1
        element = tape.next(after: element)
      }
    }
  }

  /// How many resources ``indexElements(ofArrayAt:member:)`` reads at once.
  private static let batchSize = 16
  /// Where in a resource it reads: past the `{` and the first member's name, at the `type` and
  /// `id` that usually open a resource object.
  private static let readAheadBytes = 16
  @exclusivity(unchecked) private var readAheadSink: UInt8 = 0

  private func indexResource(at object: Int, member: String, position: Int?) throws {
    guard tape[object].kind == .object else {
      throw JSONAPIError.invalidDocument(
        reason: "expected a resource object, found \(tape[object].kind.phrase)",
        pointer: Self.pointer(member, position))
    }
    let identity = try ResourceIdentity(tape: tape, object: object) {
      Self.pointer(member, position)
    }
    guard identity.id != nil || identity.lid != nil else { return }
    let ordinal = Int32(truncatingIfNeeded: resourceObjects.count)
    if let id = identity.id {
      table.add(tape, type: identity.type, value: id, isLocal: false, ordinal: ordinal)
    }
    if let lid = identity.lid {
      table.add(tape, type: identity.type, value: lid, isLocal: true, ordinal: ordinal)
    }
    resourceObjects.append(Int32(truncatingIfNeeded: object))
    identities.append(
      (
        Int32(truncatingIfNeeded: identity.type),
        identity.id.map { Int32(truncatingIfNeeded: $0) } ?? -1
      ))
  }

  private static func pointer(_ member: String, _ position: Int?) -> String {
    position.map { "/\(member)/\($0)" } ?? "/\(member)"
  }

  /// The JSON Pointer of the resource object at tape index `object`, in `data` or `included`:
  /// built only for an error.
  private func pointer(toResourceAt object: Int) -> String {
    for (member, value) in [(dataMember, data), ("included", included)] {
      guard let value, value <= object, object < tape.next(after: value) else { continue }
      guard tape[value].kind == .array else { return Self.pointer(member, nil) }
      var position = 0
      var element = value + 1
      while element < object {
        position += 1
        element = tape.next(after: element)
      }
      return Self.pointer(member, position)
    }
    return ""
  }

  /// The resource object for an identity, if the document has it.
  func resource(type: Int, value: Int, isLocal: Bool) -> (ordinal: Int32, object: Int)? {
    // The resource after the one found last is compared before hashing: it is warm (decoding goes
    // there next), where the hash slot of a large document is a cache miss. Identities are unique
    // (R40, checked while indexing), so a match is what the table would find.
    let typeNameLength = tape[type].length
    let guess = lastFound[typeNameLength] + 1
    if !isLocal, guess < identities.count, identities[guess].id >= 0,
      TapeStrings.equal(tape, Int(identities[guess].id), value),
      TapeStrings.equal(tape, Int(identities[guess].type), type)
    {
      lastFound[typeNameLength] = guess
      return (Int32(truncatingIfNeeded: guess), Int(resourceObjects[guess]))
    }
    guard let ordinal = table.lookup(tape, type: type, value: value, isLocal: isLocal) else {
      return outside == nil ? nil : outsideResource(type: type, value: value, isLocal: isLocal)
    }
    lastFound[typeNameLength] = Int(ordinal)
    return (ordinal, Int(resourceObjects[Int(ordinal)]))
  }

  /// The resource of another Atomic Operations entry with this identity, numbered after the ones
  /// met before; `nil` when there is none or it shares an identity with one of this entry's own.
  @inline(never)
  private func outsideResource(type: Int, value: Int, isLocal: Bool) -> (
    ordinal: Int32, object: Int
  )? {
    guard let outside, let object = outside(type, value, isLocal) else { return nil }
    let key = Int32(truncatingIfNeeded: object)
    if let known = outsideOrdinals[key] { return (known, object) }
    // Checked when it joined the shared table, so this does not fail.
    guard let identity = try? ResourceIdentity(tape: tape, object: object, pointer: { "" }) else {
      return nil
    }
    func isOwn(_ value: Int?, isLocal: Bool) -> Bool {
      value.map { table.lookup(tape, type: identity.type, value: $0, isLocal: isLocal) != nil }
        ?? false
    }
    if isOwn(identity.id, isLocal: false) || isOwn(identity.lid, isLocal: true) { return nil }
    let ordinal = Int32(truncatingIfNeeded: resourceObjects.count)
    resourceObjects.append(key)
    identities.append(
      (
        Int32(truncatingIfNeeded: identity.type),
        identity.id.map { Int32(truncatingIfNeeded: $0) } ?? -1
      ))
    outsideOrdinals[key] = ordinal
    return (ordinal, object)
  }

  /// The ordinal of the resource object at tape index `object`, if it is one of the indexed
  /// resources (it has an `id` or a `lid`). What looking up its own identity would find, without
  /// reading and hashing that identity again: a binary search of the `data` part, then of the
  /// `included` part.
  func ordinal(ofResourceAt object: Int) -> Int32? {
    let target = Int32(truncatingIfNeeded: object)
    let guess = lastOrdinal + 1
    if guess < resourceObjects.count, resourceObjects[guess] == target {
      lastOrdinal = guess
      return Int32(truncatingIfNeeded: guess)
    }
    let found = resourceObjects.withUnsafeBufferPointer { objects in
      func search(_ range: Range<Int>) -> Int32? {
        var low = range.lowerBound
        var high = range.upperBound
        while low < high {
          let middle = low + (high - low) / 2
          if objects[middle] < target { low = middle + 1 } else { high = middle }
        }
        return low < range.upperBound && objects[low] == target
          ? Int32(truncatingIfNeeded: low) : nil
      }
      // Resources found outside an Atomic Operations entry are numbered in the order met, not
      // sorted: they are in the dictionary.
      return search(0..<dataResourceCount)
        ?? (outside == nil
          ? search(dataResourceCount..<objects.count) : outsideOrdinals[target])
    }
    if let found { lastOrdinal = Int(found) }
    return found
  }

  /// Tape index of the `type` string of the resource with this ordinal.
  func typeEntry(ofResource ordinal: Int32) -> Int { Int(identities[Int(ordinal)].type) }

  var resourceCount: Int { resourceObjects.count }
}
