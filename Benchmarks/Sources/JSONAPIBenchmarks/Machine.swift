import Foundation

/// One line of facts about where the numbers were taken.
func machineDescription() -> String {
  var system = utsname()
  uname(&system)
  let machine = withUnsafeBytes(of: &system.machine) { raw in
    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
  }
  let kernel = withUnsafeBytes(of: &system.release) { raw in
    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
  }
  let cores = ProcessInfo.processInfo.activeProcessorCount
  let memory = ProcessInfo.processInfo.physicalMemory / 1_000_000_000
  let formatter = DateFormatter()
  formatter.locale = Locale(identifier: "en_US_POSIX")
  formatter.timeZone = TimeZone(identifier: "UTC")
  formatter.dateFormat = "yyyy-MM-dd HH:mm 'UTC'"
  var parts = [cpuModel(), "\(cores) cores", machine, "\(memory) GB RAM"]
  parts.append("Linux \(kernel)")
  parts.append(swiftVersion())
  parts.append(formatter.string(from: Date()))
  return parts.filter { !$0.isEmpty }.joined(separator: ", ")
}

private func cpuModel() -> String {
  guard let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return "" }
  for line in info.split(separator: "\n") where line.hasPrefix("model name") {
    if let colon = line.firstIndex(of: ":") {
      return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
  }
  return ""
}

/// The toolchain's own words (`swift --version`), falling back to the compiler we were built by.
private func swiftVersion() -> String {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = ["swift", "--version"]
  let pipe = Pipe()
  process.standardOutput = pipe
  process.standardError = FileHandle.nullDevice
  if (try? process.run()) != nil {
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: output, as: UTF8.self)
    if let range = text.range(of: #"Swift version [0-9.]+"#, options: .regularExpression) {
      return String(text[range])
    }
  }
  #if compiler(>=6.3)
    return "Swift ≥ 6.3"
  #else
    return "Swift < 6.3"
  #endif
}

/// The 1-minute load average: above the core count, other jobs competed for the CPU.
func loadAverage() -> String {
  guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8),
    let first = text.split(separator: " ").first
  else { return "unknown" }
  return String(first)
}
