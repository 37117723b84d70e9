import Foundation

#if os(Linux)
  import Glibc
#endif

/// Peak resident memory of this process, from Linux's `/proc/self/status`.
///
/// `VmHWM` is the high-water mark of the resident set; writing `5` to `/proc/self/clear_refs`
/// resets it to the current resident set (Linux 4.0 and later, proc_pid_clear_refs(5)), so the
/// growth of `VmHWM` across a case is the most memory the case held at once. Other platforms have
/// no resettable peak, so there the probe refuses to measure rather than guess.
enum PeakMemory {
  /// `VmHWM` and `VmRSS` in KiB, as the kernel reports them.
  struct Reading {
    var peakKiB: Int
    var residentKiB: Int
  }

  /// Why the probe cannot measure here, or `nil` when it can.
  static var unavailableReason: String? {
    #if os(Linux)
      return FileManager.default.isWritableFile(atPath: "/proc/self/clear_refs")
        ? nil : "/proc/self/clear_refs is not writable"
    #else
      return "peak memory is read from Linux's /proc; this platform has none"
    #endif
  }

  /// Gives freed heap back to the system, then makes the current resident set the new peak.
  /// `false` when the kernel refused the reset.
  static func reset() -> Bool {
    #if os(Linux)
      trimHeap()
      let descriptor = open("/proc/self/clear_refs", O_WRONLY)
      guard descriptor >= 0 else { return false }
      defer { close(descriptor) }
      // "5" resets the peak resident set size only; other values would clear page bits too.
      return write(descriptor, "5", 1) == 1
    #else
      return false
    #endif
  }

  /// The current reading, or `nil` when `/proc/self/status` cannot be read.
  static func read() -> Reading? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
      return nil
    }
    var peak: Int?
    var resident: Int?
    for line in status.split(separator: "\n") {
      if line.hasPrefix("VmHWM:") { peak = kibibytes(line) }
      if line.hasPrefix("VmRSS:") { resident = kibibytes(line) }
    }
    guard let peak, let resident else { return nil }
    return Reading(peakKiB: peak, residentKiB: resident)
  }

  /// The number in a line such as `VmHWM:	   13604 kB`.
  private static func kibibytes(_ line: Substring) -> Int? {
    let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
    guard fields.count >= 2 else { return nil }
    return Int(fields[1])
  }

  #if os(Linux)
    /// Calls Glibc's `malloc_trim(0)`, so that heap freed by the warm-up is returned to the system
    /// and cannot hide in the resident set the case then reuses unseen. The Swift Glibc module
    /// does not include `malloc.h`, so the function is looked up by name; it is absent from other
    /// C libraries (musl), where trimming is skipped.
    private static func trimHeap() {
      typealias MallocTrim = @convention(c) (Int) -> Int32
      guard let process = dlopen(nil, RTLD_NOW) else { return }
      defer { dlclose(process) }
      guard let symbol = dlsym(process, "malloc_trim") else { return }
      _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
    }
  #endif
}
