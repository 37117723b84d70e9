import Foundation
import Testing

@testable import JSONAPICodable

/// The slots behind both tables of resource identities (the encoder's, the decoder's
/// ``ResourceTable``): keys found by hash bits and the caller's equality, through collisions,
/// growth and building all at once.
@Suite("Hash slots")
struct HashSlotsTests {
  /// A table of string keys over the slots, hashing each key with `hash`.
  struct Table {
    var slots = HashSlots()
    var keys: [String] = []
    let hash: (String) -> Int

    func index(of key: String) -> Int? {
      slots.find(hash: hash(key)) { keys[$0] == key }.index
    }

    /// Adds `key` unless present; returns its index either way.
    mutating func add(_ key: String) -> Int {
      let probe = slots.find(hash: hash(key)) { keys[$0] == key }
      if let index = probe.index { return index }
      keys.append(key)
      return slots.insert(probe)
    }
  }

  @Test("every key keeps its index across many growths; absent keys are absent")
  func growth() {
    var table = Table(hash: { $0.hashValue })
    for number in 0..<50_000 { #expect(table.add("k\(number)") == number) }
    #expect(table.slots.count == 50_000)
    for number in stride(from: 0, to: 50_000, by: 7) {
      #expect(table.index(of: "k\(number)") == number)
    }
    #expect(table.index(of: "k50000") == nil)
    #expect(table.add("k123") == 123)
    #expect(table.slots.count == 50_000)
  }

  @Test("keys whose hashes are all equal are told apart by the caller's equality")
  func fullCollisions() {
    var table = Table(hash: { _ in 42 })
    for number in 0..<300 { #expect(table.add("k\(number)") == number) }
    for number in 0..<300 { #expect(table.index(of: "k\(number)") == number) }
    #expect(table.index(of: "other") == nil)
  }

  @Test("hashes equal in their low 32 bits, kept in the slot, still need the keys to match")
  func lowBitCollisions() {
    // The high bits differ, the slot's bits and the starting slot do not.
    var table = Table(hash: { key in Int(key.dropFirst()).map { $0 << 32 | 7 } ?? 0 })
    for number in 0..<100 { #expect(table.add("k\(number)") == number) }
    for number in 0..<100 { #expect(table.index(of: "k\(number)") == number) }
    #expect(table.index(of: "k100") == nil)
  }

  @Test("reserving first changes nothing found, and a probe from before a growth still inserts")
  func reserveAndGrowOnInsert() {
    var table = Table(hash: { $0.hashValue })
    table.slots.reserve(1_000)
    for number in 0..<1_000 { _ = table.add("r\(number)") }
    // The insert that crosses half-full grows the slots: the probe's slot is stale, its hash not.
    var small = Table(hash: { $0.hashValue })
    for number in 0..<8 { _ = small.add("s\(number)") }
    let probe = small.slots.find(hash: small.hash("s8")) { small.keys[$0] == "s8" }
    small.keys.append("s8")
    #expect(small.slots.insert(probe) == 8)
    for number in 0...8 { #expect(small.index(of: "s\(number)") == number) }
    for number in 0..<1_000 { #expect(table.index(of: "r\(number)") == number) }
  }

  @Test("built all at once, range by range: clusters across ranges and the wrap, repeats reported")
  func builtAtOnce() {
    // 10 000 keys: 32 768 slots in 8 ranges. 3 000 keys start in the last slot of the first range
    // and 2 000 in the table's last slot (their probes cross ranges and wrap to slot 0); the rest
    // spread. Keys 9 000 and up repeat keys 9 000 below them.
    let count = 10_000
    let keys = (0..<count).map { $0 >= 9_000 ? "k\($0 - 9_000)" : "k\($0)" }
    func bits(_ index: Int) -> UInt32 {
      let key = index >= 9_000 ? index - 9_000 : index
      if key % 3 == 0 && key < 9_000 { return 4_095 }
      if key % 3 == 1 && key < 6_000 { return 32_767 }
      return HashSlots.bits(keys[key].hashValue)
    }
    var firstDuplicate: Int?
    var compared = 0
    let slots = HashSlots(hashBits: (0..<count).map(bits), firstDuplicate: &firstDuplicate) {
      later, earlier in
      compared += 1
      #expect(earlier < later)
      return keys[later] == keys[earlier]
    }
    #expect(firstDuplicate == 9_000)
    #expect(compared > 3_000)
    #expect(slots.count == count)
    for index in 0..<9_000 {
      let found = slots.find(hash: Int(bits(index))) { keys[$0] == keys[index] }.index
      #expect(found == index, "key \(index)")
    }
    #expect(slots.find(hash: Int(bits(5))) { _ in false }.index == nil)
    var none: Int?
    let small = HashSlots(hashBits: [1, 1, 2], firstDuplicate: &none) { _, _ in false }
    #expect(none == nil)
    #expect(
      (0..<3).map { index in small.find(hash: index == 2 ? 2 : 1) { $0 == index }.index } == [
        0, 1, 2,
      ])
  }
}
