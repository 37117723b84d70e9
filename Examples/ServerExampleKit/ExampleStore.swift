/// The in-memory data of the example: people, comments and articles, by id.
public struct ExampleStore: Sendable {
  public struct Person: Sendable {
    public var id: String
    public var name: String
  }

  public struct Comment: Sendable {
    public var id: String
    public var body: String
    public var authorID: String
  }

  public struct Article: Sendable {
    public var id: String
    public var title: String
    public var body: String?
    /// Bumped by the server on every change: a change beyond the request, so updates answer 200.
    public var revision: Int
    public var authorID: String?
    public var commentIDs: [String]
  }

  public var people: [String: Person] = [:]
  public var comments: [String: Comment] = [:]
  public var articles: [String: Article] = [:]
  /// The next server-assigned article id.
  public var nextArticleID = 100

  public init() {}

  /// Three people, three comments and three articles.
  public static var seeded: ExampleStore {
    var store = ExampleStore()
    for (id, name) in [("9", "Dana Reyes"), ("2", "Ana Lima"), ("5", "Kai Berg")] {
      store.people[id] = Person(id: id, name: name)
    }
    for (id, body, author) in [
      ("5", "Which framework did you pick?", "2"), ("12", "Great write-up!", "9"),
      ("13", "Benchmarks, please.", "5"),
    ] {
      store.comments[id] = Comment(id: id, body: body, authorID: author)
    }
    store.articles["1"] = Article(
      id: "1", title: "Swift on the server", body: "One year in.", revision: 1, authorID: "9",
      commentIDs: ["5", "12"])
    store.articles["2"] = Article(
      id: "2", title: "Decoding without a second parse", body: nil, revision: 1, authorID: "2",
      commentIDs: ["13"])
    store.articles["3"] = Article(
      id: "3", title: "Anonymous notes", body: "No author.", revision: 1, authorID: nil,
      commentIDs: [])
    return store
  }
}
