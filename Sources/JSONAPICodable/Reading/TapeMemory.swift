import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The memory tape entries live in.
///
/// A large tape (4 MB and more, a document of about 2 MB and more) is fresh memory on every call:
/// `malloc` maps it anew, and each 4 kB page faults when the scanner first writes it, then costs a
/// TLB miss whenever decoding jumps to a resource far away. On Linux such a tape is aligned to
/// 2 MB and advised to use transparent huge pages (`MADV_HUGEPAGE`; systems that turned them off
/// ignore the advice): one fault and one TLB entry per 2 MB. Elsewhere, and for smaller tapes,
/// it is ordinary Swift allocation.
enum TapeMemory {
  #if os(Linux)
    private static let hugePage = 2 << 20
    private static let threshold = 4 << 20
  #endif

  /// Memory for `capacity` entries, to be given back to ``deallocate(_:)``.
  static func allocate(capacity: Int) -> UnsafeMutablePointer<TapeEntry> {
    #if os(Linux)
      let (bytes, overflow) = capacity.multipliedReportingOverflow(
        by: MemoryLayout<TapeEntry>.stride)
      if !overflow, bytes >= threshold {
        var raw: UnsafeMutableRawPointer?
        if posix_memalign(&raw, hugePage, bytes) == 0, let raw {
          // Advice only: where it is refused, the memory is ordinary pages.
          _ = madvise(raw, bytes, MADV_HUGEPAGE)
          return raw.bindMemory(to: TapeEntry.self, capacity: capacity)
        }
      }
    #endif
    return .allocate(capacity: capacity)
  }

  /// Frees what ``allocate(capacity:)`` gave.
  static func deallocate(_ entries: UnsafeMutablePointer<TapeEntry>) {
    // On Linux both routes are `malloc`'s memory (Swift allocates entries, aligned to 4 bytes,
    // with `malloc`), which `free` gives back.
    #if os(Linux)
      free(entries)
    #else
      entries.deallocate()
    #endif
  }
}
