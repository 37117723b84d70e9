/// Reads an `atomic:operations` or `atomic:results` document from the tape: checks the extension's
/// rules that reading depends on, notes where each entry's `data` is, and puts the resources of all
/// entries in one table for later decoding (``ReceivedAtomicDocument``). Members the extension does
/// not define are ignored, as JSON:API asks of implementations.
///
/// Everything here is a loop over the tape; nothing recurses on the input.
struct AtomicDocumentReader {
  private let decoder: DecoderImpl
  private let options: DecodingOptions
  private var tape: Tape { decoder.tape }

  init(decoder: DecoderImpl, options: DecodingOptions) {
    self.decoder = decoder
    self.options = options
  }

  /// `T` read from the whole document when it is one of the atomic types; `nil` otherwise.
  static func read<T>(_ type: T.Type, from decoder: DecoderImpl, options: DecodingOptions) throws
    -> T?
  {
    guard let atomic = T.self as? any AtomicDocumentDecodable.Type else { return nil }
    guard let value = try atomic.read(from: decoder, options: options) as? T else { return nil }
    return value
  }

  /// The results of an `atomic:results` document; `[]` for a document without results (meta only).
  ///
  /// - Throws: ``JSONAPIError/invalidDocument(reason:pointer:)`` when the document breaks a rule of
  ///   the extension: `data` or `included` beside results, results beside operations, a result
  ///   that is not an object, a `meta` that is neither an object nor `null` (`null` reads as
  ///   absent).
  func results() throws -> [JSONAPIOperationResult] {
    let member = "atomic:results"
    guard let array = try entries(member: member, other: "atomic:operations") else { return [] }
    var entries: [ReceivedAtomicEntry] = []
    var resources = AtomicResourceTable()
    var metas: [JSONAPIValue?] = []
    try forEachObject(in: array, member: member) { object, pointer in
      metas.append(try meta(of: object, pointer: pointer))
      entries.append(
        entry(of: object, number: entries.count, sharesResources: true, into: &resources))
    }
    let document = ReceivedAtomicDocument(
      member: member, options: options, tape: tape, entries: entries, resources: resources,
      resolvesLaterEntries: true)
    return metas.enumerated().map { index, meta in
      JSONAPIOperationResult(meta: meta, payload: .received(document, index: index))
    }
  }

  /// The operations of an `atomic:operations` document; `[]` for a document without operations.
  ///
  /// - Throws: ``JSONAPIError/invalidDocument(reason:pointer:)`` when the document breaks a rule of
  ///   the extension: an `op` other than `add`, `update` or `remove`; both `ref` and `href`; a `ref`
  ///   without `type`, or with neither or both of `id` and `lid`; a `remove` without a target; an
  ///   `add` or `update` without `data`; and the rules ``results()`` checks.
  ///   ``JSONAPIError/tooManyOperations(count:limit:)`` when there are more operations than
  ///   ``JSONAPIDecoder/Limits/maxAtomicOperations``, before any is read.
  func operations() throws -> [JSONAPIOperation] {
    let member = "atomic:operations"
    guard let array = try entries(member: member, other: "atomic:results") else { return [] }
    try checkOperationCount(ofArrayAt: array)
    var entries: [ReceivedAtomicEntry] = []
    var resources = AtomicResourceTable()
    var operations: [JSONAPIOperation] = []
    try forEachObject(in: array, member: member) { object, pointer in
      var operation = try header(of: object, pointer: pointer)
      operation.meta = try meta(of: object, pointer: pointer)
      // Relationship operations carry identifiers, not resources others may link to.
      entries.append(
        entry(
          of: object, number: entries.count,
          sharesResources: operation.ref?.relationship == nil, into: &resources))
      operations.append(operation)
    }
    let document = ReceivedAtomicDocument(
      member: member, options: options, tape: tape, entries: entries, resources: resources,
      resolvesLaterEntries: false)
    for index in operations.indices {
      operations[index].payload = .received(document, index: index)
    }
    return operations
  }

  // MARK: - The top level

