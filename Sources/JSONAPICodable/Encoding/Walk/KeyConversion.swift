/// The word splitting behind the key strategies that turn `camelCase` coding keys into member names
/// (used through ``KeyEncodingConverter``).
enum KeyConversion {
  /// `firstName` → `first_name`, giving exactly what `JSONEncoder.KeyEncodingStrategy
  /// .convertToSnakeCase` gives, quirks included (`URL` → `u_rl`, `userID` → `user_id`).
  static func snakeCase(_ name: String) -> String { joinedWords(of: name, separator: "_") }

  /// `firstName` → `first-name`: the snake-case split joined with hyphens.
  static func kebabCase(_ name: String) -> String { joinedWords(of: name, separator: "-") }

  // Foundation's rule: an uppercase letter (after the first character) starts a word. In a run of
  // capitals followed by lowercase letters, the character just before the first lowercase letter
  // starts the next word; a run of capitals without lowercase letters after it ends the name.
  private static func joinedWords(of name: String, separator: String) -> String {
    let scalars = Array(name.unicodeScalars)
    guard scalars.count > 1 else { return name.lowercased() }
    func firstIndex(from start: Int, where test: (Unicode.Scalar) -> Bool) -> Int? {
      var index = start
      while index < scalars.count {
        if test(scalars[index]) { return index }
        index += 1
      }
      return nil
    }
    var words: [Range<Int>] = []
    var wordStart = 0
    var searchStart = 1
    while let upper = firstIndex(from: searchStart, where: isUppercase) {
      words.append(wordStart..<upper)
      guard let lower = firstIndex(from: upper, where: isLowercase) else {
        wordStart = upper
        break
      }
      if lower == upper + 1 {
        wordStart = upper
      } else {
        words.append(upper..<(lower - 1))
        wordStart = lower - 1
      }
      searchStart = lower + 1
    }
    words.append(wordStart..<scalars.count)
    var result = ""
    for (offset, range) in words.enumerated() {
      if offset > 0 { result += separator }
      var word = String.UnicodeScalarView()
      word.append(contentsOf: scalars[range])
      result += String(word).lowercased()
    }
    return result
  }

  private static func isUppercase(_ scalar: Unicode.Scalar) -> Bool {
    let category = scalar.properties.generalCategory
    return category == .uppercaseLetter || category == .titlecaseLetter
  }

  private static func isLowercase(_ scalar: Unicode.Scalar) -> Bool {
    scalar.properties.generalCategory == .lowercaseLetter
  }
}
