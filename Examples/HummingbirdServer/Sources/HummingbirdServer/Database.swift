import GRDB

extension Blog {
  /// Creates the blog's tables and its seed in the database at `path` when it has none, in one
  /// transaction; a database that has them is left as it is. The store serves these tables as
  /// they are (its default names, `author_id` and `article_id`, are theirs), and their foreign
  /// keys clear or delete what pointed at a deleted resource: an article's comments go with it,
  /// a person's articles and comments lose their author.
  static func prepareDatabase(at path: String) throws {
    let queue = try DatabaseQueue(path: path)
    try queue.write { db in
      guard try !db.tableExists("people") else { return }
      try db.execute(
        sql: """
          CREATE TABLE people (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            name TEXT NOT NULL);
          CREATE TABLE articles (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            title TEXT NOT NULL,
            body TEXT,
            author_id INTEGER REFERENCES people(id) ON DELETE SET NULL);
          CREATE INDEX articles_author ON articles(author_id);
          CREATE TABLE comments (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            body TEXT NOT NULL,
            author_id INTEGER REFERENCES people(id) ON DELETE SET NULL,
            article_id INTEGER REFERENCES articles(id) ON DELETE CASCADE);
          CREATE INDEX comments_article ON comments(article_id);
          CREATE INDEX comments_author ON comments(author_id);
          """)
      try seed(db)
    }
  }

  /// 5 people, 25 articles, 3 comments on each article, with ids from 1 in each table.
  private static func seed(_ db: Database) throws {
    for name in seedPeople {
      try db.execute(sql: "INSERT INTO people (name) VALUES (?)", arguments: [name])
    }
    for article in seedArticles {
      try db.execute(
        sql: "INSERT INTO articles (title, body, author_id) VALUES (?, ?, ?)",
        arguments: [article.title, article.body, article.author])
    }
    for comment in seedComments {
      try db.execute(
        sql: "INSERT INTO comments (body, author_id, article_id) VALUES (?, ?, ?)",
        arguments: [comment.body, comment.author, comment.article])
    }
  }

  // MARK: - The seed, for both databases

  static let seedPeople = [
    "Ada Lovelace", "Grace Hopper", "Alan Turing", "Barbara Liskov", "Edsger Dijkstra",
  ]

  struct SeedArticle {
    var title: String
    var body: String
    var author: Int64
  }

  struct SeedComment {
    var body: String
    var author: Int64
    var article: Int64
  }

  /// Article `n` is "Article NN" by person `(n - 1) % 5 + 1`.
  static let seedArticles: [SeedArticle] = (1...25).map { (number: Int) -> SeedArticle in
    let title = "Article " + (number < 10 ? "0" : "") + String(number)
    return SeedArticle(
      title: title, body: "Body of article \(number).", author: Int64((number - 1) % 5 + 1))
  }

  /// Comments 3n-2…3n are on article n: "Comment k on article n" by person `(n + k) % 5 + 1`,
  /// for k = 1, 2, 3.
  static let seedComments: [SeedComment] = (1...25).flatMap { (number: Int) -> [SeedComment] in
    (1...3).map { (comment: Int) -> SeedComment in
      let author = Int64((number + comment) % 5 + 1)
      return SeedComment(
        body: "Comment \(comment) on article \(number)", author: author, article: Int64(number))
    }
  }
}
