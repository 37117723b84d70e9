// ClientExample: decodes a page of articles (a compound document with meta, pagination links,
// relationship meta and a polymorphic relationship), then an error response, and prints both.
// Exits with status 1 when anything fails to decode or decodes to something unexpected, so that CI
// can run it.

import Foundation
import JSONAPICodable

let decoder = JSONAPIDecoder()
decoder.dateDecodingStrategy = .iso8601

var problems: [String] = []

/// Records a broken expectation; the example exits non-zero at the end if there is any.
@MainActor func check(_ condition: Bool, _ message: String) {
  if !condition { problems.append(message) }
}

func day(_ date: Date) -> String {
  let formatter = ISO8601DateFormatter()
  formatter.formatOptions = [.withFullDate]
  return formatter.string(from: date)
}

func describe(_ media: Media?) -> String {
  switch media {
  case .image(let image): return "image \(image.width)x\(image.height) \(image.url.absoluteString)"
  case .video(let video): return "video \(video.durationSeconds)s \(video.url.absoluteString)"
  case .unknown(let type, let id): return "\(type)/\(id) (a type this client does not know)"
  case nil: return "none"
  }
}

// 1. A successful response: decode the whole document to read meta and links too.
do {
  let page = try decoder.decode(
    JSONAPIDocument<[Article], PageMeta>.self, from: articlesResponse)
  let meta = page.meta
  print("GET /articles: page 1 of \(meta?.totalPages ?? 0), \(meta?.totalCount ?? 0) articles")
  print("  next page: \(page.links?.next?.href ?? "none")")
  for article in page.data {
    print()
    print("Article \(article.id): \"\(article.title)\"")
    print(
      "  by \(article.author.name) (@\(article.author.twitter ?? "?")), \(day(article.publishedAt))"
    )
    print("  tags: \(article.tags.joined(separator: ", "))")
    print("  reading time: \(article.meta?["readingMinutes"]?.intValue ?? 0) min")
    print("  hero: \(describe(article.hero))")
    let count = article.comments.meta?["count"]?.intValue ?? article.comments.data.count
    print("  comments: \(count) (\(article.comments.links?.related?.href ?? "no link"))")
    for comment in article.comments.data {
      let who = comment.author.map { $0.name ?? "person \($0.id), not included" } ?? "anonymous"
      print("    - \"\(comment.body)\" by \(who)")
    }
  }

  check(page.data.count == 2, "expected 2 articles, got \(page.data.count)")
  check(meta?.totalPages == 3, "expected meta.totalPages 3")
  check(
    page.links?.next?.href.hasSuffix("page%5Bnumber%5D=2&page%5Bsize%5D=2") == true,
    "expected a next link to page 2")
  if let first = page.data.first {
    check(first.author.name == "Dana Reyes", "author not resolved from included")
    check(first.comments.data.map(\.id) == ["5", "12"], "comments not resolved in order")
    check(first.comments.data.first?.author?.name == nil, "person 2 is not included")
    check(first.comments.data.last?.author?.name == "Dana Reyes", "comment author not resolved")
    if case .image(let image)? = first.hero {
      check(image.width == 1200, "image width")
    } else {
      check(false, "article 1 hero should be an image")
    }
    check(first.links?.selfLink?.href == "https://api.example.com/articles/1", "resource links")
  }
  if let second = page.data.last {
    check(second.comments.data.isEmpty, "article 2 has no comments")
    if case .video? = second.hero {} else { check(false, "article 2 hero should be a video") }
  }
} catch {
  print("error: could not decode the articles response: \(error)")
  exit(1)
}

// 2. A failed request: every decode call throws the server's error objects.
print()
do {
  _ = try decoder.decode(Article.self, from: Data(validationErrorResponse.utf8))
  problems.append("the error response decoded as an article")
} catch JSONAPIError.errorDocument(let errors) {
  print("POST /articles: the server refused the request")
  for error in errors {
    print("  - \(error)")
  }
  check(errors.count == 2, "expected 2 error objects")
  check(errors.first?.source?.pointer == "/data/attributes/title", "expected a source pointer")
} catch {
  print("error: expected an error document, got: \(error)")
  exit(1)
}

if !problems.isEmpty {
  print()
  for problem in problems { print("error: \(problem)") }
  exit(1)
}
