import Foundation
import JSONAPIServer

// Issue 46, proven rather than assumed, on the store under test: random users send random
// requests over every endpoint (and `/operations`) to random trackers; an oracle computed from
// the rules says what each user sees. No response names a row its user may not see (R10: such a
// row answers 404), a list holds exactly the visible rows, and no refused write changes anything
// (R74).
extension JSONAPIStoreConformance {
  /// The trackers one run serves, and the requests sent to each.
  static let policyDataSets = 6
  static let policyRequestsPerDataSet = 70

  /// Random trackers and random requests, held to the oracle of the rules.
  static let policyProperty: Body = { store, report in
    guard store.appliesRowConditions else { return }
    var (random, replay) = seeded()
    for _ in 0..<policyDataSets {
      let records = PolicyRequests.dataSet(&random)
      try await T.clear(store)
      guard let server = try await T.server(store, records) else { return }
      var sizes: [String: Int] = [:]
      for record in records { sizes[record.type, default: 0] += 1 }
      for _ in 0..<policyRequestsPerDataSet {
        let user = Int.random(in: 0...(sizes["users"] ?? 1), using: &random)
        let requester = user == 0 ? nil : String(user)
        let (method, target, body, atomic, row) = PolicyRequests.request(&random, sizes: sizes)
        let before = try await T.snapshot(store)
        let response = await T.respond(
          server, as: requester, method, target, body: body, atomic: atomic)
        let after = try await T.snapshot(store)
        let what = "\(replay): \(method) \(target) as \(requester ?? "nobody")"
        let seen = T.visible(to: requester, in: before).union(T.visible(to: requester, in: after))
        let leaked = T.named(in: response.body).subtracting(seen)
        report.expect(leaked.isEmpty, "\(what) named \(leaked.sorted { "\($0)" < "\($1)" })")
        if let row,
          !T.visible(to: requester, in: before).contains(
            T.Identity(type: row.type, id: row.id ?? ""))
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
          report.expect(response.status, nobody.status, "\(what): status as for an id nobody has")
          report.expect(
            text(response), text(nobody).replacingOccurrences(of: "zz9", with: row.id ?? ""),
            "\(what): the body of an id nobody has")
        }
        if response.status >= 400 {
          report.expect(
            before == after, "\(what) was refused (\(response.status)) but changed the store")
        }
        if method == "GET", target.split(separator: "/").count == 1, response.status == 200,
          !target.contains("filter")
        {
          let type = String(target.dropFirst().prefix { $0 != "?" })
          let ids = Set(T.ids(in: response))
          let expected = Set(
            T.visible(to: requester, in: before).filter { $0.type == type }.map(\.id))
          report.expect(ids, expected, "\(what): the visible rows")
        }
        if report.differences.count >= 10 { return }
      }
      try await walk(server, store, users: sizes["users"] ?? 1, &random, replay, &report)
    }
  }

  /// Every user walks every list page by page (cursors for tasks, page numbers for the
  /// others), sorted at random: the pages hold each visible row once, and nothing else.
  static func walk(
    _ server: JSONAPIServer, _ store: any JSONAPIStore, users: Int, _ random: inout SplitMix64,
    _ replay: String, _ report: inout Report
  ) async throws {
    let records = try await T.snapshot(store)
    let sorts = [
      "tasks": ["title", "-title", "priority,-title", "-priority", "due,-id"],
      "projects": ["name", "-name"], "users": ["name", "-name"],
    ]
    for user in 0...users {
      let requester = user == 0 ? nil : String(user)
      let visible = T.visible(to: requester, in: records)
      for type in T.types {
        let sort = sorts[type]?.randomElement(using: &random) ?? "id"
        let size = Int.random(in: 1...3, using: &random)
        let pages = try await T.walk(
          server, as: requester, "/\(type)?sort=\(sort)&page%5Bsize%5D=\(size)")
        for (next, response) in pages {
          let what = "\(replay): walking GET \(next) as \(requester ?? "nobody")"
          report.expect(response.status, 200, "\(what): status")
          let leaked = T.named(in: response.body).subtracting(visible)
          report.expect(leaked.isEmpty, "\(what) named \(leaked.sorted { "\($0)" < "\($1)" })")
        }
        let seen = pages.flatMap { T.ids(in: $0.1) }
        let expected = visible.filter { $0.type == type }.map(\.id)
        report.expect(
          seen.sorted(), expected.sorted(),
          "\(replay): /\(type) sorted by \(sort), \(size) a page, as \(requester ?? "nobody"): "
            + "each visible row once")
      }
    }
  }
}

