import Foundation

/// "1.23 ms", "456 µs", "2.31 s": three significant digits in a readable unit.
func format(seconds: Double) -> String {
  if seconds >= 1 { return "\(significant(seconds)) s" }
  if seconds >= 1e-3 { return "\(significant(seconds * 1e3)) ms" }
  return "\(significant(seconds * 1e6)) µs"
}

/// Sizes in MB (10^6 bytes) or kB, three significant digits.
func format(bytes: Int) -> String {
  let value = Double(bytes)
  if value >= 1e6 { return "\(significant(value / 1e6)) MB" }
  return "\(significant(value / 1e3)) kB"
}

/// 100000 → "100 000" (thin grouping keeps the table narrow and unambiguous).
func format(count: Int) -> String {
  var digits = Array(String(count))
  var index = digits.count - 3
  while index > 0 {
    digits.insert(" ", at: index)
    index -= 3
  }
  return String(digits)
}

func format(ratio: Double) -> String { "\(significant(ratio))×" }

func significant(_ value: Double) -> String {
  let decimals = value >= 100 ? 0 : value >= 10 ? 1 : 2
  return String(format: "%.\(decimals)f", value)
}
