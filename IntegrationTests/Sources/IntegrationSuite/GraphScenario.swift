import Foundation
import IntegrationHarness
import JSONAPICodable
import JSONAPINetworking

// Issue 29, item 1: a graph of new resources created in one atomic request with
// `create(graph:at:)`, then read back with `GET` and `include`. Names carry a stamp of the run so
// that the checks find their own resources in a server that keeps others.

struct GraphBlog: Codable, Sendable {
  var id: String?
  var type = "blogs"
  var lid: String?
  var name: String?
  var featuredEntry: JSONAPIResourceIdentifier?
}

struct GraphEntry: Codable, Sendable {
  var id: String?
  var type = "entries"
  var lid: String?
  var headline: String?
  var bodyText: String?
  var blog: GraphBlog?
  var authors: [Person]?
}

@MainActor func graphCreateScenario(_ client: JSONAPIClient) async {
  let stamp = String(UUID().uuidString.prefix(8))

  await check("create(graph:): a new entry with a new blog and two new authors, read back") {
    let draft = GraphEntry(
      headline: "Graph \(stamp)", bodyText: "One request",
      blog: GraphBlog(name: "Blog \(stamp)"),
      authors: [Person(name: "Ada \(stamp)"), Person(name: "Grace \(stamp)")])
    let created: GraphEntry = try await client.create(graph: draft, at: "operations")
    let id = try await required(created.id, "the entry's server id")
    let blogID = try await required(created.blog?.id, "the blog's server id")
    await expect(created.headline == "Graph \(stamp)", "headline \(created.headline ?? "-")")
    await expect(created.blog?.name == "Blog \(stamp)", "blog resolved from its result")
    let authorIDs = created.authors?.compactMap(\.id) ?? []
    await expect(authorIDs.count == 2, "two authors with server ids: \(authorIDs)")
    await expect(
      created.authors?.map(\.name) == ["Ada \(stamp)", "Grace \(stamp)"],
      "authors resolved from their results")

    let read = try await client.get(
      GraphEntry.self, from: "entries/\(id)", query: JSONAPIQuery().including("blog", "authors"))
    await expect(read.headline == "Graph \(stamp)" && read.bodyText == "One request", "\(read)")
    await expect(read.blog?.id == blogID && read.blog?.name == "Blog \(stamp)", "the blog")
    await expect(
      Set(read.authors?.compactMap(\.name) ?? []) == ["Ada \(stamp)", "Grace \(stamp)"],
      "both authors: \(read.authors?.compactMap(\.name) ?? [])")
    await expect(Set(read.authors?.compactMap(\.id) ?? []) == Set(authorIDs), "author ids")
  }

  await check("create(graph:) with a cycle: fewer results than operations is a clear error") {
    // The new blog features the new entry that is on it: blog added first, the entry, then the
    // blog's featured entry set by a relationship update (3 operations).
    let entryLid = "entry-\(stamp)"
    let cyclic = GraphEntry(
      lid: entryLid, headline: "Cycle \(stamp)",
      blog: GraphBlog(
        name: "Cyclic \(stamp)",
        featuredEntry: JSONAPIResourceIdentifier(type: "entries", lid: entryLid)))
    // A 200 the client cannot match to the operations: the write is reported as applied.
    let applied = await expectThrows(JSONAPIUnreadableSuccessError.self) {
      let _: GraphEntry = try await client.create(graph: cyclic, at: "operations")
    }
    await expect(applied?.statusCode == 200, "status \(String(describing: applied?.statusCode))")
    let error = applied?.underlyingError as? JSONAPIClientError
    if case .atomicResultsMismatch(let operations, let results)? = error {
      await expect(operations == 3, "\(operations) operations")
      if results < operations {
        await departure(
          "R111",
          "\(operations) atomic operations answered with \(results) results: the relationship "
            + "update has none (drf-json-api-atomic-operations 0.4.0)")
      }
    } else {
      await expect(false, "expected atomicResultsMismatch, got \(String(describing: error))")
    }
    // The server applied all three: read them back by GET.
    let blogs = try await client.get(
      [GraphBlog].self, from: "blogs", query: JSONAPIQuery().filter("name", "Cyclic \(stamp)"))
    let blog = try await required(blogs.first, "the cyclic blog")
    let featured = try await required(blog.featuredEntry?.id, "the blog's featured entry")
    let entry = try await client.get(
      GraphEntry.self, from: "entries/\(featured)", query: JSONAPIQuery().including("blog"))
    await expect(entry.headline == "Cycle \(stamp)", "the featured entry is the new one")
    await expect(entry.blog?.id == blog.id, "the entry is on the new blog")
  }
}
