import Foundation
import IntegrationHarness
import JSONAPICodable
import JSONAPINetworking

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

// Issue 29, item 2: `update(from:to:)` sends only what changed, so an edit made on the server by
// someone else in between survives, and clearing an optional attribute sends `null`. The server's
// articles have a nullable `subtitle` for it (blog/migrations/0100_article_subtitle.py).

/// An article as an editing screen holds it: every writable field, relationships as identifiers.
struct EditableArticle: Codable, Sendable {
  var id: String?
  var type = "articles"
  var title: String
  var subtitle: String?
  var body: String
  var wordCount: Int
  var author: JSONAPIResourceIdentifier?
  var tags: [JSONAPIResourceIdentifier]
}

/// What another user sends in between: a plain PATCH of `body` alone.
struct BodyPatch: Codable, Sendable {
  var id: String
  var type = "articles"
  var body: String
}

/// A transport that sends through the client's default one and keeps every request, to read what
/// went over the wire.
final class RecordingTransport: JSONAPITransport, @unchecked Sendable {
  // `recorded` is guarded by `lock`.
  private let lock = NSLock()
  private var recorded: [URLRequest] = []

  var requests: [URLRequest] { lock.withLock { recorded } }

  func send(_ request: URLRequest, maxResponseBytes: Int) async throws -> (Data, HTTPURLResponse) {
    lock.withLock { recorded.append(request) }
    return try await JSONAPIClient.defaultTransport.send(
      request, maxResponseBytes: maxResponseBytes)
  }
}

/// The checks of `update(from:to:)` against the server.
@MainActor func changesScenario(_ baseURL: URL) async {
  let transport = RecordingTransport()
  let client = makeClient(baseURL, transport: transport)

  await check("update(from:to:) sends the changed title only: an edit of body in between survives")
  {
    let draft = EditableArticle(
      title: "Changes only", subtitle: "A subtitle", body: "First body", wordCount: 10,
      author: JSONAPIResourceIdentifier(type: "people", id: "1"),
      tags: [JSONAPIResourceIdentifier(type: "tags", id: "2")])
    let read: EditableArticle = try await client.create(draft, at: "articles")
    let id = try await required(read.id, "created id")
    // Another user edits `body` on the server after `read` was read.
    let _: EditableArticle? = try await client.update(
      BodyPatch(id: id, body: "Body edited elsewhere"), at: "articles/\(id)")

    var edited = read
    edited.title = "Changes only, retitled"
    let before = transport.requests.count
    let updated: EditableArticle? = try await client.update(
      from: read, to: edited, at: "articles/\(id)")
    await expect(updated?.title == "Changes only, retitled", "\(String(describing: updated))")
    let sent = try sentDocument(transport.requests.dropFirst(before).first)
    await expect(
      sent
        == [
          "data": [
            "type": "articles", "id": .string(id),
            "attributes": ["title": "Changes only, retitled"],
          ]
        ], "sent \(sent)")

    let stored = try await client.get(EditableArticle.self, from: "articles/\(id)")
    await expect(stored.title == "Changes only, retitled", "title \(stored.title)")
    await expect(stored.body == "Body edited elsewhere", "body kept: \(stored.body)")
    await expect(
      stored.subtitle == "A subtitle" && stored.wordCount == 10 && stored.author?.id == "1"
        && stored.tags.map(\.id) == ["2"], "untouched fields: \(stored)")
  }

  await check("update(from:to:) clearing an optional attribute sends null; the server stores null")
  {
    let read: EditableArticle = try await client.create(
      EditableArticle(
        title: "To clear", subtitle: "Going away", body: "Body", wordCount: 5, tags: []),
      at: "articles")
    let id = try await required(read.id, "created id")
    await expect(read.subtitle == "Going away", "created with a subtitle: \(read)")

    var edited = read
    edited.subtitle = nil
    let before = transport.requests.count
    let _: EditableArticle? = try await client.update(from: read, to: edited, at: "articles/\(id)")
    let request = transport.requests.dropFirst(before).first
    await expect(request?.httpMethod == "PATCH", "method \(request?.httpMethod ?? "none")")
    let sent = try sentDocument(request)
    await expect(
      sent == ["data": ["type": "articles", "id": .string(id), "attributes": ["subtitle": .null]]],
      "sent \(sent)")

    let stored = try await client.get(EditableArticle.self, from: "articles/\(id)")
    await expect(stored.subtitle == nil && stored.title == "To clear", "stored \(stored)")
    // In the server's own document: present, and null.
    let (data, _) = try await rawRequest(baseURL, "articles/\(id)")
    let document = try JSONDecoder().decode(JSONAPIValue.self, from: data)
    await expect(
      document["data"]?["attributes"]?["subtitle"] == .null,
      "stored \(String(decoding: data, as: UTF8.self))")
  }

  await check("update(from:to:) with nothing changed sends no request and returns nil") {
    let read = try await client.get(EditableArticle.self, from: "articles/2")
    let before = transport.requests.count
    let updated: EditableArticle? = try await client.update(from: read, to: read, at: "articles/2")
    await expect(updated == nil, "\(String(describing: updated))")
    await expect(transport.requests.count == before, "\(transport.requests.count - before) sent")
  }
}

/// The JSON document a recorded request sent.
private func sentDocument(_ request: URLRequest?) throws -> JSONAPIValue {
  guard let body = request?.httpBody else { throw MissingValue(what: "request body") }
  return try JSONDecoder().decode(JSONAPIValue.self, from: body)
}
