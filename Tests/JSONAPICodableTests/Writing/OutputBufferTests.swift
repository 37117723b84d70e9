import Foundation
import Testing

@testable import JSONAPICodable

/// The writer's own growing buffer, which the returned `Data` takes over without a copy.
@Suite("Output buffer")
struct OutputBufferTests {
  @Test("bytes appended in every form, across many regrowths, come out in order")
  func growsAndKeepsOrder() throws {
    let buffer = OutputBuffer()
    var expected: [UInt8] = []
    for round in 0..<20_000 {
      let byte = UInt8(truncatingIfNeeded: round)
      buffer.append(byte)
      expected.append(byte)
      buffer.append("null")
      expected += Array("null".utf8)
      buffer.append(utf8: "é\(round)")
      expected += Array("é\(round)".utf8)
      buffer.append(0x20, repeating: round % 9)
      expected += [UInt8](repeating: 0x20, count: round % 9)
      let chunk = [UInt8](repeating: byte, count: round % 300)
      chunk.withUnsafeBufferPointer { buffer.append($0) }
      expected += chunk
    }
    #expect(buffer.count == expected.count)
    let data = try buffer.takeData()
    #expect(data == Data(expected))
    // Taken: the buffer starts over, and the data stays valid after the buffer is gone.
    #expect(buffer.count == 0)
    #expect(try buffer.takeData().isEmpty)
    buffer.append("x")
    #expect(try buffer.takeData() == Data("x".utf8))
    #expect(data.count == expected.count && data.last == expected.last)
  }
}
