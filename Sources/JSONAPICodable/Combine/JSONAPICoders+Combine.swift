#if canImport(Combine)
  import Combine
  import Foundation

  // Lets the coders stand in for JSONDecoder and JSONEncoder in Combine pipelines:
  // `publisher.map(\.data).decode(type: [Article].self, decoder: JSONAPIDecoder())`.

  extension JSONAPIDecoder: TopLevelDecoder {
    /// The input of a decoding step in a Combine pipeline: the document's bytes.
    public typealias Input = Data
  }

  extension JSONAPIEncoder: TopLevelEncoder {
    /// The output of an encoding step in a Combine pipeline: the document's bytes.
    public typealias Output = Data
  }
#endif
