import Foundation
import TrackerApp
import TrackerKit

/// Serves the tracker: `PORT` (default 8080) on 127.0.0.1 only; `DATABASE_PATH` (default
/// `tracker.sqlite`), the SQLite file, seeded when it is new and never again; `BASE_URL`, the
/// prefix of links (default `http://127.0.0.1:PORT`). The OpenAPI description is at
/// `/openapi.json`.
@main
struct TrackerServer {
  static func main() async throws {
    let environment = ProcessInfo.processInfo.environment
    guard let port = Int(environment["PORT"] ?? "8080"), (1...65535).contains(port) else {
      print("PORT must be a number from 1 to 65535")
      exit(2)
    }
    let baseURL = environment["BASE_URL"] ?? "http://127.0.0.1:\(port)"
    let store = try await Tracker.openStore(path: environment["DATABASE_PATH"] ?? "tracker.sqlite")
    let server = try Tracker.server(store: store, baseURL: baseURL)
    try await Tracker.application(server: server, port: port).runService()
  }
}
