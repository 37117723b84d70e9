/// The identifier members of an encoded resource: `type`, and `id` and/or `lid`.
///
/// ``init(of:)`` is the one place the encoder reads and checks them; everything that asks whether
/// an object is a resource, or which one, goes through it.
struct EncodedResourceIdentifier {
  let type: String
  let id: String?
  let lid: String?

  /// What is wrong with an object's identifier members. Cheap to throw: the error users see is
  /// built by ``error(swiftType:at:)`` only where it is thrown on.
  enum Problem: Error {
    /// `type` is absent or `null`.
    case missingType
    /// `type` is not a string.
    case typeNotString
    /// `id` is not a string or a number.
    case idNotScalar
    /// `lid` is not a string.
    case lidNotString
  }

  /// An identifier from members already checked: one a graph made up (its `lid`) or an update's.
  init(type: String, id: String?, lid: String?) {
    self.type = type
    self.id = id
    self.lid = lid
  }

  /// The identifier members of `object`: a string `type` (required), an `id` of any scalar type
  /// written as its string, a string `lid`; an absent or `null` `id` or `lid` is `nil`.
  init(of object: EncodedObject) throws(Problem) {
    switch object[ResourceMemberName.type.text] {
    case .string(let value)?: type = value
    case nil, .null?, .nullRelated?: throw .missingType
    default: throw .typeNotString
    }
    switch object[ResourceMemberName.id.text] {
    case .string(let value)?, .number(let value)?: id = value
    case .integer(let value)?: id = String(value)
    case nil, .null?, .nullRelated?: id = nil
    default: throw .idNotScalar
    }
    switch object[ResourceMemberName.lid.text] {
    case .string(let value)?: lid = value
    case nil, .null?, .nullRelated?: lid = nil
    default: throw .lidNotString
    }
  }

  /// The resource's identity in the document: by `id` when it has one, else by `lid`.
  var identity: EncodedResourceIdentity? {
    if let id { return EncodedResourceIdentity(type: type, id: id, isLocal: false) }
    if let lid { return EncodedResourceIdentity(type: type, id: lid, isLocal: true) }
    return nil
  }

  /// The identifier object's members `type`, `id`, `lid`, in the order they are written: the one
  /// place they are written, for resource objects, linkage, and the plans of graph creates and
  /// Atomic Operations.
  func forEachMember<E: Error>(_ body: (String, PlannedNode) throws(E) -> Void) throws(E) {
    try body(ResourceMemberName.type.text, .value(.string(type)))
    if let id { try body(ResourceMemberName.id.text, .value(.string(id))) }
    if let lid { try body(ResourceMemberName.lid.text, .value(.string(lid))) }
  }

  /// ``forEachMember(_:)`` as a plan, for objects that add members of their own after these (an
  /// operation's `ref` adds `relationship`; a graph's new resource its fields).
  var plannedMembers: [PlannedMember] {
    var members: [PlannedMember] = []
    forEachMember { key, value in members.append(PlannedMember(key, value)) }
    return members
  }
}

extension EncodedResourceIdentifier.Problem {
  /// The error users see for a resource of `swiftType` at `path`.
  func error(swiftType: String, at path: EncodingPath) -> JSONAPIError {
    let member: ResourceMemberName
    let reason: String
    switch self {
    case .missingType:
      return .missingResourceType(swiftType: swiftType, codingPath: path.text)
    case .typeNotString:
      (member, reason) = (.type, "`type` of \(swiftType) must encode as a string")
    case .idNotScalar: (member, reason) = (.id, "`id` must encode as a string or a number")
    case .lidNotString: (member, reason) = (.lid, "`lid` must encode as a string")
    }
    return .invalidValue(
      reason: SpecSection.cite(reason, SpecSection.identification),
      codingPath: path.appending(member.text).text)
  }
}

/// Identity of a resource within one document: `type` with `id`, or with `lid` for a resource the
/// client is creating. Two copies with one identity are one resource.
struct EncodedResourceIdentity: Hashable {
  let type: String
  let id: String
  let isLocal: Bool

  // Hashes the id alone: a document has few types and many ids, so the type adds little to tell
  // identities apart and costs a second string hash per look-up (every primary resource is
  // looked up once). Equality still compares all three.
  func hash(into hasher: inout Hasher) {
    hasher.combine(id)
  }
}
