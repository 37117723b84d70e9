import Foundation
import JSONAPISQLiteStore
import JSONAPIServer
import JSONAPIStoreConformance

/// New database files for tests: each in this run's directory (under the temporary directory),
/// and the directories of runs older than an hour removed when the first file is made.
enum TestDatabases {
  private static let root = FileManager.default.temporaryDirectory
    .appendingPathComponent("jsonapi-sqlite-store-tests")

  private static let run: URL = {
    let manager = FileManager.default
    let old = Date().addingTimeInterval(-3600)
    for directory in (try? manager.contentsOfDirectory(at: root, includingPropertiesForKeys: nil))
      ?? []
    {
      let modified = (try? manager.attributesOfItem(atPath: directory.path))?[.modificationDate]
      if let modified = modified as? Date, modified < old {
        try? manager.removeItem(at: directory)
      }
    }
    let run = root.appendingPathComponent(UUID().uuidString)
    try? manager.createDirectory(at: run, withIntermediateDirectories: true)
    return run
  }()

  /// A path where no database is yet.
  static func path() -> String {
    run.appendingPathComponent(UUID().uuidString + ".sqlite").path
  }
}

/// The schemas of the memory store's tests, plus an any-value attribute for values of mixed
/// kinds.
enum Schemas {
  static let articles = JSONAPIResourceSchema(
    type: "articles",
    attributes: [
      .init(name: "title", kind: .string, isOptional: false),
      .init(name: "rank", kind: .integer, isOptional: true),
      .init(name: "extra", kind: .any, isOptional: true),
    ],
    relationships: [
      .init(name: "author", targetType: "people", isToMany: false, isOptional: true),
      .init(name: "tags", targetType: "tags", isToMany: true, isOptional: true),
    ])
  static let people = JSONAPIResourceSchema(
    type: "people", attributes: [.init(name: "name", kind: .string, isOptional: false)],
    relationships: [
      .init(name: "favorite", targetType: "articles", isToMany: false, isOptional: true)
    ])
  static let tags = JSONAPIResourceSchema(
    type: "tags", attributes: [.init(name: "name", kind: .string, isOptional: true)],
    relationships: [])
  static let all = [articles, people, tags]

  static func person(_ id: String) -> JSONAPIResourceIdentifier {
    JSONAPIResourceIdentifier(type: "people", id: id)
  }

  static func tag(_ id: String) -> JSONAPIResourceIdentifier {
    JSONAPIResourceIdentifier(type: "tags", id: id)
  }

  static func article(
    _ id: String = "", _ attributes: [String: JSONAPIValue] = [:],
    _ relationships: [String: JSONAPILinkage] = [:]
  ) -> JSONAPIResourceRecord {
    JSONAPIResourceRecord(
      type: "articles", id: id, attributes: attributes, relationships: relationships)
  }

  /// An article's attributes as stored: every declared attribute, `null` when not given.
  static func stored(_ attributes: [String: JSONAPIValue]) -> [String: JSONAPIValue] {
    var all: [String: JSONAPIValue] = ["title": .null, "rank": .null, "extra": .null]
    all.merge(attributes) { _, given in given }
    return all
  }
}

/// A store on a new database.
func makeStore(
  schemas: [JSONAPIResourceSchema] = Schemas.all, tables: [String: JSONAPISQLiteTable] = [:]
) throws -> JSONAPISQLiteStore {
  try JSONAPISQLiteStore(path: TestDatabases.path(), schemas: schemas, tables: tables)
}

// The tests read with page(_:), ids(_:) and find(_:_:) of JSONAPIStoreConformance.

/// Opens once; every waiter, earlier or later, goes on.
actor Latch {
  private var isOpen = false
  private var waiters: [CheckedContinuation<Void, Never>] = []

  func open() {
    isOpen = true
    for waiter in waiters { waiter.resume() }
    waiters = []
  }

  func wait() async {
    if isOpen { return }
    await withCheckedContinuation { waiters.append($0) }
  }
}

struct Abort: Error {}
