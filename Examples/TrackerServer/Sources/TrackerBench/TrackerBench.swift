import Foundation
import JSONAPISQLiteStore
import JSONAPIServer
import TrackerKit

/// `GET /tasks?include=project` on the tracker's SQLite store, with its policies (as ann) beside
/// the same declarations without them: requests per second and SQL statements per request, for
/// pages of several sizes and two include depths, so that the statements are seen to follow the
/// include depth and not the rows. In process (no HTTP), release build:
///
///   swift run -c release --package-path Examples/TrackerServer TrackerBench [SECONDS]
///
/// The data: the seed, then 200 more projects (owners in turn ann, bob, cat; ann a member of
/// every other one) with 20 tasks each (4 005 tasks), in SQLite and, for comparison, in the
/// memory store (which counts no statements).
@main
struct TrackerBench {
  static func main() async throws {
    let seconds = Double(CommandLine.arguments.dropFirst().first ?? "") ?? 2
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("tracker-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let sqlite = try await Tracker.openStore(
      path: directory.appendingPathComponent("t.sqlite").path)
    try await fill(sqlite)
    let memory = JSONAPIMemoryStore(schemas: try Tracker.declarations().map(\.schema))
    try await Tracker.seed(memory)
    try await fill(memory)
    print(
      "store  | request (as ann)                                 | server    |  req/s "
        + "| statements/req | resources in data+included")
    try await measure(sqlite, "sqlite", seconds: seconds) { sqlite.statementCount }
    try await measure(memory, "memory", seconds: seconds) { nil }
  }

  /// Each request on `store`, by the server with the policies and by the one without.
  static func measure(
    _ store: any JSONAPIStore, _ label: String, seconds: Double,
    statements: @Sendable () -> Int?
  ) async throws {
    let secured = try Tracker.declarations()
    let open = secured.map { $0.secured(by: JSONAPIResourcePolicy()) }
    var servers: [(String, JSONAPIServer)] = [
      ("no policy", try JSONAPIServer(resources: open, store: store, options: Tracker.options))
    ]
    do {
      servers.append(
        ("policy", try JSONAPIServer(resources: secured, store: store, options: Tracker.options)))
    } catch {
      print("\(label): with its policy, not measured: \(error)")
    }
    for target in [
      "/tasks?include=project&page%5Bsize%5D=10", "/tasks?include=project&page%5Bsize%5D=100",
      "/tasks?include=project.owner&page%5Bsize%5D=100",
    ] {
      for (name, server) in servers {
        let request = JSONAPIServerRequest(
          method: "GET", target: target, headers: [("Accept", "application/vnd.api+json")],
          context: JSONAPIRequester(userID: "1"))
        let first = await server.respond(to: request)
        guard first.status == 200 else {
          print("\(target) \(name): \(first.status) \(String(decoding: first.body, as: UTF8.self))")
          continue
        }
        let rows = resources(in: first.body)
        let before = statements()
        let clock = ContinuousClock()
        let start = clock.now
        var count = 0
        while clock.now - start < .seconds(seconds) {
          _ = await server.respond(to: request)
          count += 1
        }
        let elapsed = clock.now - start
        let perSecond =
          Double(count)
          / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        var perRequest = "-"
        if let before, let after = statements() {
          perRequest = String(format: "%.1f", Double(after - before) / Double(count))
        }
        print(
          label.padding(toLength: 7, withPad: " ", startingAt: 0) + "| "
            + target.padding(toLength: 49, withPad: " ", startingAt: 0) + "| "
            + name.padding(toLength: 10, withPad: " ", startingAt: 0) + "| "
            + String(format: "%6.0f | ", perSecond)
            + perRequest.padding(toLength: 15, withPad: " ", startingAt: 0) + "| \(rows)")
      }
    }
  }

  /// 200 projects with 20 tasks each, in one transaction.
  static func fill(_ store: any JSONAPIStore) async throws {
    var records: [JSONAPIResourceRecord] = []
    for number in 0..<200 {
      let project = String(100 + number)
      let owner = String(number % 3 + 1)
      let members = number % 2 == 0 && owner != "1" ? ["1"] : []
      records.append(
        JSONAPIResourceRecord(
          type: "projects", id: project, attributes: ["name": .string("Project \(number)")],
          relationships: [
            "owner": .toOne(JSONAPIResourceIdentifier(type: "users", id: owner)),
            "members": .toMany(members.map { JSONAPIResourceIdentifier(type: "users", id: $0) }),
          ]))
      for task in 0..<20 {
        records.append(
          JSONAPIResourceRecord(
            type: "tasks", id: String(10_000 + number * 20 + task),
            attributes: [
              "title": .string("Task \(task) of \(number)"), "done": .bool(task % 4 == 0),
              "priority": .integer(task % 5), "due": .null,
            ],
            relationships: [
              "project": .toOne(JSONAPIResourceIdentifier(type: "projects", id: project)),
              "assignee": .toOne(JSONAPIResourceIdentifier(type: "users", id: owner)),
            ]))
      }
    }
    let all = records
    _ = try await store.write { writer in
      for record in all { _ = try await writer.create(record) }
      return all.count
    }
  }

  /// How many resources the document holds in `data` and `included`.
  static func resources(in body: Data) -> Int {
    guard let document = try? JSONDecoder().decode(JSONAPIValue.self, from: body) else { return 0 }
    return (document["data"]?.arrayValue?.count ?? 0)
      + (document["included"]?.arrayValue?.count ?? 0)
  }
}
