import Foundation
import JSONAPISQLiteStore
import JSONAPIServer

// The tracker's shape (users, projects with an owner and members, tasks in projects) at a size
// where a full scan would show: 200 users, 1 000 projects, 20 000 tasks. One server declares the
// tracker's visibility policies (a user sees the projects they own or are a member of, and their
// tasks), the other declares none; both serve the same SQLite store. Each request is timed over
// many rounds (interleaved), and the store's statement count is read around one request.

struct User: Codable, Sendable, JSONAPIResource {
  static let jsonAPIType = "users"
  var id: String?
  var name: String
  var ownedProjects: [Project]?
}

struct Project: Codable, Sendable, JSONAPIResource {
  static let jsonAPIType = "projects"
  var id: String?
  var name: String
  var owner: User
  var members: [User]?
  var tasks: [Task]?
}

struct Task: Codable, Sendable, JSONAPIResource {
  static let jsonAPIType = "tasks"
  var id: String?
  var title: String
  var priority: Int
  var project: Project
}

/// SplitMix64, seeded: the same data every run.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

func declarations(secured: Bool) throws -> [JSONAPIResourceDeclaration] {
  let users = try JSONAPIResourceDeclaration(User.self, inverses: ["ownedProjects": "owner"])
  let projects = try JSONAPIResourceDeclaration(Project.self, inverses: ["tasks": "project"])
  let tasks = try JSONAPIResourceDeclaration(
    Task.self, sortable: ["title", "priority"], paging: .pageNumber(defaultSize: 20, maxSize: 50))
  guard secured else { return [users, projects, tasks] }
  return [
    users.secured(
      by: JSONAPIResourcePolicy(visible: { requester in
        guard let user = requester?.userID else { return .never }
        return .any([
          .id(in: [user]), .namedBy(type: "projects", relationship: "owner", .visible),
          .namedBy(type: "projects", relationship: "members", .visible),
        ])
      })),
    projects.secured(
      by: JSONAPIResourcePolicy(visible: { requester in
        guard let user = requester?.userID else { return .never }
        return .any([.linked("owner", to: [user]), .linked("members", to: [user])])
      })),
    tasks.secured(by: JSONAPIResourcePolicy(visible: { _ in .related("project", .visible) })),
  ]
}

func seed(_ store: JSONAPISQLiteStore) async throws {
  var random = SplitMix64(state: 46)
  var records: [JSONAPIResourceRecord] = (1...200).map {
    JSONAPIResourceRecord(type: "users", id: String($0), attributes: ["name": .string("u\($0)")])
  }
  for number in 1...1_000 {
    let members = (0..<Int.random(in: 0...4, using: &random)).map { _ in
      JSONAPIResourceIdentifier(type: "users", id: String(Int.random(in: 1...200, using: &random)))
    }
    var unique: Set<String> = []
    records.append(
      JSONAPIResourceRecord(
        type: "projects", id: String(number), attributes: ["name": .string("p\(number)")],
        relationships: [
          "owner": .toOne(
            JSONAPIResourceIdentifier(
              type: "users", id: String(Int.random(in: 1...200, using: &random)))),
          "members": .toMany(members.filter { unique.insert($0.id ?? "").inserted }),
        ]))
  }
  for number in 1...20_000 {
    records.append(
      JSONAPIResourceRecord(
        type: "tasks", id: String(number),
        attributes: [
          "title": .string("t\(number)"),
          "priority": .integer(Int.random(in: 1...5, using: &random)),
        ],
        relationships: [
          "project": .toOne(
            JSONAPIResourceIdentifier(
              type: "projects", id: String(Int.random(in: 1...1_000, using: &random))))
        ]))
  }
  try await store.insert(records)
}

func request(_ target: String, as user: String?) -> JSONAPIServerRequest {
  JSONAPIServerRequest(
    method: "GET", target: target, headers: [("Accept", "application/vnd.api+json")],
    context: user.map { JSONAPIRequester(userID: $0) })
}

