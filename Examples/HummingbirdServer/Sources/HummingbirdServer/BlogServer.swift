import Foundation
import Hummingbird
import JSONAPICodable
import JSONAPIHummingbird

/// Serves the blog: `PORT` (default 8080) on 127.0.0.1, the database at `DATABASE_PATH` (default
/// `blog.sqlite` in the working directory), created and seeded when missing. `BASE_URL` sets the
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
    let server = try Blog.server(
      path: environment["DATABASE_PATH"] ?? "blog.sqlite",
      baseURL: environment["BASE_URL"] ?? "http://127.0.0.1:\(port)")
    let app = buildApplication(
      server: server,
      configuration: ApplicationConfiguration(
        address: .hostname("127.0.0.1", port: port), serverName: "HummingbirdServer"),
      openAPI: try server.openAPIDocument(title: "Blog", version: "1.0.0").jsonData())
    try await app.runService()
  }
}
