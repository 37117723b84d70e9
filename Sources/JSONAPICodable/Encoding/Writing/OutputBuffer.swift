import Foundation

/// The bytes a ``JSONWriter`` writes, in memory of its own that grows in place (`realloc`) and that
/// the finished `Data` takes over: no copy when the buffer grows past a page, none at the end. An
/// array of bytes would copy itself on each doubling and once more into `Data`, which for a large
/// document costs its size again in copies and in peak memory.
///
/// Confined to one encode call on one thread.
package final class OutputBuffer {
  // The only unsafe memory of the writer. `base` points at `capacity` bytes from `malloc`, of
  // which the first `count` are written; it is freed in `deinit` unless `takeData()` handed it to
  // the `Data` it made, which frees it in turn.
  @exclusivity(unchecked) private var base: UnsafeMutablePointer<UInt8>?
  @exclusivity(unchecked) private(set) var count = 0
  @exclusivity(unchecked) private var capacity = 0
  /// Set when memory could not be had: the rest is dropped and ``takeData()`` throws.
  @exclusivity(unchecked) private var failed = false

  deinit {
    free(base)
  }

  @inline(__always)
  func append(_ byte: UInt8) {
    if count == capacity, !grow(toHold: 1) { return }
    base?[count] = byte
    count += 1
  }

  @inline(__always)
  func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let source = bytes.baseAddress, bytes.count > 0 else { return }
    if capacity - count < bytes.count, !grow(toHold: bytes.count) { return }
    (base.map { $0 + count })?.update(from: source, count: bytes.count)
    count += bytes.count
  }

  /// Appends a literal such as `null` or ` : `.
  @inline(__always)
  func append(_ literal: StaticString) {
    append(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
  }

  /// Appends the UTF-8 of `text`.
  func append(utf8 text: String) {
    var text = text
    text.withUTF8 { append($0) }
  }

  /// Appends `value` in decimal, as `String(value)` spells it.
  func append(decimal value: Int64) {
    // Int64.min is 19 digits and a sign.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
      var magnitude = value.magnitude
      var start = 20
      repeat {
        start -= 1
        digits[start] = UInt8(truncatingIfNeeded: 0x30 &+ magnitude % 10)
        magnitude /= 10
      } while magnitude != 0
      if value < 0 {
        start -= 1
        digits[start] = UInt8(ascii: "-")
      }
      append(UnsafeBufferPointer(rebasing: digits[start..<20]))
    }
  }

  /// Appends `byte` `repeating` times (indentation).
  func append(_ byte: UInt8, repeating times: Int) {
    guard times > 0 else { return }
    if capacity - count < times, !grow(toHold: times) { return }
    (base.map { $0 + count })?.update(repeating: byte, count: times)
    count += times
  }

  /// Whether memory for what was written could not be had (``takeData()`` throws).
  var hasFailed: Bool { failed }

  /// Room for `needed` more bytes; `false` when memory could not be had.
  private func grow(toHold needed: Int) -> Bool {
    guard !failed else { return false }
    let (wanted, overflow) = count.addingReportingOverflow(needed)
    let newCapacity = overflow ? Int.max : max(wanted, max(1024, capacity &* 2))
    guard !overflow, let grown = realloc(base, newCapacity) else {
      failed = true
      return false
    }
    base = grown.assumingMemoryBound(to: UInt8.self)
    capacity = newCapacity
    return true
  }

  /// The bytes written, as `Data` that owns them from now on; the buffer is empty afterwards.
  ///
  /// - Throws: `EncodingError.invalidValue` when memory for the output could not be had.
  package func takeData() throws -> Data {
    if failed {
      throw EncodingError.invalidValue(
        count,
        EncodingError.Context(
          codingPath: [], debugDescription: "Memory for the encoded document could not be had."))
    }
    guard var written = base, count > 0 else { return Data() }
    // The `Data` keeps what it is given for as long as the caller keeps it: give back the slack
    // of the last doubling (shrinking in place costs nothing).
    if capacity - count > 4096, let shrunk = realloc(written, count) {
      written = shrunk.assumingMemoryBound(to: UInt8.self)
    }
    base = nil
    defer { (count, capacity) = (0, 0) }
    return Data(bytesNoCopy: written, count: count, deallocator: .free)
  }
}
