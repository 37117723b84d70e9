#if os(Linux)
  import Foundation
  import FoundationNetworking
  import Glibc
  import Testing

  @testable import JSONAPINetworking

  /// A keep-alive server on 127.0.0.1 that counts the connections it accepts. Each request's
  /// answer is its path, so a request that gets another's answer shows. Paths:
  /// - `/extra/…`: the answer, then 50 ms later a second, unasked-for one (`unasked`);
  /// - `/big/…`: a 100 000-byte answer;
  /// - anything else: the path.
  final class KeepAliveServer: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    private let lock = NSLock()
    private var accepted = 0

    /// The connections accepted so far.
    var connections: Int { lock.withLock { accepted } }

    init() throws {
      (listener, port) = try listeningSocket(backlog: 64)
      Thread { [self] in acceptConnections() }.start()
    }

    deinit {
      shutdown(listener, Int32(SHUT_RDWR))
      close(listener)
    }

    private func acceptConnections() {
      while true {
        let connection = accept(listener, nil, nil)
        guard connection >= 0 else { return }
        lock.withLock { accepted += 1 }
        Thread { Self.serve(connection) }.start()
      }
    }

    private static func serve(_ connection: Int32) {
      defer { close(connection) }
      var pending: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 65_536)
      while true {
        // The requests are GETs: a head ends each.
        while Self.headEnd(in: pending) == nil {
          let count = recv(connection, &buffer, buffer.count, 0)
          guard count > 0 else { return }
          pending += buffer[..<count]
        }
        guard let end = Self.headEnd(in: pending) else { return }
        let head = String(decoding: pending[..<end], as: UTF8.self)
        pending.removeFirst(end + 4)
        let path = head.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
        let body = path.hasPrefix("/big/") ? String(repeating: "b", count: 100_000) : path
        write(answer(body), to: connection)
        if path.hasPrefix("/extra/") {
          Thread.sleep(forTimeInterval: 0.05)
          write(answer("unasked"), to: connection)
        }
      }
    }

    private static func headEnd(in bytes: [UInt8]) -> Int? {
      guard bytes.count >= 4 else { return nil }
      return (0...(bytes.count - 4)).first { bytes[$0..<($0 + 4)].elementsEqual([13, 10, 13, 10]) }
    }

    private static func answer(_ body: String) -> String {
      "HTTP/1.1 200 OK\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
    }

    private static func write(_ text: String, to connection: Int32) {
      _ = Array(text.utf8).withUnsafeBytes {
        send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
    }
  }

  /// Connections are kept and used again, but only when nothing waits on them: one answer per
  /// request whatever the server sends.
  @Suite struct LibcurlConnectionTests {
    static func get(_ server: KeepAliveServer, _ path: String, limit: Int = 1_000) async throws
      -> String
    {
      let url = try #require(URL(string: "http://127.0.0.1:\(server.port)\(path)"))
      let (body, _) = try await LibcurlTransport().send(
        URLRequest(url: url), maxResponseBytes: limit)
      return String(decoding: body, as: UTF8.self)
    }

    @Test func oneHundredSequentialRequestsShareOneConnection() async throws {
      let server = try KeepAliveServer()
      for index in 0..<100 {
        #expect(try await Self.get(server, "/n/\(index)") == "/n/\(index)")
      }
      // One connection per request made 100.
      #expect(server.connections == 1)
    }

    /// An unasked-for answer waiting on a kept connection is never read as the next request's:
    /// that request goes on a new connection.
    @Test func aConnectionWithUnaskedBytesWaitingIsNotUsedAgain() async throws {
      let server = try KeepAliveServer()
      #expect(try await Self.get(server, "/extra/1") == "/extra/1")
      // The unasked answer arrives 50 ms after the first: it waits when the next request goes.
      try await Task.sleep(nanoseconds: 300_000_000)
      #expect(try await Self.get(server, "/n/2") == "/n/2")
      #expect(server.connections == 2)
      // The new connection is clean: kept for the next request.
      #expect(try await Self.get(server, "/n/3") == "/n/3")
      #expect(server.connections == 2)
    }

    /// An answer refused for its size closes its connection: the rest of it is never read as the
    /// next request's answer.
    @Test func anAnswerCutShortClosesItsConnection() async throws {
      let server = try KeepAliveServer()
      #expect(try await Self.get(server, "/n/1") == "/n/1")
      await #expect(throws: JSONAPIClientError.responseTooLarge(limit: 1_000)) {
        _ = try await Self.get(server, "/big/2")
      }
      #expect(try await Self.get(server, "/n/3") == "/n/3")
      #expect(server.connections == 2)
    }
  }
#endif
