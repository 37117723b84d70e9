import GRDB

/// Opens the blog's SQLite database at `path`, creating and seeding it when it is missing.
///
/// A `DatabasePool` (WAL mode): reads run side by side, and writes are serialized on one
/// connection, each in its own transaction.
func openDatabase(at path: String) throws -> DatabasePool {
  var configuration = Configuration()
  configuration.foreignKeysEnabled = true
  let pool = try DatabasePool(path: path, configuration: configuration)
  try migrator.migrate(pool)
  return pool
}

/// The schema, and the fixed data set a new database starts with. A database that has the
/// migration already is left as it is.
private let migrator: DatabaseMigrator = {
  var migrator = DatabaseMigrator()
  migrator.registerMigration("blog") { db in
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
  return migrator
}()

/// 5 people, 25 articles, 3 comments on each article, with ids from 1 in each table.
///
/// Article `n` is "Article NN" by person `(n - 1) % 5 + 1`; its comments are "Comment k on
/// article n" by person `(n + k) % 5 + 1`, for k = 1, 2, 3.
private func seed(_ db: Database) throws {
  for name in ["Ada Lovelace", "Grace Hopper", "Alan Turing", "Barbara Liskov", "Edsger Dijkstra"] {
    try db.execute(sql: "INSERT INTO people (name) VALUES (?)", arguments: [name])
  }
  for number in 1...25 {
    let title = "Article " + (number < 10 ? "0" : "") + String(number)
    try db.execute(
      sql: "INSERT INTO articles (title, body, author_id) VALUES (?, ?, ?)",
      arguments: [title, "Body of article \(number).", (number - 1) % 5 + 1])
    for comment in 1...3 {
      try db.execute(
        sql: "INSERT INTO comments (body, author_id, article_id) VALUES (?, ?, ?)",
        arguments: ["Comment \(comment) on article \(number)", (number + comment) % 5 + 1, number])
    }
  }
}
