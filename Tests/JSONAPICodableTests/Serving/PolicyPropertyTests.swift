import Foundation
import Testing

@testable import JSONAPICodable
@testable import JSONAPIServer

/// Issue 46, proven rather than assumed: random users send random requests over every endpoint
/// (and `/operations`) to random trackers; an oracle computed from the rules says what each user
/// sees. No response names a row its user may not see (R10: such a row answers 404), a list holds
/// exactly the visible rows, and no refused write changes anything (R74).
@Suite struct PolicyPropertyTests {
  typealias T = TrackerFixture

  /// SplitMix64: a small, seeded generator, so a failure is replayed by its seed.
  struct Generator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  static func dataSet(_ random: inout Generator) -> [JSONAPIResourceRecord] {
    let users = Int.random(in: 3...5, using: &random)
    let projects = Int.random(in: 3...7, using: &random)
    let tasks = Int.random(in: 4...12, using: &random)
    var records: [JSONAPIResourceRecord] = (1...users).map {
      JSONAPIResourceRecord(
        type: "users", id: String($0),
        attributes: ["name": .string("user\($0)"), "email": .string("u\($0)@example.com")])
    }
    for number in 1...projects {
      let owner = Int.random(in: 1...users, using: &random)
      let members = (1...users).filter { $0 != owner && Int.random(in: 0..<3, using: &random) == 0 }
      records.append(
        T.project(
          String(number), name: "project\(number)", owner: String(owner),
          members: members.map(String.init)))
    }
    for number in 1...tasks {
      let assignee = Int.random(in: 0...users, using: &random)
      records.append(
        T.task(
          String(number), "task\(number)",
          project: String(Int.random(in: 1...projects, using: &random)),
          assignee: assignee == 0 ? nil : String(assignee),
          priority: Int.random(in: 1...3, using: &random)))
    }
    return records
  }

  /// A random request: method, target, body, whether it is Atomic Operations, and the row it
  /// targets by id (to check a hidden one answers 404).
  static func request(_ random: inout Generator, sizes: [String: Int]) -> (
    String, String, String?, Bool, JSONAPIResourceIdentifier?
  ) {
    func pick(_ type: String) -> String {
      String(Int.random(in: 1...((sizes[type] ?? 1) + 1), using: &random))
    }
    let relationships = [
      "users": ["ownedProjects", "assigned"], "projects": ["owner", "members", "tasks"],
      "tasks": ["project", "assignee"],
    ]
    let includes = [
      "users": ["assigned.project", "ownedProjects.members", "assigned,ownedProjects.tasks"],
      "projects": ["owner", "members.assigned", "tasks.assignee.ownedProjects"],
      "tasks": ["project.members", "assignee.assigned", "project.tasks.assignee"],
    ]
    let type = T.types.randomElement(using: &random) ?? "tasks"
    let id = pick(type)
    let relationship = relationships[type]?.randomElement(using: &random) ?? "project"
    let include = includes[type]?.randomElement(using: &random) ?? ""
    let target = JSONAPIResourceIdentifier(type: type, id: id)
    switch Int.random(in: 0..<14, using: &random) {
    case 0: return ("GET", "/\(type)?page%5Bsize%5D=50&include=\(include)", nil, false, nil)
    case 1: return ("GET", "/\(type)/\(id)?include=\(include)", nil, false, target)
    case 2: return ("HEAD", "/\(type)/\(id)", nil, false, target)
    case 3: return ("GET", "/\(type)/\(id)/\(relationship)", nil, false, target)
    case 4: return ("GET", "/\(type)/\(id)/relationships/\(relationship)", nil, false, target)
    case 5:
      return (
        "GET", "/tasks?page%5Bsize%5D=50&filter%5Bproject%5D=\(pick("projects"))", nil, false, nil
      )
    case 6:
      let task = pick("tasks")
      return (
        "PATCH", "/tasks/\(task)",
        #"{"data":{"type":"tasks","id":"\#(task)","attributes":{"title":"t"},"relationships":{"#
          + #""assignee":{"data":{"type":"users","id":"\#(pick("users"))"}}}}}"#, false,
        T.id("tasks", task)
      )
    case 7:
      let project = pick("projects")
      return (
        "PATCH", "/projects/\(project)",
        #"{"data":{"type":"projects","id":"\#(project)","attributes":{"name":"n"}}}"#, false,
        T.id("projects", project)
      )
    case 8:
      let task = pick("tasks")
      return ("DELETE", "/tasks/\(task)", nil, false, T.id("tasks", task))
    case 9:
      let user = pick("users")
      return (
        ["POST", "PATCH", "DELETE"].randomElement(using: &random) ?? "POST",
        "/users/\(user)/relationships/\(["ownedProjects", "assigned"].randomElement(using: &random) ?? "assigned")",
        #"{"data":[{"type":"\#(Bool.random(using: &random) ? "projects" : "tasks")","id":"\#(pick("tasks"))"}]}"#,
        false, T.id("users", user)
      )
    case 10:
      let project = pick("projects")
      return (
        ["POST", "PATCH", "DELETE"].randomElement(using: &random) ?? "POST",
        "/projects/\(project)/relationships/members",
        #"{"data":[{"type":"users","id":"\#(pick("users"))"}]}"#, false,
        T.id("projects", project)
      )
    case 11:
      return (
        "POST", "/tasks",
        #"{"data":{"type":"tasks","attributes":{"title":"new","done":false},"relationships":{"#
          + #""project":{"data":{"type":"projects","id":"\#(pick("projects"))"}}}}}"#, false, nil
      )
    case 12:
      return (
        "POST", "/operations",
        #"{"atomic:operations":[{"op":"update","data":{"type":"tasks","id":"\#(pick("tasks"))","#
          + #""attributes":{"done":true}}},{"op":"remove","ref":{"type":"tasks","id":"\#(pick("tasks"))"}},"#
          + #"{"op":"add","ref":{"type":"projects","id":"\#(pick("projects"))","relationship":"tasks"},"#
          + #""data":[{"type":"tasks","id":"\#(pick("tasks"))"}]}]}"#, true, nil
      )
    default:
      return (
        "PATCH", "/projects/\(pick("projects"))/relationships/owner",
        #"{"data":{"type":"users","id":"\#(pick("users"))"}}"#, false, nil
      )
    }
  }

