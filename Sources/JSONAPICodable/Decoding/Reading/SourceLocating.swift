enum SourceLocating {
  static func location(of offset: Int, in bytes: UnsafeRawBufferPointer) -> JSONAPISourceLocation {
    let clamped = min(max(offset, 0), bytes.count)
    var line = 1
    var lineStart = 0
    for index in 0..<clamped where bytes[index] == UInt8(ascii: "\n") {
      line += 1
      lineStart = index + 1
    }
    return JSONAPISourceLocation(offset: clamped, line: line, column: clamped - lineStart + 1)
  }
}
