import Foundation
import GlueTestSupport
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JSONAPIHummingbird
import JSONAPIServer
import NIOCore
import NIOPosix
import Testing

@testable import LibraryServer

/// The glue itself: as middleware beside the app's own routes, and its bounds on connections
/// over a real socket.
@Suite struct GlueTests {
  @Test func asMiddlewareItServesOnlyThePathsUnderItsPrefix() async throws {
    let server = try await Library.server(baseURL: "\(base)/api", now: { now })
    let router = Router()
    router.add(
      middleware: JSONAPIResponder(server: server, pathPrefix: "/api/", context: Library.librarian))
    router.get("/health") { _, _ in "ok" }
    let app = Application(router: router)
    try await app.test(.router) { client in
      let library = LibraryClient(client: client)
      let health = try await library.send(.get, "/health")
      #expect(health.status == 200 && String(decoding: health.body, as: UTF8.self) == "ok")
      let book = try await library.send(.get, "/api/books/1")
      #expect(book.status == 200)
      #expect(book.json["data"]?["links"]?["self"] == .string("\(base)/api/books/1"))
      // Every method goes to the server, which answers the ones it does not serve.
      #expect(try await library.send(.put, "/api/books").header("Allow") == "GET, POST, HEAD")
      #expect(try await library.send(.get, "/api").status == 404)
      let elsewhere = try await library.send(.get, "/apibooks")
      #expect(elsewhere.status == 404 && elsewhere.json == .null)
      #expect(try await library.send(.delete, "/api/loans/2", librarian: "Mo").status == 204)
    }
  }

  @Test func requestsOverARealConnection() async throws {
    try await withLibrary(.live) { library in
      let first = try await library.send(.get, "/books/6?include=author")
      #expect(first.status == 200)
      #expect(first.json["included"]?[0]?["attributes"]?["name"] == "Octavia E. Butler")
      let head = try await library.send(.head, "/books/6")
      #expect(head.status == 200 && head.body.isEmpty)
      let created = try await library.send(
        .post, "/authors", body: #"{"data":{"type":"authors","attributes":{"name":"N"}}}"#)
      #expect(created.status == 201)
      #expect(try await library.send(.delete, "/loans/2").status == 403)
      // A body past the limit, sent in many parts: 413, and the connection goes on.
      let filler = String(repeating: "x", count: 1 << 20)
      let large = try await library.send(
        .post, "/authors", body: #"{"data":{"type":"authors","attributes":{"name":"\#(filler)"}}}"#)
      #expect(large.status == 413)
      #expect(try await library.send(.get, "/authors/4").status == 200)
    }
  }

  /// A request head sent a byte at a time never completes a part, so the idle timeout cuts it.
  @Test func theIdleTimeoutClosesAConnectionTricklingItsHead() async throws {
    try await withLibrary(.live, idleTimeout: .seconds(1)) { library in
      let connection = try await RawConnection(port: try #require(library.glue.client.port))
      try await connection.send("GET /books HTTP/1.1\r\nHost: localhost\r\n")
      let held = await connection.trickle(
        "X-Slow: abcdefghijklmnopqrstuvwxyz0123456789", every: 0.2)
      #expect(held < 4, "held \(held) s")
    }
  }

  /// Each body part counts as activity, so the idle timeout alone lets a body trickle on.
  @Test func theIdleTimeoutAloneLetsABodyTrickle() async throws {
    try await withLibrary(.live, idleTimeout: .seconds(2)) { library in
      let connection = try await RawConnection(port: try #require(library.glue.client.port))
      try await connection.send(Self.postHead)
      let held = await connection.trickle(String(repeating: "x", count: 25), every: 0.2)
      #expect(held >= 4.5, "held \(held) s")
    }
  }

  /// The request timeout bounds a body sent a byte at a time.
  @Test func theRequestTimeoutClosesAConnectionTricklingItsBody() async throws {
    try await withLibrary(.live, idleTimeout: .seconds(30), requestTimeout: .seconds(1)) {
      library in
      let connection = try await RawConnection(port: try #require(library.glue.client.port))
      try await connection.send(Self.postHead)
      let held = await connection.trickle(String(repeating: "x", count: 40), every: 0.2)
      #expect(held < 4, "held \(held) s")
    }
  }

  static let postHead =
    "POST /authors HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/vnd.api+json\r\n"
    + "Content-Length: 1000\r\n\r\n"
}

/// A TCP connection to the test server, to send what no HTTP client sends: a request a byte at a
/// time.
struct RawConnection {
  let channel: any Channel

  init(port: Int) async throws {
    channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .connect(host: "localhost", port: port).get()
  }

  func send(_ text: String) async throws {
    try await channel.writeAndFlush(ByteBuffer(string: text)).get()
  }

  /// Sends `text` a byte at a time, `every` seconds, until the server closes the connection;
  /// returns how long that took in seconds (or the whole time, when it never closed), and closes.
  func trickle(_ text: String, every interval: Double) async -> Double {
    let start = Date()
    for byte in text.utf8 {
      guard channel.isActive else { break }
      try? await send(String(decoding: [byte], as: UTF8.self))
      try? await Task.sleep(for: .milliseconds(Int(interval * 1000)))
    }
    let held = Date().timeIntervalSince(start)
    try? await channel.close()
    return held
  }
}
