#if os(Linux)
  import Foundation
  import FoundationNetworking
  import Glibc
  import Testing

  @testable import JSONAPINetworking

  /// A server on 127.0.0.1 that answers every request with `200 {}` and closes the connection,
  /// one connection after another on one thread, until `stop()`.
  final class SerialServer: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    private let stopped = NSLock()
    private var isStopped = false

    init() throws {
      // A backlog for every request of the test: they wait for the one thread in the queue.
      (listener, port) = try listeningSocket(backlog: 1024)
      Thread { [self] in serve() }.start()
    }

    private func serve() {
      let answer = Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}".utf8)
      var buffer = [UInt8](repeating: 0, count: 65_536)
      while !stopped.withLock({ isStopped }) {
        let connection = accept(listener, nil, nil)
        guard connection >= 0 else { return }
        _ = recv(connection, &buffer, buffer.count, 0)
        _ = answer.withUnsafeBytes {
          send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
        }
        close(connection)
      }
    }

    func stop() {
      stopped.withLock { isStopped = true }
      shutdown(listener, Int32(SHUT_RDWR))
      close(listener)
    }
  }

  /// The process's threads, as Linux counts them.
  func threadCount() -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0
  }

  /// Every transfer runs on libcurl's one thread: the process's threads do not grow with requests.
  @Suite struct LibcurlThreadTests {
    @Test func fiveHundredConcurrentRequestsAddAtMostAFewThreads() async throws {
      let server = try SerialServer()
      defer { server.stop() }
      let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/x"))
      // libcurl's thread and the cooperative pool exist after a first request.
      _ = try await LibcurlTransport().send(URLRequest(url: url), maxResponseBytes: 1_024)
      let before = threadCount()
      let peak = try await withThrowingTaskGroup(of: Int.self) { group in
        for _ in 0..<500 {
          group.addTask {
            let (body, response) = try await LibcurlTransport().send(
              URLRequest(url: url), maxResponseBytes: 1_024)
            #expect(response.statusCode == 200 && body == Data("{}".utf8))
            return threadCount()
          }
        }
        var peak = 0
        for try await count in group { peak = max(peak, count) }
        return peak
      }
      // One thread per request added 190 at the peak here. The bound leaves room for threads
      // that tests running in parallel start meanwhile (their servers, Dispatch's workers).
      #expect(peak - before <= 32, "threads: \(before) before, \(peak) at the peak")
    }
  }
#endif
