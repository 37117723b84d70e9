import Foundation

/// Entry point of one decode call: scan, index, decode.
enum DocumentDecoding {
  static func decode<T: Decodable>(
    _ type: T.Type, from bytes: UnsafeRawBufferPointer, options: DecodingOptions
  ) throws -> T {
    throw JSONAPIError.notADocument(reason: "not implemented yet")
  }
}
