/// What a decoder's calls worked out about Swift types (each a ``TypeMemo``), handed from one call
/// to the next as ``JSONAPIEncoder`` hands on its ``EncodingTypeTraitsCache/Snapshot``.
///
/// A call works on its own copy (no locks on the hot path) and gives it back to its
/// ``JSONAPIDecoder`` only when it grew, so a decoder reused for the same models asks the runtime
/// about their conformances once, not once per call. Every answer depends on the type alone (its
/// conformances, and ``JSONAPIResource/jsonAPIType``, which is constant per type), never on the
/// decoder's settings, so what an earlier call learnt gives every later call the same results.
struct DecodingTypeMemos {
  /// How each model type decoded from a relationship member reads it: as the attribute of the same
  /// name (``JSONAPIAttributeExpressible``), as the relationship object (``JSONAPIRelationship``).
  var relationshipReadings = TypeMemo<(readsAttribute: Bool, readsObject: Bool)>()
  /// Each type decoded from an array, as a ``DecodableArrayMarker`` when the decoder reads it itself.
  var arrayTypes = TypeMemo<(any DecodableArrayMarker.Type)?>()
  /// The resource type each model type declares (``JSONAPIResource``), if any.
  var declaredTypes = TypeMemo<String?>()
  /// How each type asked for at the top level reads the document: whole (a
  /// ``JSONAPIDocument``), as Atomic Operations (``AtomicDocumentDecodable``), or from its primary
  /// data. Two conformance checks that every call would otherwise make.
  var topLevelReadings = TypeMemo<(readsDocument: Bool, readsAtomic: Bool)>()

  /// How many types are remembered in all. Memos only grow, so a call learnt something exactly
  /// when this grew.
  var count: Int {
    relationshipReadings.count + arrayTypes.count + declaredTypes.count + topLevelReadings.count
  }
}
