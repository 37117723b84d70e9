import Foundation
import Hummingbird
import JSONAPIHummingbird
import JSONAPIServer
import PostgresNIO

/// Serves the blog: `PORT` (default 8080) on 127.0.0.1, the SQLite database at `DATABASE_PATH`
/// (default `blog.sqlite` in the working directory), created and seeded when missing — or, when
/// `DATABASE_URL` is set (`postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=…]`), the
/// PostgreSQL database it names, where several instances may serve at once. `BASE_URL` sets the
/// prefix of `links` and `Location` (default `http://127.0.0.1:PORT`); `LOG_LEVEL` the log level
/// (Hummingbird's own logger reads it; default `info`). The OpenAPI description is at
/// `/openapi.json`.
@main
struct BlogServer {
  static func main() async throws {
    let environment = ProcessInfo.processInfo.environment
    guard let port = Int(environment["PORT"] ?? "8080"), (1...65535).contains(port) else {
      print("PORT must be a number from 1 to 65535")
      exit(2)
    }
    let baseURL = environment["BASE_URL"] ?? "http://127.0.0.1:\(port)"
    guard let url = environment["DATABASE_URL"] else {
      let path = environment["DATABASE_PATH"] ?? "blog.sqlite"
      try await serve(try Blog.server(path: path, baseURL: baseURL), port: port)
      return
    }
    guard let configuration = Blog.postgresConfiguration(url) else {
      print(
        "DATABASE_URL must be postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE, optionally with "
          + "?sslmode=disable, prefer or require")
      exit(2)
    }
    let client = PostgresClient(configuration: configuration)
    // The client's connections live while its run() runs: beside the server, stopped after it.
    try await withThrowingDiscardingTaskGroup { group in
      group.addTask { await client.run() }
      try await serve(try await Blog.server(postgres: client, baseURL: baseURL), port: port)
      group.cancelAll()
    }
  }

  static func serve(_ server: JSONAPIServer, port: Int) async throws {
    let app = buildApplication(
      server: server,
      configuration: ApplicationConfiguration(
        address: .hostname("127.0.0.1", port: port), serverName: "HummingbirdServer"),
      openAPI: try server.openAPIDocument(title: "Blog", version: "1.0.0").jsonData())
    try await app.runService()
  }
}
