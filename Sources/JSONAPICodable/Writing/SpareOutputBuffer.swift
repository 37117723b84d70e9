import Foundation

/// One ``OutputBuffer`` an encoder keeps between calls for the text of related resources written
/// as a collection streams (``IncludedPrewriter``), which is copied into the document and then
/// dropped. Freed and allocated again on every call, that memory came back from the system in
/// fresh pages each time (glibc returns the top of its heap once a large block there is freed),
/// and faulting them in again is a cost a document of a thousand resources notices.
///
/// Calls on other threads at the same time get buffers of their own. A buffer that grew past
/// ``keptUpTo`` is not kept: a large document's text costs its page faults either way, and an
/// encoder should not hold on to it.
final class SpareOutputBuffer: @unchecked Sendable {
  // @unchecked: the buffer is only handed over under the lock, to one call at a time.
  private let lock = NSLock()
  private var spare: OutputBuffer?
  private static let keptUpTo = 4 << 20

  /// The kept buffer, emptied, or a new one.
  func take() -> OutputBuffer {
    lock.withLock { spare.take() } ?? OutputBuffer()
  }

  /// Keeps `buffer` for the next call, when it is small enough; the caller writes no more to it.
  func giveBack(_ buffer: OutputBuffer) {
    guard buffer.reserved <= Self.keptUpTo else { return }
    buffer.removeAll()
    lock.withLock { spare = buffer }
  }
}
