import Foundation

extension UnsafeBufferPointer<UInt8> {
  /// Whether these bytes spell `literal` exactly: one length check and one `memcmp`, for the member
  /// names JSON:API defines (`type`, `id`, `attributes`, …).
  @inline(__always) func equals(_ literal: StaticString) -> Bool {
    guard count == literal.utf8CodeUnitCount else { return false }
    guard let base = baseAddress else { return count == 0 }
    return memcmp(base, literal.utf8Start, count) == 0
  }
}
