import JSONAPIServer

/// The store (SQLite or PostgreSQL), with the blog's one rule on deletes: an article's comments
/// go with it, in the same transaction. (The store itself clears what named a deleted resource,
/// as the store protocol asks, so the tables' `ON DELETE CASCADE` never fires.)
struct BlogStore: JSONAPIStore {
  let store: any JSONAPIStore

  func read<T: Sendable>(_ body: @Sendable (any JSONAPIStoreReader) async throws -> T)
    async throws -> T
  {
    try await store.read(body)
  }

  func write<T: Sendable>(_ body: @Sendable (any JSONAPIStoreWriter) async throws -> T)
    async throws -> T
  {
    try await store.write { writer in try await body(Writer(writer: writer)) }
  }

  struct Writer: JSONAPIStoreWriter {
    let writer: any JSONAPIStoreWriter

    func delete(_ type: String, id: String) async throws -> Bool {
      if type == Article.jsonAPIType {
        // The article's comments (the inverse of `comment.article`), 500 at a time.
        let article = JSONAPIResourceIdentifier(type: type, id: id)
        let comments = JSONAPIStoreQuery(
          type: Comment.jsonAPIType, window: .offset(0, limit: 500), countsTotal: false,
          scope: .init(owner: article, relationship: "comments"))
        var page: JSONAPIStorePage
        repeat {
          page = try await writer.page(comments)
          for comment in page.resources {
            _ = try await writer.delete(comment.type, id: comment.id)
          }
        } while page.hasMore
      }
      return try await writer.delete(type, id: id)
    }

    func resources(_ type: String, ids: [String]) async throws -> [JSONAPIResourceRecord] {
      try await writer.resources(type, ids: ids)
    }
    func page(_ query: JSONAPIStoreQuery) async throws -> JSONAPIStorePage {
      try await writer.page(query)
    }
    func create(_ record: JSONAPIResourceRecord) async throws -> JSONAPIResourceRecord {
      try await writer.create(record)
    }
    func update(_ changes: JSONAPIResourceRecord) async throws -> JSONAPIResourceRecord? {
      try await writer.update(changes)
    }
    func add(
      _ identifiers: [JSONAPIResourceIdentifier], to relationship: String, of type: String,
      id: String
    ) async throws -> Bool {
      try await writer.add(identifiers, to: relationship, of: type, id: id)
    }
    func remove(
      _ identifiers: [JSONAPIResourceIdentifier], from relationship: String, of type: String,
      id: String
    ) async throws -> Bool {
      try await writer.remove(identifiers, from: relationship, of: type, id: id)
    }
  }
}
