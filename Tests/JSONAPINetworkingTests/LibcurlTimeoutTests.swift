#if os(Linux)
  import Foundation
  import FoundationNetworking
  import Glibc
  import Testing

  @testable import JSONAPINetworking

  /// A socket listening on 127.0.0.1 at a port the kernel chose, with room for `backlog`
  /// connections waiting to be accepted.
  func listeningSocket(backlog: Int32) throws -> (socket: Int32, port: Int) {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    try #require(socket >= 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    try #require(bound == 0 && listen(socket, backlog) == 0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
    }
    return (socket, Int(UInt16(bigEndian: address.sin_port)))
  }

  /// A server on 127.0.0.1 for one connection: it reads the request, then sends each of `parts`
  /// after waiting its delay, then holds the connection silent for `silence` seconds.
  final class ScriptedServer: @unchecked Sendable {
    let port: Int
    private let listener: Int32

    init(parts: [(delay: Double, text: String)], silence: Double) throws {
      let (socket, port) = try listeningSocket(backlog: 1)
      self.port = port
      listener = socket
      Thread {
        let connection = accept(socket, nil, nil)
        guard connection >= 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        _ = recv(connection, &buffer, buffer.count, 0)
        for part in parts {
          Thread.sleep(forTimeInterval: part.delay)
          _ = Array(part.text.utf8).withUnsafeBytes {
            send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
          }
        }
        Thread.sleep(forTimeInterval: silence)
        close(connection)
      }.start()
    }

    deinit { close(listener) }
  }

  /// `URLRequest.timeoutInterval` is the longest silence a request allows, as in URLSession.
  @Suite struct LibcurlTimeoutTests {
    static func request(_ server: ScriptedServer, timeout: Double) throws -> URLRequest {
      var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:\(server.port)/x")))
      request.timeoutInterval = timeout
      return request
    }

    /// A server silent after its head, and one that never answers: both time out after the
    /// interval. (Were the silence not timed, the request would end only when the server closes
    /// the connection, 30 s later, with another error: a cut body or an empty reply.)
    @Test(arguments: [
      [(0.0, "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nabc")],
      [],
    ])
    func aSilentServerTimesOut(parts: [(Double, String)]) async throws {
      let server = try ScriptedServer(parts: parts.map { (delay: $0, text: $1) }, silence: 30)
      await #expect {
        _ = try await LibcurlTransport().send(
          try Self.request(server, timeout: 1), maxResponseBytes: 1_000)
      } throws: { error in
        (error as? URLError)?.code == .timedOut
      }
    }

    /// Silence is what counts, not the whole: a body trickling in for longer than the interval,
    /// a byte more often than the interval, arrives whole.
    @Test func aSlowButSteadyAnswerIsNotCut() async throws {
      // 8 bytes 0.3 s apart: 2.4 s in all, against an interval of 1.5 s.
      let body = "abcdefgh"
      let parts =
        [(0.0, "HTTP/1.1 200 OK\r\nContent-Length: \(body.utf8.count)\r\n\r\n")]
        + body.map { (0.3, String($0)) }
      let server = try ScriptedServer(parts: parts, silence: 0)
      let (data, response) = try await LibcurlTransport().send(
        try Self.request(server, timeout: 1.5), maxResponseBytes: 1_000)
      #expect(response.statusCode == 200)
      #expect(String(decoding: data, as: UTF8.self) == body)
    }

    /// A cancelled request stops while the server is silent: it ends with `CancellationError`,
    /// not with the server's close 30 s later nor the request's 60 s timeout.
    @Test func aCancelledRequestStopsWhileTheServerIsSilent() async throws {
      let server = try ScriptedServer(
        parts: [(0, "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n")], silence: 30)
      let request = try Self.request(server, timeout: 60)
      let task = Task { try await LibcurlTransport().send(request, maxResponseBytes: 1_000) }
      try await Task.sleep(nanoseconds: 300_000_000)
      task.cancel()
      await #expect(throws: CancellationError.self) { _ = try await task.value }
    }

    @Test func theIdleTimeoutIsTheRequestsIntervalOr60Seconds() throws {
      var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1/")))
      #expect(LibcurlTransport.idleTimeout(request) == .seconds(60))
      request.timeoutInterval = 2.5
      #expect(LibcurlTransport.idleTimeout(request) == .milliseconds(2_500))
      request.timeoutInterval = 0
      #expect(LibcurlTransport.idleTimeout(request) == .seconds(60))
      request.timeoutInterval = .infinity
      #expect(LibcurlTransport.idleTimeout(request) == .seconds(60))
      request.timeoutInterval = 1e300
      #expect(LibcurlTransport.idleTimeout(request) == .milliseconds(Int64(Int32.max)))
    }
  }
#endif