  /// The array of `member`, after the top-level checks; `nil` when the document has neither kind.
  ///
  /// A member whose `null` means nothing of its own reads as absent (issue 36: what real servers
  /// send, where the meaning is plain): `"atomic:results": null` is no results, `"included":
  /// null` no included resources. `"data": null` is primary data in the base specification (R8),
  /// which this extension forbids (R99): it stays an error. Top-level `meta`, `links` and `jsonapi`
  /// are not read here; ``DocumentIndex`` reads a null `meta` as absent.
  private func entries(member: String, other: String) throws -> Int? {
    var array: Int?
    var hasOther = false
    try tape.forEachMember(ofObjectAt: 0) { name in
      let isNull = tape[name + 1].kind == .null
      switch TapeStrings.string(tape, tape[name]) {
      case member: array = isNull ? nil : name + 1
      case other: hasOther = hasOther || !isNull
      case "included" where isNull: break
      case let base where base == "data" || base == "included":
        throw Self.invalid(
          "a document of the Atomic Operations extension must not contain \(base)",
          pointer: "/\(base)")
      default: break
      }
    }
    guard let array else {
      if hasOther {
        throw Self.invalid("the document has \(other), expected \(member)", pointer: "/\(other)")
      }
      return nil
    }
    if hasOther {
      throw Self.invalid(
        "a document must not contain both atomic:operations and atomic:results",
        pointer: "/\(other)")
    }
    guard tape[array].kind == .array else {
      throw Self.invalid(
        "\(member) must be an array, found \(tape[array].kind.phrase)", pointer: "/\(member)")
    }
    return array
  }

  /// Throws when the array at `array` has more operations than the limit. The scanner counted its
  /// elements already: a request far over the limit costs no per-operation work at all.
  private func checkOperationCount(ofArrayAt array: Int) throws {
    let limit = options.limits.maxAtomicOperations
    var count = tape[array].elementCount
    if tape[array].isCountSaturated {
      // Counted past what a tape entry holds: walk the elements, which the scan made cheap.
      count = 0
      var element = array + 1
      while element < tape[array].containerEnd {
        count += 1
        element = tape.next(after: element)
      }
    }
    guard count > limit else { return }
    throw JSONAPIError.tooManyOperations(count: count, limit: limit)
  }

  /// Calls `body` with each element of the array at `array`, which must be an object.
  private func forEachObject(
    in array: Int, member: String, _ body: (_ object: Int, _ pointer: String) throws -> Void
  ) throws {
    var position = 0
    var element = array + 1
    while element < tape[array].containerEnd {
      let pointer = "/\(member)/\(position)"
      guard tape[element].kind == .object else {
        throw Self.invalid(
          "each element of \(member) must be an object, found \(tape[element].kind.phrase)",
          pointer: pointer)
      }
      try body(element, pointer)
      position += 1
      element = tape.next(after: element)
    }
  }

  // MARK: - Members of an operation or result

  /// The `meta` of an operation or result (R103, R109): an object (R43), or `nil` when absent or
  /// `null`, which reads as absent (issue 36: servers answer `"meta": null`).
  private func meta(of object: Int, pointer: String) throws -> JSONAPIValue? {
    guard let meta = nonNullMember(of: object, named: "meta") else { return nil }
    guard tape[meta].kind == .object else {
      throw JSONAPIError.invalidDocument(
        reason: SpecSection.cite(
          "meta must be an object, found \(tape[meta].kind.phrase)", SpecSection.meta),
        pointer: "\(pointer)/meta")
    }
    return try decoder.jsonValue(at: meta)
  }

