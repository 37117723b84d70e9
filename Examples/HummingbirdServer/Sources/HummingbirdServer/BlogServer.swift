import Foundation
import Hummingbird
import Logging

/// Serves the blog: `PORT` (default 8080) on 127.0.0.1, the database at `DATABASE_PATH` (default
/// `blog.sqlite` in the working directory), created and seeded when missing. `BASE_URL` sets the
/// prefix of `links` and `Location` (default `http://127.0.0.1:PORT`).
@main
struct BlogServer {
  static func main() async throws {
    let environment = ProcessInfo.processInfo.environment
    guard let port = Int(environment["PORT"] ?? "8080"), (1...65535).contains(port) else {
      print("PORT must be a number from 1 to 65535")
      exit(2)
    }
    let path = environment["DATABASE_PATH"] ?? "blog.sqlite"
    let baseURL = environment["BASE_URL"] ?? "http://127.0.0.1:\(port)"
    var logger = Logger(label: "HummingbirdServer")
    logger.logLevel = environment["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info

    let api = BlogAPI(database: try openDatabase(at: path), baseURL: baseURL)
    let router = Router(context: JSONAPIRequestContext.self, options: .autoGenerateHeadEndpoints)
    router.add(middleware: JSONAPIMiddleware())
    api.addRoutes(to: router)
    let app = Application(
      router: router,
      configuration: ApplicationConfiguration(
        address: .hostname("127.0.0.1", port: port), serverName: "HummingbirdServer"),
      logger: logger)
    logger.info("database at \(path)")
    try await app.runService()
  }
}