/// The random trackers and requests of the policy property.
enum PolicyRequests {
  typealias T = Tracker

  static func dataSet(_ random: inout SplitMix64) -> [JSONAPIResourceRecord] {
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
  static func request(_ random: inout SplitMix64, sizes: [String: Int]) -> (
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
    switch Int.random(in: 0..<21, using: &random) {
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
    case 14:
      let sort =
        ["title", "-title", "priority,-due", "-priority,title", "due"].randomElement(
          using: &random) ?? "title"
      let included = includes["tasks"]?.randomElement(using: &random) ?? "project"
      return (
        "GET", "/tasks?sort=\(sort)&page%5Bsize%5D=50&include=\(included)", nil, false, nil
      )
    case 15:
      let user = pick("users")
      let member = ["ownedProjects", "assigned"].randomElement(using: &random) ?? "assigned"
      let linked = member == "assigned" ? "tasks" : "projects"
      return (
        "PATCH", "/users/\(user)",
        #"{"data":{"type":"users","id":"\#(user)","attributes":{"name":"x"},"relationships":{"#
          + #""\#(member)":{"data":[{"type":"\#(linked)","id":"\#(pick(linked))"}]}}}}"#, false,
        T.id("users", user)
      )
    case 16:
      return (
        "POST", "/projects",
        #"{"data":{"type":"projects","attributes":{"name":"p"},"relationships":{"#
          + #""owner":{"data":{"type":"users","id":"\#(pick("users"))"}},"#
          + #""members":{"data":[{"type":"users","id":"\#(pick("users"))"}]}}}}"#, false, nil
      )
    case 17:
      let project = pick("projects")
      return ("DELETE", "/projects/\(project)", nil, false, T.id("projects", project))
    case 18:
      let task = pick("tasks")
      let assignee =
        Bool.random(using: &random) ? #"{"type":"users","id":"\#(pick("users"))"}"# : "null"
      return (
        "PATCH", "/tasks/\(task)/relationships/assignee", #"{"data":\#(assignee)}"#, false,
        T.id("tasks", task)
      )
    case 19:
      let user = pick("users")
      return (
        "POST", "/operations",
        #"{"atomic:operations":[{"op":"add","ref":{"type":"users","id":"\#(user)","#
          + #""relationship":"assigned"},"data":[{"type":"tasks","id":"\#(pick("tasks"))"}]},"#
          + #"{"op":"update","ref":{"type":"projects","id":"\#(pick("projects"))","#
          + #""relationship":"members"},"data":[{"type":"users","id":"\#(pick("users"))"}]},"#
          + #"{"op":"remove","ref":{"type":"projects","id":"\#(pick("projects"))"}}]}"#, true, nil
      )
    case 20:
      let filters = [
        "/tasks?filter%5Bdone%5D=true&sort=-priority", "/users?filter%5Bname%5D=user&sort=-name",
        "/projects?filter%5Bname%5D=project&sort=name&include=tasks",
        "/tasks?filter%5Bproject%5D=\(pick("projects")),\(pick("projects"))&include=assignee",
      ]
      return ("GET", filters.randomElement(using: &random) ?? "/tasks", nil, false, nil)
    default:
      return (
        "PATCH", "/projects/\(pick("projects"))/relationships/owner",
        #"{"data":{"type":"users","id":"\#(pick("users"))"}}"#, false, nil
      )
    }
  }
}
