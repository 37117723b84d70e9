import AsyncHTTPClient
import Foundation
import JSONAPINetworking
import NIOCore
import NIOHTTP1

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

// The steps of `send`, kept apart so that tests can run each without a server.
extension AsyncHTTPClientTransport {
  /// The `HTTPClientRequest` for `request`: its method (GET when unset), URL, header fields and
  /// body, and `Accept-Encoding: identity` unless it has an `Accept-Encoding`.
  static func makeRequest(from request: URLRequest) throws -> HTTPClientRequest {
    guard let url = request.url else { throw AsyncHTTPClientTransportError.missingURL }
    var outgoing = HTTPClientRequest(url: url.absoluteString)
    outgoing.method = HTTPMethod(rawValue: request.httpMethod ?? "GET")
    // Sorted so that the same request always goes out the same way: the dictionary has no order.
    let fields = (request.allHTTPHeaderFields ?? [:]).sorted { $0.key < $1.key }
    for (name, value) in fields {
      outgoing.headers.add(name: name, value: value)
    }
    // Without Accept-Encoding any coding is acceptable (RFC 9110 section 12.5.3), and encoded
    // answers are refused: ask for what will be accepted.
    if !outgoing.headers.contains(name: "Accept-Encoding") {
      outgoing.headers.add(name: "Accept-Encoding", value: "identity")
    }
    if let body = request.httpBody {
      outgoing.body = .bytes(ByteBuffer(bytes: body))
    } else if request.httpBodyStream != nil {
      throw AsyncHTTPClientTransportError.bodyStreamNotSupported
    }
    return outgoing
  }

  /// How long to wait for the response head: the request's `timeoutInterval`, or 60 seconds
  /// (URLRequest's default) when it is not a positive number. Capped at a day, so that the
  /// conversion to nanoseconds cannot overflow.
  static func headTimeout(_ interval: TimeInterval) -> TimeAmount {
    let seconds = interval.isFinite && interval > 0 ? min(interval, 86_400) : 60
    return .nanoseconds(Int64(seconds * 1_000_000_000))
  }

  /// The `HTTPURLResponse` for an answer to a request for `url`.
  static func makeResponse(
    url: URL, status: HTTPResponseStatus, version: HTTPVersion, headers: HTTPHeaders
  ) throws -> HTTPURLResponse {
    let statusCode = Int(status.code)
    guard
      let response = HTTPURLResponse(
        url: url, statusCode: statusCode, httpVersion: "HTTP/\(version.major).\(version.minor)",
        headerFields: headerFields(headers))
    else { throw AsyncHTTPClientTransportError.invalidResponseHead(statusCode: statusCode) }
    return response
  }

  /// The header fields as `HTTPURLResponse` takes them: one value per name, repeated fields
  /// joined with ", " (RFC 9110 section 5.3) under the first spelling of the name.
  static func headerFields(_ headers: HTTPHeaders) -> [String: String] {
    var fields: [String: String] = [:]
    var spelling: [String: String] = [:]
    for (name, value) in headers {
      let key = name.lowercased()
      if let first = spelling[key] {
        fields[first, default: ""] += ", " + value
      } else {
        spelling[key] = name
        fields[name] = value
      }
    }
    return fields
  }

  /// Checks the answer's head before its body is read, and returns the body length that
  /// `Content-Length` announces.
  ///
  /// - Throws: ``AsyncHTTPClientTransportError/unsupportedContentEncoding(_:)`` for any coding
  ///   but identity, whose decoded size could not be counted as it arrives; `responseTooLarge`
  ///   when the announced length is more than `limit`.
  static func announcedLength(
    status: HTTPResponseStatus, headers: HTTPHeaders, method: HTTPMethod, limit: Int
  ) throws -> Int? {
    let codings = headers[canonicalForm: "Content-Encoding"]
    guard codings.allSatisfy({ $0.lowercased() == "identity" }) else {
      let value = headers["Content-Encoding"].joined(separator: ", ")
      throw AsyncHTTPClientTransportError.unsupportedContentEncoding(value)
    }
    // These answers have no body whatever Content-Length says (RFC 9110 section 8.6).
    let bodiless = method == .HEAD || status == .noContent || status == .notModified
    guard !bodiless else { return nil }
    let values = Set(headers["Content-Length"])
    guard values.count == 1, let text = values.first, !text.isEmpty,
      text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
    else { return nil }
    // All digits but too large for `Int` (32 bits on some platforms) is certainly over the limit.
    guard let length = Int(text), length <= limit else {
      throw JSONAPIClientError.responseTooLarge(limit: limit)
    }
    return length
  }

  /// Reads `body` into one `Data`, throwing as soon as it passes `limit` bytes.
  ///
  /// - Parameter announcedLength: The length to reserve room for at once (at most `limit`).
  /// - Throws: `responseTooLarge` past the limit, before the chunk that passes it is kept;
  ///   `CancellationError` when the task is cancelled; the body's own errors.
  static func collect<Body: AsyncSequence>(
    _ body: Body, announcedLength: Int?, limit: Int
  ) async throws -> Data where Body.Element == ByteBuffer {
    var data = Data()
    // Room is reserved by the transport, never beyond the limit, so that a body that grows
    // towards the limit does not hold a buffer twice its size.
    var reserved = 0
    if let announcedLength, announcedLength > 0, announcedLength <= limit {
      data.reserveCapacity(announcedLength)
      reserved = announcedLength
    }
    for try await chunk in body {
      try Task.checkCancellation()
      // `data.count <= limit` holds here, so the subtraction cannot overflow where a sum could.
      guard chunk.readableBytes <= limit - data.count else {
        throw JSONAPIClientError.responseTooLarge(limit: limit)
      }
      let needed = data.count + chunk.readableBytes
      if needed > reserved {
        let doubled = reserved > limit / 2 ? limit : reserved * 2
        reserved = max(needed, doubled)
        data.reserveCapacity(reserved)
      }
      data.append(contentsOf: chunk.readableBytesView)
    }
    // A body that ended because the task was cancelled is not a whole body.
    try Task.checkCancellation()
    return data
  }

  /// The error `send` throws for `error`: anything that ends a cancelled task is a
  /// `CancellationError`, except the transport's own verdicts.
  static func mapped(_ error: any Error, cancelled: Bool) -> any Error {
    if error is JSONAPIClientError || error is AsyncHTTPClientTransportError {
      return error
    }
    if cancelled || error is CancellationError {
      return CancellationError()
    }
    return error
  }
}
