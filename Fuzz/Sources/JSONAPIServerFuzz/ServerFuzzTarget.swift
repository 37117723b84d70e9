import Foundation
import JSONAPIServer

// libFuzzer entry point for what a JSON:API server reads from a stranger. Each input is one HTTP
// request (see `FuzzRequest`); the harness handles it as a server built on the library would:
//   1. the query string (`QueryChecks`): the parsing overloads agree, a parsed query re-renders
//      to itself, every rule set validates it;
//   2. the paging request (`PagingChecks`): `JSONAPIPaging.page(for:)` and the links it builds;
//   3. `Accept` and `Content-Type` (`NegotiationChecks`), under a JSON:API 1.0 server and one with
//      extensions and profiles;
//   4. the body (`BodyChecks`), routed by method and path: create and update checks of
//      `JSONAPIRequestRules`, relationship linkage, Atomic Operations, models.
// Every failure must be an error of the library (or `DecodingError`) that becomes a 4xx error
// object whose error document reads back as it (`ErrorAnswers`). A broken expectation calls
// `abort()` here, never in the library, so libFuzzer keeps the input.

/// Shared by every run, as a server shares them; both are `Sendable`.
let decoder = JSONAPIDecoder()
let encoder = JSONAPIEncoder()

/// libFuzzer's entry point: handles one request every way the harness knows and checks the results.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneRequest(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  let bytes = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
  let request = FuzzRequest(bytes)
  var failures = Failures()

  if let query = QueryChecks.run(request, &failures) {
    PagingChecks.run(query, request, &failures)
  }
  NegotiationChecks.run(request, &failures)
  BodyChecks.run(request, &failures)

  failures.finish(request: request)
  return 0
}
