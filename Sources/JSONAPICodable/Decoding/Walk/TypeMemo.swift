/// What a decode call worked out about a few Swift types (their conformances), each once: a
/// conformance check is a runtime cache look-up, and a call meets
/// the same handful of model types over and over. A short list searched in order beats hashing;
/// past 32 types the answer is worked out again rather than growing the list.
struct TypeMemo<Value> {
  private var entries: [(type: ObjectIdentifier, value: Value)] = []

  /// The value remembered for `type`, or `compute()`'s, remembered.
  @inline(__always)
  mutating func value(for type: Any.Type, _ compute: () -> Value) -> Value {
    let key = ObjectIdentifier(type)
    for entry in entries where entry.type == key { return entry.value }
    let value = compute()
    if entries.count < 32 { entries.append((key, value)) }
    return value
  }

  /// How many types are remembered.
  var count: Int { entries.count }
}