  @Test func randomRequestsNeverNameHiddenRows() async throws {
    var random = Generator(state: 46)
    for _ in 0..<6 {
      let records = Self.dataSet(&random)
      let (server, store) = try await T.server(records)
      var sizes: [String: Int] = [:]
      for record in records { sizes[record.type, default: 0] += 1 }
      for _ in 0..<70 {
        let users = sizes["users"] ?? 1
        let user = Int.random(in: 0...users, using: &random)
        let requester = user == 0 ? nil : String(user)
        let (method, target, body, atomic, row) = Self.request(&random, sizes: sizes)
        let before = try await T.snapshot(store)
        let response = await T.respond(
          server, as: requester, method, target, body: body, atomic: atomic)
        let after = try await T.snapshot(store)
        let seen = T.visible(to: requester, in: before)
          .union(T.visible(to: requester, in: after))
        let named = T.named(in: response.body)
        let leaked = named.subtracting(seen)
        #expect(leaked.isEmpty, "\(method) \(target) as \(requester ?? "nobody") named \(leaked)")
        if let row,
          !T.visible(to: requester, in: before).contains(
            ServedIdentity(type: row.type, id: row.id ?? ""))
        {
          // The same request naming an id nobody has answers the same, the id aside.
          let missing = target.replacingOccurrences(
            of: "/\(row.type)/\(row.id ?? "")", with: "/\(row.type)/zz9")
          var missingBody = body
          if let body, let range = body.range(of: #""id":"\#(row.id ?? "")""#) {
            missingBody = body.replacingCharacters(in: range, with: #""id":"zz9""#)
          }
          let nobody = await T.respond(
            server, as: requester, method, missing, body: missingBody, atomic: atomic)
          #expect(
            response.status == nobody.status, "\(method) \(target) as \(requester ?? "nobody")")
          #expect(
            String(decoding: response.body, as: UTF8.self)
              == String(decoding: nobody.body, as: UTF8.self).replacingOccurrences(
                of: "zz9", with: row.id ?? ""), "\(method) \(target)")
        }
        if response.status >= 400 {
          #expect(before == after, "\(method) \(target) was refused but changed the store")
        }
        if method == "GET", !target.contains("/" + "relationships"), target.hasPrefix("/"),
          target.split(separator: "/").count == 1, response.status == 200,
          !target.contains("filter")
        {
          let type = String(target.dropFirst().prefix { $0 != "?" })
          let data = try #require(
            try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
          let ids = Set((data["data"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String })
          let expected = Set(
            T.visible(to: requester, in: before).filter { $0.type == type }.map(\.id))
          #expect(ids == expected, "\(target) as \(requester ?? "nobody")")
        }
      }
    }
  }
}