  /// `op`, `ref` and `href` of the operation object at `object`.
  private func header(of object: Int, pointer: String) throws -> JSONAPIOperation {
    guard let opValue = tape.memberValue(ofObjectAt: object, named: "op"),
      tape[opValue].kind == .string,
      let op = JSONAPIOperationCode(rawValue: TapeStrings.string(tape, tape[opValue]))
    else {
      throw Self.invalid(
        "an operation needs op, a string: add, update or remove", pointer: "\(pointer)/op")
    }
    // `"ref": null` and `"href": null` read as absent: a serializer writing both keys, one null,
    // gives one target (R102).
    let refValue = nonNullMember(of: object, named: "ref")
    let hrefValue = nonNullMember(of: object, named: "href")
    if refValue != nil && hrefValue != nil {
      throw Self.invalid("an operation must not contain both ref and href", pointer: pointer)
    }
    var href: String?
    if let hrefValue {
      guard tape[hrefValue].kind == .string else {
        throw Self.invalid(
          "href must be a string, found \(tape[hrefValue].kind.phrase)", pointer: "\(pointer)/href")
      }
      href = TapeStrings.string(tape, tape[hrefValue])
    }
    let ref = try refValue.map { try reference(at: $0, pointer: "\(pointer)/ref") }
    let hasData = tape.memberValue(ofObjectAt: object, named: "data") != nil
    if op == .remove && ref == nil && href == nil {
      throw Self.invalid("a remove operation needs ref or href", pointer: pointer)
    }
    if op != .remove && !hasData {
      throw Self.invalid("an \(op.rawValue) operation needs data", pointer: pointer)
    }
    return JSONAPIOperation(op: op, ref: ref, href: href, meta: nil, payload: .none)
  }

  /// The `ref` object at `value`: `type` with `id` or `lid` (not both), and maybe `relationship`.
  ///
  /// Read as resource identities are (``ResourceIdentity``): an integer `id` is its digits
  /// (`"id": 2` is `"2"`, R14 bent as real servers bend it); `"id": null`, `"lid": null` and
  /// `"relationship": null` read as absent. `type` stays a string, and a `ref` still needs
  /// exactly one of `id` and `lid`.
  private func reference(at value: Int, pointer: String) throws -> JSONAPIOperationReference {
    guard tape[value].kind == .object else {
      throw Self.invalid(
        "ref must be an object, found \(tape[value].kind.phrase)", pointer: pointer)
    }
    // Members the extension does not define are ignored, as JSON:API asks of implementations.
    var members: [String: String] = [:]
    try tape.forEachMember(ofObjectAt: value) { name in
      let text = TapeStrings.string(tape, tape[name])
      guard ["type", "id", "lid", "relationship"].contains(text) else { return }
      let entry = tape[name + 1]
      if entry.kind == .null && text != "type" { return }
      guard entry.kind == .string || (text == "id" && ResourceIdentity.isIDText(entry)) else {
        throw Self.invalid(
          ResourceIdentity.message(text, tape, name + 1), pointer: "\(pointer)/\(text)")
      }
      members[text] = TapeStrings.string(tape, entry)
    }
    guard let type = members["type"] else {
      throw Self.invalid("ref needs type", pointer: pointer)
    }
    switch (members["id"], members["lid"]) {
    case (let id?, nil):
      return JSONAPIOperationReference(type: type, id: id, relationship: members["relationship"])
    case (nil, let lid?):
      return JSONAPIOperationReference(type: type, lid: lid, relationship: members["relationship"])
    default:
      throw Self.invalid("ref needs exactly one of id and lid", pointer: pointer)
    }
  }

  // MARK: - Data

  /// The entry for the object at `object`, entry `number` of the document: where its `data` is.
  /// When other entries may link to its resources (`sharesResources`), they join `resources`.
  private func entry(
    of object: Int, number: Int, sharesResources: Bool, into resources: inout AtomicResourceTable
  ) -> ReceivedAtomicEntry {
    guard let data = tape.memberValue(ofObjectAt: object, named: "data") else {
      return ReceivedAtomicEntry(data: nil)
    }
    guard sharesResources else { return ReceivedAtomicEntry(data: data) }
    switch tape[data].kind {
    case .object:
      resources.add(objectAt: data, entry: number, tape: tape)
    case .array:
      var element = data + 1
      while element < tape[data].containerEnd {
        if tape[element].kind == .object {
          resources.add(objectAt: element, entry: number, tape: tape)
        }
        element = tape.next(after: element)
      }
    default:
      break
    }
    return ReceivedAtomicEntry(data: data)
  }

  /// The value of the member `name` of the object at `object`, unless it is absent or `null`.
  private func nonNullMember(of object: Int, named name: StaticString) -> Int? {
    tape.memberValue(ofObjectAt: object, named: name).flatMap {
      tape[$0].kind == .null ? nil : $0
    }
  }

  private static func invalid(_ reason: String, pointer: String) -> JSONAPIError {
    .invalidDocument(
      reason: SpecSection.cite(reason, SpecSection.atomicOperations), pointer: pointer)
  }
}
