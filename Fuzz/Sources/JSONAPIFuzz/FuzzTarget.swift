import Foundation
import JSONAPICodable

// libFuzzer entry point. Every input is decoded into each model shape; decoding may throw, but only
// `JSONAPIError` or `DecodingError`, with a location inside the input. Inputs that decode as node
// or polymorphic documents also go through decode → encode → decode, which must give the first
// value back. A broken expectation traps (here only, never in the library) so libFuzzer keeps the
// input as a crash file.

/// Shared by every run, as an app would share them; both are `Sendable`.
let decoder = JSONAPIDecoder()
let encoder = JSONAPIEncoder()

/// Graphs larger than this, walked as trees, skip the round trip: encoding walks values as trees,
/// so an expansion bomb that the decoder memoised would take exponential time to encode.
let roundTripNodeCap = 2_000

/// libFuzzer's entry point: decodes one input every way the harness knows and checks the results.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  let bytes = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
  let data = Data(bytes)

  // Open values first: when the text is not a JSON:API document at all, every shape would fail
  // the same way in the reader, so one shape is enough.
  typealias OpenDocument = JSONAPIDocument<JSONAPIValue, JSONAPIValue>
  let open: Result<OpenDocument, any Error> = Result {
    try decoder.decode(OpenDocument.self, from: bytes)
  }
  // The String overload must agree with the bytes overload on valid UTF-8.
  if let text = String(validating: bytes, as: UTF8.self) {
    let viaString = Result { try decoder.decode(OpenDocument.self, from: text) }
    switch (open, viaString) {
    case (.success(let left), .success(let right)):
      if !JSONValueComparison.equal(left.data, right.data)
        || !JSONValueComparison.equal(left.meta, right.meta)
      {
        report("String and [UInt8] overloads decoded different values", input: data)
      }
    case (.failure(let left as JSONAPIError), .failure(let right as JSONAPIError)):
      if left != right { report("overloads threw \(left) and \(right)", input: data) }
    case (.failure, .failure):
      break
    default:
      report("String and [UInt8] overloads disagree: \(open) vs \(viaString)", input: data)
    }
  }
  if case .failure(let error) = open {
    check(error, inputSize: count)
    if isReaderError(error) { return 0 }
  }

  decodeOnly([Article].self, data)
  decodeOnly(Article?.self, data)
  decodeOnly(JSONAPIDocument<[Comment], JSONAPIValue>.self, data)
  decodeOnly(JSONAPIValue.self, data)
  decodeOnly(JSONAPIDocument<[Person], JSONAPIValue>.self, data)
  atomic(data)

  roundTrip(JSONAPIDocument<[Node], JSONAPIValue>.self, data) { first, second in
    var comparison = NodeComparison()
    return first.data.count == second.data.count
      && zip(first.data, second.data).allSatisfy { comparison.equal($0, $1) }
      && JSONValueComparison.equal(first.meta, second.meta)
  } isSmall: {
    NodeTreeSize.isWithin(roundTripNodeCap, $0.data)
  }

  roundTrip([Entity].self, data) { first, second in
    first == second
  } isSmall: { entities in
    let nodes = entities.compactMap { entity -> Node? in
      if case .node(let box) = entity { return box.node }
      return nil
    }
    return NodeTreeSize.isWithin(roundTripNodeCap, nodes)
  }
  return 0
}

func decodeOnly<T: Decodable>(_ type: T.Type, _ data: Data) {
  do {
    _ = try decoder.decode(type, from: data)
  } catch {
    check(error, inputSize: data.count)
  }
}

/// Atomic Operations: a results or operations document, then each entry's data as models. The
/// documents assembled per entry are the library's own: a reader error from one is a bug.
func atomic(_ data: Data) {
  func entry<T>(_ body: () throws -> T) {
    do {
      _ = try body()
    } catch {
      if isReaderError(error) { report("an entry's document did not read: \(error)", input: data) }
      check(error, inputSize: data.count)
    }
  }
  do {
    let results = try decoder.decode([JSONAPIOperationResult].self, from: data)
    for result in results {
      entry { try result.decode(Article?.self) }
      entry { try result.decode([Entity].self) }
    }
    if !results.isEmpty { _ = try? encoder.encode(results: results) }
  } catch {
    check(error, inputSize: data.count)
  }
  do {
    let operations = try decoder.decodeOperations(from: data)
    for operation in operations {
      entry { try operation.decode(Entity?.self) }
      entry { try operation.decode([JSONAPIResourceIdentifier]?.self) }
    }
    if !operations.isEmpty { _ = try? encoder.encode(operations: operations) }
  } catch {
    check(error, inputSize: data.count)
  }
}

/// decode → encode → decode; the second value must equal the first.
func roundTrip<T: Codable>(
  _ type: T.Type, _ data: Data, equal: (T, T) -> Bool, isSmall: (T) -> Bool
) {
  let first: T
  do {
    first = try decoder.decode(type, from: data)
  } catch {
    check(error, inputSize: data.count)
    return
  }
  guard isSmall(first) else { return }
  let encoded: Data
  do {
    encoded = try encoder.encode(first)
  } catch let error as JSONAPIError {
    // The encoder may refuse a value JSON:API cannot express (its own error, never a crash);
    // until the encoder lands it refuses everything as "not implemented yet".
    if case .invalidValue = error { return }
    if case .missingResourceType = error { return }
    report("encoder threw \(error) for a decoded \(T.self)", input: data)
  } catch is EncodingError {
    return
  } catch {
    report("encoder threw a foreign error \(error)", input: data)
  }
  do {
    let second = try decoder.decode(type, from: encoded)
    if !equal(first, second) {
      report(
        "round trip changed the value; re-encoded: \(String(decoding: encoded, as: UTF8.self))",
        input: data)
    }
  } catch {
    report(
      "re-decoding the encoder's output failed: \(error); output: "
        + String(decoding: encoded, as: UTF8.self), input: data)
  }
}

/// Errors the reader throws before any model is involved.
func isReaderError(_ error: any Error) -> Bool {
  guard let error = error as? JSONAPIError else { return false }
  switch error {
  case .invalidJSON, .duplicateKey, .nestingTooDeep, .documentTooLarge, .notADocument: return true
  default: return false
  }
}

/// Decoding may fail only with the library's own errors or `DecodingError`, and a location must
/// point into the input.
func check(_ error: any Error, inputSize: Int) {
  switch error {
  case let error as JSONAPIError:
    switch error {
    case .invalidJSON(_, let location), .duplicateKey(_, let location),
      .nestingTooDeep(_, let location):
      if location.offset < 0 || location.offset > inputSize || location.line < 1
        || location.column < 1 || location.column > location.offset + 1
      {
        report("location \(location) outside an input of \(inputSize) bytes: \(error)", input: nil)
      }
    case .missingResourceType, .encodingNestingTooDeep, .invalidValue:
      report("an encoder error from the decoder: \(error)", input: nil)
    default:
      break
    }
  case is DecodingError:
    break
  default:
    report("a foreign error type \(type(of: error)): \(error)", input: nil)
  }
}

/// Prints what went wrong and traps, so libFuzzer saves the input as a crash file.
func report(_ message: String, input: Data?) -> Never {
  var text = "JSONAPIFuzz: \(message)\n"
  if let input { text += "input: \(String(decoding: input, as: UTF8.self))\n" }
  FileHandle.standardError.write(Data(text.utf8))
  abort()
}
