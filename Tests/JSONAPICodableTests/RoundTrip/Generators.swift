import Foundation

/// SplitMix64 (Steele, Lea, Flood 2014): a tiny seedable generator, so every failing case can be
/// replayed from the seed the test prints.
struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var mixed = state
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    return mixed ^ (mixed >> 31)
  }
}

/// Random values that stress JSON text: escapes, every plane of Unicode, extreme numbers.
struct Generator {
  var random: SplitMix64

  init(seed: UInt64) { random = SplitMix64(seed: seed) }

  mutating func bool(_ probability: Double = 0.5) -> Bool {
    Double.random(in: 0..<1, using: &random) < probability
  }

  mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }

  mutating func pick<T>(_ choices: [T]) -> T { choices[int(0...(choices.count - 1))] }

  mutating func optional<T>(_ make: (inout Generator) -> T) -> T? {
    bool(0.3) ? nil : make(&self)
  }

  mutating func array<T>(_ count: ClosedRange<Int>, _ make: (inout Generator) -> T) -> [T] {
    (0..<int(count)).map { _ in make(&self) }
  }

  /// Scalars JSON writers must escape or handle with care, mixed with plain text.
  static let scalarPool: [Unicode.Scalar] = [
    "a", "Z", "0", " ", "\"", "\\", "/", "\u{0}", "\u{1}", "\u{8}", "\u{9}", "\u{A}", "\u{C}",
    "\u{D}", "\u{1F}", "\u{7F}", "\u{80}", "é", "ß", "中", "\u{301}", "\u{200D}", "\u{2028}",
    "\u{2029}", "\u{FEFF}", "\u{FFFD}", "\u{FFFF}", "😀", "𝄞", "\u{10FFFF}", "\u{1F1FA}", "@", ":",
  ]

  mutating func string(maxLength: Int = 12) -> String {
    var text = String.UnicodeScalarView()
    for _ in 0..<int(0...maxLength) {
      if bool(0.7) {
        text.append(pick(Self.scalarPool))
      } else {
        // Any scalar at all: BMP or astral, skipping the surrogate gap.
        var value = UInt32(int(0...0x10_FFFF))
        if (0xD800...0xDFFF).contains(value) { value -= 0x800 }
        text.append(Unicode.Scalar(value) ?? "?")
      }
    }
    return String(text)
  }

  /// Member names for dictionaries: never empty, no leading `@` and no `:`, which JSON:API
  /// reserves for @-members and extension members (R50, R51).
  mutating func memberName() -> String {
    var name = string(maxLength: 6).filter { $0 != ":" }
    while name.first == "@" { name.removeFirst() }
    return "k" + name
  }

  mutating func double() -> Double {
    switch int(0...9) {
    case 0: return pick([.greatestFiniteMagnitude, -.greatestFiniteMagnitude])
    case 1: return pick([.leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude])
    case 2: return pick([0.0, -0.0, 1.0, -1.0, 0.1, 1e-7, 1e21, 123_456_789.123])
    case 3: return Double(int(Int.min...Int.max))
    case 4, 5:
      // Any finite bit pattern.
      while true {
        let value = Double(bitPattern: random.next())
        if value.isFinite { return value }
      }
    default: return Double.random(in: -1e6...1e6, using: &random)
    }
  }

  mutating func float() -> Float {
    switch int(0...5) {
    case 0: return pick([.greatestFiniteMagnitude, -.greatestFiniteMagnitude])
    case 1: return pick([.leastNonzeroMagnitude, .leastNormalMagnitude, -0.0, 0.1])
    case 2, 3:
      while true {
        let value = Float(bitPattern: UInt32(truncatingIfNeeded: random.next()))
        if value.isFinite { return value }
      }
    default: return Float.random(in: -1000...1000, using: &random)
    }
  }

  mutating func integer<T: FixedWidthInteger>(_: T.Type) -> T {
    switch int(0...3) {
    case 0: return pick([T.min, T.max, 0])
    case 1: return T(truncatingIfNeeded: int(-3...3))
    default: return T(truncatingIfNeeded: random.next())
    }
  }

  mutating func decimal() -> Decimal {
    let significand = Decimal(int(0...999_999_999_999))
    let value = Decimal(
      sign: bool() ? .minus : .plus, exponent: int(-10...10), significand: significand)
    return value
  }

  mutating func date() -> Date {
    Date(timeIntervalSinceReferenceDate: Double(int(-1_000_000_000...1_000_000_000)) / 8)
  }
}
