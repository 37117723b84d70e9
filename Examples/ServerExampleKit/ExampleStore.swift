/// The in-memory data of the example: people, comments and articles, by id.
public struct ExampleStore: Sendable {
  /// A person (`people`).
  public struct Person: Sendable {
    /// The id.
    public var id: String
    /// The display name.
    public var name: String
  }

  /// A comment (`comments`) and the id of its author.
  public struct Comment: Sendable {
    /// The id.
    public var id: String
    /// The text.
    public var body: String
    /// The id of the person who wrote it.
    public var authorID: String
  }

  /// An article (`articles`) with the ids of its author and comments.
  public struct Article: Sendable {
    /// The id.
    public var id: String
    /// The title, never blank.
    public var title: String
    /// The text, if any.
    public var body: String?
    /// Bumped by the server on every change: a change beyond the request, so updates answer 200.
    public var revision: Int
    /// The id of the author; `nil` for none.
    public var authorID: String?
    /// The ids of the comments, in order.
    public var commentIDs: [String]
  }

  /// People by id.
  public var people: [String: Person] = [:]
  /// Comments by id.
  public var comments: [String: Comment] = [:]
  /// Articles by id.
  public var articles: [String: Article] = [:]
  /// The next server-assigned article id.
  public var nextArticleID = 100

  /// An empty store.
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
