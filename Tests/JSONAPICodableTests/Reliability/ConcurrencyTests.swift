import Foundation
import Testing

@testable import JSONAPICodable

/// One decoder and one encoder shared by many tasks at once, as an app shares them. Run under the
/// thread sanitizer by `Scripts/tsan.sh`.
@Suite struct ConcurrencyTests {
  static let taskCount = 32
  static let iterations = 40

  struct Author: Codable, Equatable, Sendable {
    var id: String
    var type = "people"
    var name: String?
  }

  struct Post: Codable, Equatable, Sendable {
    var id: String
    var type = "posts"
    var title: String
    var score: Double
    var tags: [String]
    var author: Author
  }

  /// A document that differs per task and iteration, so a mixed-up result cannot pass.
  static func document(task: Int, iteration: Int) -> (text: String, expected: [Post]) {
    let count = 1 + (task + iteration) % 5
    let author = Author(id: "a\(task)", name: "Author \(task) ✓")
    let posts = (0..<count).map { index in
      Post(
        id: "\(task)-\(iteration)-\(index)", title: "T\(task).\(iteration).\(index) \"q\"",
        score: Double(task) + Double(index) / 4, tags: (0..<index).map { "t\($0)" }, author: author)
    }
    let resources = posts.map { post in
      let tags = post.tags.map { #""\#($0)""# }.joined(separator: ",")
      return #"{"type":"posts","id":"\#(post.id)","attributes":{"title":"T\#(task).\#(iteration)."#
        + #"\#(post.id.split(separator: "-").last ?? "") \"q\"","score":\#(post.score),"#
        + #""tags":[\#(tags)]},"relationships":{"author":{"data":{"type":"people","id":"a\#(task)"}}}}"#
    }
    let text =
      #"{"data":[\#(resources.joined(separator: ","))],"included":[{"type":"people","#
      + #""id":"a\#(task)","attributes":{"name":"Author \#(task) ✓"}}]}"#
    return (text, posts)
  }

  @Test func bothCodersAreSendable() {
    func requireSendable<T: Sendable>(_: T.Type) -> Bool { true }
    #expect(requireSendable(JSONAPIDecoder.self) && requireSendable(JSONAPIEncoder.self))
  }

  /// Runs `round` for every iteration of `tasks` tasks at once (and `alongside`, once, as one
  /// more task) and adds up what the rounds return: the checks that failed.
  static func failures(
    tasks: Int = taskCount, alongside: (@Sendable () -> Void)? = nil,
    _ round: @escaping @Sendable (_ task: Int, _ iteration: Int) throws -> Int
  ) async throws -> Int {
    try await withThrowingTaskGroup(of: Int.self) { group in
      if let alongside {
        group.addTask {
          alongside()
          return 0
        }
      }
      for task in 0..<tasks {
        group.addTask {
          var failures = 0
          for iteration in 0..<iterations { failures += try round(task, iteration) }
          return failures
        }
      }
      return try await group.reduce(0, +)
    }
  }

  @Test func oneDecoderSharedByManyTasks() async throws {
    let decoder = JSONAPIDecoder()
    let mismatches = try await Self.failures { task, iteration in
      let (text, expected) = Self.document(task: task, iteration: iteration)
      return try decoder.decode([Post].self, from: Data(text.utf8)) != expected ? 1 : 0
    }
    #expect(mismatches == 0)
  }

  @Test func oneEncoderSharedByManyTasks() async throws {
    let encoder = JSONAPIEncoder()
    let decoder = JSONAPIDecoder()
    let mismatches = try await Self.failures { task, iteration in
      let expected = Self.document(task: task, iteration: iteration).expected
      let data = try encoder.encode(expected)
      return try decoder.decode([Post].self, from: data) != expected ? 1 : 0
    }
    #expect(mismatches == 0)
  }

  /// Collections that stream in more than one batch of primary resources: calls at the same time
  /// on one encoder must each collect their own `included`. Each task's author differs, so a
  /// resource from another call would decode to the wrong author.
  @Test func oneEncoderSharedByManyTasksWithLargeCollections() async throws {
    let encoder = JSONAPIEncoder()
    let decoder = JSONAPIDecoder()
    let from = 64
    let mismatches = try await withThrowingTaskGroup(of: Int.self) { group in
      for task in 0..<16 {
        group.addTask {
          var failures = 0
          for iteration in 0..<8 {
            let author = Author(id: "a\(task)", name: "Author \(task).\(iteration)")
            let posts = (0..<(from + task + iteration)).map { index in
              Post(
                id: "\(index)", title: "T\(task).\(iteration).\(index)", score: Double(index),
                tags: [], author: author)
            }
            let data = try encoder.encode(posts)
            failures += try decoder.decode([Post].self, from: data) != posts ? 1 : 0
          }
          return failures
        }
      }
      return try await group.reduce(0, +)
    }
    #expect(mismatches == 0)
  }

  @Test func settingsChangeWhileOtherTasksDecode() async throws {
    // userInfo does not change what these models decode, so results stay checkable while a
    // writer task keeps replacing settings behind the lock.
    let decoder = JSONAPIDecoder()
    let encoder = JSONAPIEncoder()
    let writer: @Sendable () -> Void = {
      for round in 0..<500 {
        decoder.userInfo = [CodingUserInfoKey(rawValue: "round")!: round]
        encoder.userInfo = [CodingUserInfoKey(rawValue: "round")!: round]
        decoder.limits.maxResolvedResources = 1_000_000 + round
        _ = encoder.limits
      }
    }
    let mismatches = try await Self.failures(tasks: 16, alongside: writer) { task, iteration in
      var mismatches = 0
      let (text, expected) = Self.document(task: task, iteration: iteration)
      if try decoder.decode([Post].self, from: text) != expected { mismatches += 1 }
      let data = try encoder.encode(expected)
      if try decoder.decode([Post].self, from: data) != expected { mismatches += 1 }
      return mismatches
    }
    #expect(mismatches == 0)
  }

  /// `Post` as a model that declares its type, and one that declares another (always a mismatch).
  struct TypedPost: Decodable, Equatable, JSONAPIResource {
    static let jsonAPIType = "posts"
    var id: String
    var title: String
  }
  struct MistypedPost: Decodable, JSONAPIResource {
    static let jsonAPIType = "articles"
    var id: String
  }

  @Test func typesLearntByConcurrentCallsStayWithTheirTypes() async throws {
    // Each task meets the model types in its own order, so calls learn types at the same time and
    // hand them back to the shared decoder in any order; every answer must stay with its type.
    let decoder = JSONAPIDecoder()
    let wrong = try await Self.failures { task, iteration in
      let (text, expected) = Self.document(task: task, iteration: iteration)
      let data = Data(text.utf8)
      switch (task + iteration) % 4 {
      case 0:
        return try decoder.decode([Post].self, from: data) != expected ? 1 : 0
      case 1:
        let titles = try decoder.decode([TypedPost].self, from: data).map(\.title)
        return titles != expected.map(\.title) ? 1 : 0
      case 2:
        let authors = try decoder.decodeIncluded(Author.self, ofType: "people", from: data)
        return authors != [expected[0].author] ? 1 : 0
      default:
        do {
          _ = try decoder.decode([MistypedPost].self, from: data)
          return 1
        } catch JSONAPIError.resourceTypeMismatch(expected: "articles", found: "posts", _) {
          return 0
        } catch {
          return 1
        }
      }
    }
    #expect(wrong == 0)
  }

  @Test func errorsAreReportedPerCallUnderConcurrency() async throws {
    // Half the tasks decode broken input: each call must see its own error, never another's value.
    let decoder = JSONAPIDecoder()
    let wrong = try await Self.failures { task, iteration in
      if task.isMultiple(of: 2) {
        let (text, expected) = Self.document(task: task, iteration: iteration)
        return try decoder.decode([Post].self, from: text) != expected ? 1 : 0
      }
      do {
        // A fractional id (an integer one reads as its digits, issue 36).
        _ = try decoder.decode([Post].self, from: #"{"data":[{"type":"posts","id":\#(task).5}]}"#)
        return 1
      } catch JSONAPIError.invalidDocument(_, let pointer) where pointer == "/data/0/id" {
        return 0
      } catch {
        return 1
      }
    }
    #expect(wrong == 0)
  }
}