@main
struct Benchmark {
  static func main() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "sqlite-visibility-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let schemas = try declarations(secured: false).map(\.schema)
    let store = try JSONAPISQLiteStore(
      path: directory.appendingPathComponent("bench.sqlite").path, schemas: schemas)
    try await seed(store)
    let open = try JSONAPIServer(resources: try declarations(secured: false), store: store)
    let secured = try JSONAPIServer(resources: try declarations(secured: true), store: store)
    let cases: [(String, JSONAPIServer, String, String?)] = [
      ("tasks, no policy", open, "/tasks?page%5Bsize%5D=20&sort=-priority", nil),
      ("tasks, policy (user 7)", secured, "/tasks?page%5Bsize%5D=20&sort=-priority", "7"),
      ("tasks page 5, no policy", open, "/tasks?page%5Bsize%5D=20&page%5Bnumber%5D=5", nil),
      (
        "tasks page 5, policy (user 7)", secured, "/tasks?page%5Bsize%5D=20&page%5Bnumber%5D=5", "7"
      ),
      ("tasks + project, no policy", open, "/tasks?page%5Bsize%5D=20&include=project", nil),
      ("tasks + project, policy", secured, "/tasks?page%5Bsize%5D=20&include=project", "7"),
    ]
    let rounds = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 200
    // The store alone: one page of tasks, with the condition the server resolves for user 7 and
    // without, as `JSONAPIStoreQuery`s.
    var plain = JSONAPIStoreQuery(
      type: "tasks", sort: [.descending("priority"), .ascending("id")],
      window: .offset(0, limit: 20))
    var visible = plain
    visible.visibility = .related(
      "project", .any([.linked("owner", to: ["7"]), .linked("members", to: ["7"])]))
    plain.visibility = nil
    let pages = [
      ("store page, no visibility", plain), ("store page, visibility (user 7)", visible),
    ]
    // Once each first: a first read opens reader connections, which run statements of their own.
    for (_, query) in pages { _ = try await store.read { try await $0.page(query) } }
    for (_, server, target, user) in cases {
      _ = await server.respond(to: request(target, as: user))
    }
    var pageSamples = Array(repeating: [Duration](), count: pages.count)
    var pageStatements = Array(repeating: 0, count: pages.count)
    var pageSizes = Array(repeating: 0, count: pages.count)
    for (index, (_, query)) in pages.enumerated() {
      let before = store.statementCount
      let page = try await store.read { try await $0.page(query) }
      pageStatements[index] = store.statementCount - before
      pageSizes[index] = page.total ?? 0
    }
    var samples = Array(repeating: [Duration](), count: cases.count)
    var statements = Array(repeating: 0, count: cases.count)
    var sizes = Array(repeating: 0, count: cases.count)
    for (index, (_, server, target, user)) in cases.enumerated() {
      let before = store.statementCount
      let response = await server.respond(to: request(target, as: user))
      statements[index] = store.statementCount - before
      sizes[index] = response.body.count
      guard response.status == 200 else {
        print("\(target): status \(response.status)")
        return
      }
    }
    let clock = ContinuousClock()
    for _ in 0..<rounds {
      for (index, (_, query)) in pages.enumerated() {
        let elapsed = try await clock.measure {
          _ = try await store.read { try await $0.page(query) }
        }
        pageSamples[index].append(elapsed)
      }
      for (index, (_, server, target, user)) in cases.enumerated() {
        let elapsed = await clock.measure {
          _ = await server.respond(to: request(target, as: user))
        }
        samples[index].append(elapsed)
      }
    }
    func ms(_ duration: Duration) -> String {
      let (seconds, attoseconds) = duration.components
      return String(format: "%.3f ms", Double(seconds) * 1000 + Double(attoseconds) / 1e15)
    }
    func row(_ name: String, _ statements: Int, _ samples: [Duration], _ size: Int) {
      let sorted = samples.sorted()
      guard let fastest = sorted.first else { return }
      print(
        "| \(name) | \(statements) | \(ms(sorted[sorted.count / 2])) | \(ms(fastest)) | \(size) |")
    }
    print("| request | statements | median | min | body bytes (store: total) |")
    print("|---|---|---|---|---|")
    for (index, (name, _)) in pages.enumerated() {
      row(name, pageStatements[index], pageSamples[index], pageSizes[index])
    }
    for (index, (name, _, _, _)) in cases.enumerated() {
      row(name, statements[index], samples[index], sizes[index])
    }
  }
}
