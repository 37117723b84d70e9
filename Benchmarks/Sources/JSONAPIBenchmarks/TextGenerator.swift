/// Realistic-looking text: mostly ASCII words, some non-ASCII (2-, 3- and 4-byte UTF-8) and, now
/// and then, characters that JSON must escape (quotes, backslashes, newlines).
struct TextGenerator {
  private static let words: [String] = [
    "the", "a", "of", "and", "to", "in", "is", "for", "on", "with", "that", "as", "by", "from",
    "server", "client", "resource", "document", "relationship", "payload", "cache", "request",
    "response", "latency", "index", "schema", "version", "field", "network", "library", "swift",
    "decoder", "encoder", "bytes", "memory", "stream", "token", "release", "update", "review",
    "quickly", "simply", "really", "always", "never", "together", "between", "without", "across",
    "café", "naïve", "über", "façade", "smörgåsbord", "jalapeño", "Zürich", "São Paulo", "Kraków",
    "日本語", "東京", "Ελληνικά", "русский", "emoji 🙂", "rocket 🚀", "€uro", "½ price",
  ]
  private static let firstNames: [String] = [
    "Ada", "Alan", "Grace", "Linus", "Margaret", "Dennis", "Barbara", "Ken", "Frances", "Edsger",
    "José", "Zoë", "Björk", "Søren", "Chloé", "Łukasz", "Ngozi", "Wei", "Aiko", "Olúwaseun",
  ]
  private static let lastNames: [String] = [
    "Lovelace", "Turing", "Hopper", "Torvalds", "Hamilton", "Ritchie", "Liskov", "Thompson",
    "Allen", "Dijkstra", "García", "Müller", "O'Brien", "Nguyễn", "Kowalski", "Okafor", "Zhang",
  ]

  static func sentence(minLength: Int, using random: inout SeededGenerator) -> String {
    var text = ""
    while text.utf8.count < minLength {
      if !text.isEmpty { text += " " }
      let word = random.pick(words)
      // Quotes, backslashes and newlines force the escaped (slow) path now and then.
      if random.chance(2) {
        text += "\"\(word)\""
      } else if random.chance(1) {
        text += "C:\\\(word)"
      } else if random.chance(1) {
        text += "\(word)\n"
      } else {
        text += word
      }
    }
    return text
  }

  static func title(using random: inout SeededGenerator) -> String {
    let text = sentence(minLength: 36, using: &random)
    return text.prefix(1).uppercased() + text.dropFirst()
  }

  static func personName(using random: inout SeededGenerator) -> String {
    "\(random.pick(firstNames)) \(random.pick(lastNames))"
  }

  static func email(for name: String, number: Int) -> String {
    let local = name.lowercased().unicodeScalars.filter { $0.isASCII && $0.properties.isAlphabetic }
    return "\(String(String.UnicodeScalarView(local)))\(number)@example.com"
  }

  static func isoDate(using random: inout SeededGenerator) -> String {
    func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    let year = random.int(in: 2015...2025)
    let month = random.int(in: 1...12)
    let day = random.int(in: 1...28)
    let hour = random.int(in: 0...23)
    let minute = random.int(in: 0...59)
    let second = random.int(in: 0...59)
    return "\(year)-\(pad(month))-\(pad(day))T\(pad(hour)):\(pad(minute)):\(pad(second))Z"
  }
}
