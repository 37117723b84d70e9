import Foundation
import Testing

@testable import JSONAPICodable

/// One document read leniently (issue 36: what real servers send, where the meaning is plain),
/// with the checks of what it decodes to.
struct LenientCase: Sendable, CustomTestStringConvertible {
  var name: String
  var check: @Sendable () throws -> Void

  init(_ name: String, _ check: @escaping @Sendable () throws -> Void) {
    self.name = name
    self.check = check
  }

  var testDescription: String { name }
}

/// A document the decoder still refuses, with the error it must give.
struct RefusedCase: Sendable, CustomTestStringConvertible {
  var name: String
  var json: String
  var decode: @Sendable (JSONAPIDecoder, Data) throws -> Void
  /// The `invalidDocument` pointer, or `nil` for `notADocument`.
  var pointer: String?
  /// Words the reason must contain.
  var reason: String

  var testDescription: String { name }
}

/// `null` for an optional member reads as absent, and an integer `id` as its digits, in every
/// reader: documents, identifiers, relationships, links, error documents and Atomic Operations
/// documents. What null would change the meaning of, and numbers that are no ids, stay errors.
///
/// The specification asks for objects (`meta` R43, `links` R52, `jsonapi` R56, `attributes` R21,
/// `relationships` R24) and string ids (R14, R35); R125 and R122 leave the lenient reading of
/// what real servers send to the library.
@Suite struct LenientReadingTests {
  struct Person: Decodable, Equatable, Sendable {
    var id: String
    var name: String?
  }

  struct Article: Decodable, Sendable {
    var id: String?
    var lid: String?
    var title: String?
    var meta: JSONAPIValue?
    var links: JSONAPILinks?
    var author: Person?
  }

  struct Post: Decodable, Sendable {
    var id: String
    var author: JSONAPIRelationship<Person?>
  }

  struct Citation: Decodable, Sendable {
    var id: String
    var source: JSONAPIResourceIdentifier?
  }

  struct Numbered: Decodable, Sendable {
    var id: Int
  }

  struct Counted: Decodable, Sendable {
    var id: Decimal
  }

  struct Tagged: Decodable, Sendable {
    var id: String
    var tags: [Person]
  }

  static func data(_ json: String) -> Data { Data(json.utf8) }

  // MARK: - null reads as absent

  static let nullCases: [LenientCase] = [
    // Top level (R4, R43, R52, R56).
    LenientCase("top-level meta null beside data") {
      let document = try JSONAPIDecoder().decode(
        JSONAPIDocument<Article, JSONAPIValue>.self,
        from: data(#"{"data": {"type": "articles", "id": "1"}, "meta": null}"#))
      #expect(document.meta == nil)
      #expect(document.data.id == "1")
    },
    LenientCase("top-level links null") {
      let document = try JSONAPIDecoder().decode(
        JSONAPIDocument<Article, JSONAPIValue>.self,
        from: data(#"{"data": {"type": "articles", "id": "1"}, "links": null}"#))
      #expect(document.links == nil)
    },
    LenientCase("top-level jsonapi null") {
      let document = try JSONAPIDecoder().decode(
        JSONAPIDocument<Article, JSONAPIValue>.self,
        from: data(#"{"data": {"type": "articles", "id": "1"}, "jsonapi": null}"#))
      #expect(document.jsonapi == nil)
    },
    LenientCase("top-level meta, links and jsonapi null with null data") {
      let document = try JSONAPIDecoder().decode(
        JSONAPIDocument<Article?, JSONAPIValue>.self,
        from: data(#"{"data": null, "meta": null, "links": null, "jsonapi": null}"#))
      #expect(document.data == nil && document.meta == nil && document.links == nil)
    },
    LenientCase("top-level errors null beside data (R3 holds: no errors)") {
      let article = try JSONAPIDecoder().decode(
        Article.self,
        from: data(#"{"data": {"type": "articles", "id": "1"}, "errors": null}"#))
      #expect(article.id == "1")
    },
    LenientCase("top-level included null (R37)") {
      let article = try JSONAPIDecoder().decode(
        Article.self,
        from: data(
          #"{"data": {"type": "articles", "id": "1", "relationships": {"author": {"data": "#
            + #"{"type": "people", "id": "9"}}}}, "included": null}"#))
      // Not included: the identifier alone (R33).
      #expect(article.author == Person(id: "9", name: nil))
    },
    LenientCase("top-level included null beside meta only (R5 holds)") {
      let document = try JSONAPIDecoder().decode(
        JSONAPIDocument<Article?, JSONAPIValue>.self,
        from: data(#"{"meta": {"total": 0}, "included": null}"#))
      #expect(document.meta == ["total": 0])
      #expect(document.data == nil)
    },
    // Resource objects (R17, R21, R24).
    LenientCase("resource meta and links null") {
      let article = try JSONAPIDecoder().decode(
        Article.self,
        from: data(#"{"data": {"type": "articles", "id": "1", "meta": null, "links": null}}"#))
      #expect(article.meta == nil && article.links == nil)
    },
    LenientCase("resource attributes null") {
      let article = try JSONAPIDecoder().decode(
        Article.self, from: data(#"{"data": {"type": "articles", "id": "1", "attributes": null}}"#))
      #expect(article.id == "1" && article.title == nil)
    },
    LenientCase("resource relationships null") {
      let article = try JSONAPIDecoder().decode(
        Article.self,
        from: data(
          #"{"data": {"type": "articles", "id": "1", "attributes": {"title": "T"}, "#
            + #""relationships": null}}"#))
      #expect(article.title == "T" && article.author == nil)
    },
    LenientCase("resource id null in a create body (R12)") {
      let article = try JSONAPIDecoder().decode(
        Article.self,
        from: data(
          #"{"data": {"type": "articles", "id": null, "lid": "a1", "attributes": {"title": "T"}}}"#
        ))
      #expect(article.id == nil && article.lid == "a1" && article.title == "T")
    },
    LenientCase("resource lid null (R13)") {
      let article = try JSONAPIDecoder().decode(
        Article.self, from: data(#"{"data": {"type": "articles", "id": "1", "lid": null}}"#))
      #expect(article.id == "1" && article.lid == nil)
    },
    LenientCase("included resource meta and links null") {
      let article = try JSONAPIDecoder().decode(
        Article.self,
        from: data(
          #"{"data": {"type": "articles", "id": "1", "relationships": {"author": {"data": "#
            + #"{"type": "people", "id": "9"}}}}, "included": [{"type": "people", "id": "9", "#
            + #""attributes": {"name": "Dan"}, "meta": null, "links": null}]}"#))
      #expect(article.author == Person(id: "9", name: "Dan"))
    },
    // Resource identifier objects (R34, R36).
    LenientCase("identifier meta null in linkage, read as JSONAPIResourceIdentifier") {
      let citation = try JSONAPIDecoder().decode(
        Citation.self,
        from: data(
          #"{"data": {"type": "citations", "id": "1", "relationships": {"source": {"data": "#
            + #"{"type": "books", "id": "7", "meta": null}}}}}"#))
      #expect(citation.source == JSONAPIResourceIdentifier(type: "books", id: "7"))
      #expect(citation.source?.meta == nil)
    },
    LenientCase("identifiers of a relationship endpoint with meta null") {
      let identifiers = try JSONAPIDecoder().decode(
        [JSONAPIResourceIdentifier].self,
        from: data(
          #"{"data": [{"type": "tags", "id": "1", "meta": null}, {"type": "tags", "id": "2"}], "#
            + #""links": null, "meta": null}"#))
      #expect(identifiers.map(\.id) == ["1", "2"])
      #expect(identifiers.allSatisfy { $0.meta == nil })
    },
    LenientCase("identifier lid null beside its id resolves by id") {
      let article = try JSONAPIDecoder().decode(
        Article.self,
        from: data(
          #"{"data": {"type": "articles", "id": "1", "relationships": {"author": {"data": "#
            + #"{"type": "people", "id": "9", "lid": null}}}}, "included": [{"type": "people", "#
            + #""id": "9", "attributes": {"name": "Dan"}}]}"#))
      #expect(article.author?.name == "Dan")
    },
    // Relationship objects (R25, R26).
    LenientCase("relationship meta and links null beside data") {
      let post = try JSONAPIDecoder().decode(
        Post.self,
        from: data(
          #"{"data": {"type": "posts", "id": "1", "relationships": {"author": {"data": "#
            + #"{"type": "people", "id": "9"}, "meta": null, "links": null}}}, "included": "#
            + #"[{"type": "people", "id": "9", "attributes": {"name": "Dan"}}]}"#))
      #expect(post.author.data?.name == "Dan")
      #expect(post.author.meta == nil && post.author.links == nil && post.author.hasData)
    },
    LenientCase("relationship data null keeps its meaning: an empty to-one (R30)") {
      let post = try JSONAPIDecoder().decode(
        Post.self,
        from: data(
          #"{"data": {"type": "posts", "id": "1", "relationships": {"author": {"data": null, "#
            + #""meta": null}}}}"#))
      #expect(post.author.hasData && post.author.data == nil && post.author.meta == nil)
    },
    // Links and link objects (R52-R54).
    LenientCase("link object members null") {
      let document = try JSONAPIDecoder().decode(
        JSONAPIDocument<Article, JSONAPIValue>.self,
        from: data(
          #"{"data": {"type": "articles", "id": "1"}, "links": {"self": {"href": "/a/1", "#
            + #""meta": null, "rel": null, "title": null, "type": null, "hreflang": null, "#
            + #""describedby": null}, "next": null}}"#))
      let link = try #require(document.links?.selfLink)
      #expect(link == JSONAPILink(href: "/a/1"))
      #expect(link.meta == nil && link.describedBy == nil && link.hreflang == nil)
      #expect(document.links?.names == ["self"])  // a null link does not exist (R53)
    },
    LenientCase("resource link object with meta null") {
      let article = try JSONAPIDecoder().decode(
        Article.self,
        from: data(
          #"{"data": {"type": "articles", "id": "1", "links": {"self": {"href": "/a/1", "#
            + #""meta": null}}}}"#))
      #expect(article.links?.selfLink?.href == "/a/1")
      #expect(article.links?.selfLink?.meta == nil)
    },
    // The jsonapi object (R56).
    LenientCase("jsonapi object members null") {
      let document = try JSONAPIDecoder().decode(
        JSONAPIDocument<Article, JSONAPIValue>.self,
        from: data(
          #"{"data": {"type": "articles", "id": "1"}, "jsonapi": {"version": "1.1", "#
            + #""ext": null, "profile": null, "meta": null}}"#))
      #expect(document.jsonapi == JSONAPIObject(version: "1.1"))
    },
    // Error documents and error objects (R88-R96).
    LenientCase("error document members null") {
      let error = thrownError {
        try JSONAPIDecoder().decode(
          Article.self,
          from: data(
            #"{"errors": [{"status": "422", "meta": null, "links": null, "source": null, "#
              + #""title": null}], "meta": null, "links": null, "jsonapi": null}"#))
      }
      guard case .errorDocument(let document) = error as? JSONAPIError else {
        Issue.record("expected an error document, got \(String(describing: error))")
        return
      }
      #expect(document.errors == [JSONAPIErrorObject(status: "422")])
      #expect(document.meta == nil && document.links == nil && document.jsonapi == nil)
    },
    LenientCase("error source members and links null") {
      let errors = try JSONAPIDecoder().decodeErrors(
        JSONAPIErrorObject.self,
        from: data(
          #"{"errors": [{"source": {"pointer": null, "parameter": "sort", "header": null}, "#
            + #""links": {"about": null, "type": "/errors/sort"}}]}"#))
      #expect(errors.first?.source == JSONAPIErrorObject.Source(parameter: "sort"))
      #expect(errors.first?.links?.names == ["type"])
    },
    // Atomic Operations documents (R99-R109).
    LenientCase("result meta null, as a server answered") {
      let results = try JSONAPIDecoder().decode(
        [JSONAPIOperationResult].self,
        from: data(
          #"{"atomic:results": [{"data": {"type": "people", "id": "9", "attributes": "#
            + #"{"name": "Dan"}}, "meta": null}, {"meta": null}, {}]}"#))
      #expect(results.count == 3)
      #expect(results.allSatisfy { $0.meta == nil })
      #expect(try results[0].decode(Person.self) == Person(id: "9", name: "Dan"))
    },
    LenientCase("atomic results with top-level meta, links, jsonapi and included null") {
      let results = try JSONAPIDecoder().decode(
        [JSONAPIOperationResult].self,
        from: data(
          #"{"atomic:results": [{"data": {"type": "people", "id": "9"}}], "meta": null, "#
            + #""links": null, "jsonapi": null, "included": null, "errors": null}"#))
      #expect(try results.map { try $0.decode(Person.self).id } == ["9"])
    },
    LenientCase("atomic results null beside meta: no results") {
      let results = try JSONAPIDecoder().decode(
        [JSONAPIOperationResult].self,
        from: data(#"{"atomic:results": null, "meta": {"took": 1}}"#))
      #expect(results.isEmpty)
    },
    LenientCase("atomic operations null beside results") {
      let results = try JSONAPIDecoder().decode(
        [JSONAPIOperationResult].self,
        from: data(#"{"atomic:results": [{}], "atomic:operations": null}"#))
      #expect(results.count == 1 && !results[0].hasData)
    },
    LenientCase("operation meta null and top-level meta null") {
      let operations = try JSONAPIDecoder().decodeOperations(
        from: data(
          #"{"atomic:operations": [{"op": "add", "data": {"type": "people", "lid": "p1"}, "#
            + #""meta": null}], "meta": null}"#))
      #expect(operations.count == 1 && operations[0].meta == nil && operations[0].op == .add)
    },
    LenientCase("operation href null beside ref, ref null beside href") {
      let operations = try JSONAPIDecoder().decodeOperations(
        from: data(
          #"{"atomic:operations": [{"op": "remove", "ref": {"type": "people", "id": "9"}, "#
            + #""href": null}, {"op": "remove", "ref": null, "href": "/people/8"}]}"#))
      #expect(operations.map(\.ref) == [JSONAPIOperationReference(type: "people", id: "9"), nil])
      #expect(operations.map(\.href) == [nil, "/people/8"])
    },
    LenientCase("ref lid and relationship null") {
      let operations = try JSONAPIDecoder().decodeOperations(
        from: data(
          #"{"atomic:operations": [{"op": "remove", "ref": {"type": "people", "id": "9", "#
            + #""lid": null, "relationship": null}}]}"#))
      #expect(operations.first?.ref == JSONAPIOperationReference(type: "people", id: "9"))
    },
    LenientCase("operation data null keeps its meaning: clear a to-one (R107)") {
      let operations = try JSONAPIDecoder().decodeOperations(
        from: data(
          #"{"atomic:operations": [{"op": "update", "ref": {"type": "articles", "id": "1", "#
            + #""relationship": "author"}, "data": null, "meta": null}]}"#))
      #expect(operations.first?.hasData == true)
      #expect(try operations.first?.decode(JSONAPIResourceIdentifier?.self) == .some(nil))
    },
    LenientCase("result meta null through another decoder (JSONDecoder)") {
      let result = try JSONDecoder().decode(
        JSONAPIOperationResult.self, from: data(#"{"meta": null}"#))
      #expect(result.meta == nil && !result.hasData)
    },
  ]

  @Test(arguments: nullCases)
  func nullReadsAsAbsent(_ row: LenientCase) throws {
    try row.check()
  }

  // MARK: - Integer ids read as their digits

  static let integerIDCases: [LenientCase] = [
    LenientCase("primary resource id 2 (R14)") {
      let person = try JSONAPIDecoder().decode(
        Person.self, from: data(#"{"data": {"type": "people", "id": 2}}"#))
      #expect(person.id == "2")
    },
    LenientCase("negative id -3") {
      let person = try JSONAPIDecoder().decode(
        Person.self, from: data(#"{"data": {"type": "people", "id": -3}}"#))
      #expect(person.id == "-3")
    },
    LenientCase("id beyond 2^64 keeps every digit") {
      let person = try JSONAPIDecoder().decode(
        Person.self,
        from: data(#"{"data": {"type": "people", "id": 123456789012345678901234567890}}"#))
      #expect(person.id == "123456789012345678901234567890")
    },
    LenientCase("id 2 into an Int and a Decimal model") {
      let json = data(#"{"data": {"type": "people", "id": 2}}"#)
      let number = try JSONAPIDecoder().decode(Numbered.self, from: json)
      let decimal = try JSONAPIDecoder().decode(Counted.self, from: json)
      #expect(number.id == 2 && decimal.id == Decimal(2))
    },
    LenientCase("collection and included ids 2 and 3") {
      let people = try JSONAPIDecoder().decode(
        [Person].self,
        from: data(
          #"{"data": [{"type": "people", "id": 2}, {"type": "people", "id": "3"}], "#
            + #""included": [{"type": "people", "id": 4}]}"#))
      #expect(people.map(\.id) == ["2", "3"])
      let included = try JSONAPIDecoder().decodeIncluded(
        Person.self, ofType: "people",
        from: data(#"{"data": [], "included": [{"type": "people", "id": 4}]}"#))
      #expect(included.map(\.id) == ["4"])
    },
    LenientCase("linkage id 9 resolves to included \"9\" (R116)") {
      let article = try JSONAPIDecoder().decode(
        Article.self,
        from: data(
          #"{"data": {"type": "articles", "id": 1, "relationships": {"author": {"data": "#
            + #"{"type": "people", "id": 9}}}}, "included": [{"type": "people", "id": "9", "#
            + #""attributes": {"name": "Dan"}}]}"#))
      #expect(article.id == "1")
      #expect(article.author == Person(id: "9", name: "Dan"))
    },
    LenientCase("linkage id \"9\" resolves to included 9") {
      let article = try JSONAPIDecoder().decode(
        Article.self,
        from: data(
          #"{"data": {"type": "articles", "id": "1", "relationships": {"author": {"data": "#
            + #"{"type": "people", "id": "9"}}}}, "included": [{"type": "people", "id": 9, "#
            + #""attributes": {"name": "Dan"}}]}"#))
      #expect(article.author == Person(id: "9", name: "Dan"))
    },
    LenientCase("escaped linkage id \"\\u0039\" resolves to included 9") {
      let article = try JSONAPIDecoder().decode(
        Article.self,
        from: data(
          #"{"data": {"type": "articles", "id": "1", "relationships": {"author": {"data": "#
            + #"{"type": "people", "id": "\u0039"}}}}, "included": [{"type": "people", "#
            + #""id": 9, "attributes": {"name": "Dan"}}]}"#))
      #expect(article.author?.name == "Dan")
    },
    LenientCase("linkage past 2^53 resolves digit for digit") {
      // Through Double, 9007199254740993 would be 9007199254740992: the other person.
      let article = try JSONAPIDecoder().decode(
        Article.self,
        from: data(
          #"{"data": {"type": "articles", "id": "1", "relationships": {"author": {"data": "#
            + #"{"type": "people", "id": 9007199254740993}}}}, "included": [{"type": "people", "#
            + #""id": "9007199254740992", "attributes": {"name": "Other"}}, {"type": "people", "#
            + #""id": "9007199254740993", "attributes": {"name": "Dan"}}]}"#))
      #expect(article.author == Person(id: "9007199254740993", name: "Dan"))
    },
    LenientCase("to-many linkage of integer ids resolves in order") {
      let tagged = try JSONAPIDecoder().decode(
        Tagged.self,
        from: data(
          #"{"data": {"type": "posts", "id": "1", "relationships": {"tags": {"data": "#
            + #"[{"type": "people", "id": 2}, {"type": "people", "id": 3}]}}}, "included": "#
            + #"[{"type": "people", "id": "3", "attributes": {"name": "C"}}, {"type": "people", "#
            + #""id": 2, "attributes": {"name": "B"}}]}"#))
      #expect(tagged.tags == [Person(id: "2", name: "B"), Person(id: "3", name: "C")])
    },
    LenientCase("linkage to a resource not included keeps id 9 as \"9\" (R33)") {
      let article = try JSONAPIDecoder().decode(
        Article.self,
        from: data(
          #"{"data": {"type": "articles", "id": "1", "relationships": {"author": {"data": "#
            + #"{"type": "people", "id": 9}}}}}"#))
      #expect(article.author == Person(id: "9", name: nil))
    },
    LenientCase("relationship endpoint: an identifier with id 2 (R11)") {
      let identifier = try JSONAPIDecoder().decode(
        JSONAPIResourceIdentifier.self, from: data(#"{"data": {"id": 2, "type": "people"}}"#))
      #expect(identifier == JSONAPIResourceIdentifier(type: "people", id: "2"))
    },
    LenientCase("relationship endpoint: identifiers with ids 2 and \"3\"") {
      let identifiers = try JSONAPIDecoder().decode(
        [JSONAPIResourceIdentifier].self,
        from: data(#"{"data": [{"type": "tags", "id": 2}, {"type": "tags", "id": "3"}]}"#))
      #expect(identifiers.map(\.id) == ["2", "3"])
    },
    LenientCase("JSONAPIResourceIdentifier property reads linkage id 7 as \"7\"") {
      let citation = try JSONAPIDecoder().decode(
        Citation.self,
        from: data(
          #"{"data": {"type": "citations", "id": 1, "relationships": {"source": {"data": "#
            + #"{"type": "books", "id": 7}}}}}"#))
      #expect(citation.id == "1")
      #expect(citation.source == JSONAPIResourceIdentifier(type: "books", id: "7"))
    },
    LenientCase("error messages name the resource by its digits") {
      struct Strict: Decodable { var id: String, title: String }
      let error = thrownError {
        try JSONAPIDecoder().decode(
          Strict.self, from: data(#"{"data": {"type": "articles", "id": 12}}"#))
      }
      guard case .keyNotFound(_, let context) = error as? DecodingError else {
        Issue.record("expected keyNotFound, got \(String(describing: error))")
        return
      }
      #expect(context.debugDescription.contains("articles/12"))
    },
    LenientCase("atomic ref id 9 (R102)") {
      let operations = try JSONAPIDecoder().decodeOperations(
        from: data(
          #"{"atomic:operations": [{"op": "remove", "ref": {"type": "people", "id": 9}}]}"#))
      #expect(operations.first?.ref == JSONAPIOperationReference(type: "people", id: "9"))
    },
    LenientCase("atomic results: integer and string ids resolve across results (R111)") {
      let results = try JSONAPIDecoder().decode(
        [JSONAPIOperationResult].self,
        from: data(
          #"{"atomic:results": [{"data": {"type": "people", "id": 9, "attributes": "#
            + #"{"name": "Dan"}}}, {"data": {"type": "articles", "id": 1, "relationships": "#
            + #"{"author": {"data": {"type": "people", "id": "9"}}}}}]}"#))
      #expect(try results[0].decode(Person.self) == Person(id: "9", name: "Dan"))
      let article = try results[1].decode(Article.self)
      #expect(article.id == "1" && article.author == Person(id: "9", name: "Dan"))
    },
    LenientCase("atomic operations: a later operation's id 9 names an earlier \"9\"") {
      let operations = try JSONAPIDecoder().decodeOperations(
        from: data(
          #"{"atomic:operations": [{"op": "add", "data": {"type": "people", "id": "9", "#
            + #""attributes": {"name": "Dan"}}}, {"op": "add", "data": {"type": "articles", "#
            + #""lid": "a1", "relationships": {"author": {"data": {"type": "people", "id": 9}}}}}]}"#
        ))
      #expect(try operations[1].decode(Article.self).author == Person(id: "9", name: "Dan"))
    },
    LenientCase("atomic relationship operation data: identifier id 5") {
      let operations = try JSONAPIDecoder().decodeOperations(
        from: data(
          #"{"atomic:operations": [{"op": "add", "ref": {"type": "articles", "id": 1, "#
            + #""relationship": "tags"}, "data": [{"type": "tags", "id": 5}]}]}"#))
      #expect(
        operations.first?.ref
          == JSONAPIOperationReference(type: "articles", id: "1", relationship: "tags"))
      #expect(
        try operations.first?.decode([JSONAPIResourceIdentifier].self)
          == [JSONAPIResourceIdentifier(type: "tags", id: "5")])
    },
  ]

  @Test(arguments: integerIDCases)
  func integerIDReadsAsItsDigits(_ row: LenientCase) throws {
    try row.check()
  }

  // MARK: - Still refused

  static func decodesArticle(_ decoder: JSONAPIDecoder, _ data: Data) throws {
    _ = try decoder.decode(Article.self, from: data)
  }

  static let refusedCases: [RefusedCase] = [
    RefusedCase(
      name: "id 1.5 (R14)", json: #"{"data": {"type": "people", "id": 1.5}}"#,
      decode: decodesArticle, pointer: "/data/id",
      reason: "id must be a string, found the number 1.5"),
    RefusedCase(
      name: "id 1e3 in linkage (R35)",
      json:
        #"{"data": {"type": "articles", "id": "1", "relationships": {"author": {"data": "#
        + #"{"type": "people", "id": 1e3}}}}}"#,
      decode: decodesArticle, pointer: "/data/relationships/author/data/id",
      reason: "found the number 1e3; an integer id such as 2 is read as the string \"2\""),
    RefusedCase(
      name: "id 2.0 in included (R14)",
      json:
        #"{"data": {"type": "articles", "id": "1"}, "included": [{"type": "people", "id": 2.0}]}"#,
      decode: decodesArticle, pointer: "/included/0/id",
      reason: "found the number 2.0"),
    RefusedCase(
      name: "id 2.5 at a relationship endpoint (R35)",
      json: #"{"data": {"type": "people", "id": 2.5}}"#,
      decode: { _ = try $0.decode(JSONAPIResourceIdentifier.self, from: $1) },
      pointer: "/data/id", reason: "document-resource-object-identification"),
    RefusedCase(
      name: "id 7.5 in a JSONAPIResourceIdentifier property (R35)",
      json:
        #"{"data": {"type": "citations", "id": "1", "relationships": {"source": {"data": "#
        + #"{"type": "books", "id": 7.5}}}}}"#,
      decode: { _ = try $0.decode(Citation.self, from: $1) },
      pointer: "/data/relationships/source/data/id",
      reason: "id must be a string, found the number 7.5"),
    RefusedCase(
      name: "id 2.5 into an Int model",
      json: #"{"data": {"type": "people", "id": 2.5}}"#,
      decode: { _ = try $0.decode(Numbered.self, from: $1) }, pointer: "/data/id",
      reason: "found the number 2.5"),
    RefusedCase(
      name: "lid 5 stays a string (R13, R14)",
      json: #"{"data": {"type": "people", "lid": 5}}"#, decode: decodesArticle,
      pointer: "/data/lid", reason: "lid must be a string, found the number 5"),
    RefusedCase(
      name: "type 7 (R14)", json: #"{"data": {"type": 7, "id": "1"}}"#, decode: decodesArticle,
      pointer: "/data/type", reason: "type must be a string, found the number 7"),
    RefusedCase(
      name: "type null (R12)", json: #"{"data": {"type": null, "id": "1"}}"#,
      decode: decodesArticle, pointer: "/data/type", reason: "type must be a string, found null"),
    RefusedCase(
      name: "linkage id null, no lid (R34)",
      json:
        #"{"data": {"type": "articles", "id": "1", "relationships": {"author": {"data": "#
        + #"{"type": "people", "id": null}}}}}"#,
      decode: decodesArticle, pointer: "/data/relationships/author/data",
      reason: "a resource identifier must have an id or a lid"),
    RefusedCase(
      name: "relationship object null (R24; empty or not provided? R32)",
      json: #"{"data": {"type": "articles", "id": "1", "relationships": {"author": null}}}"#,
      decode: decodesArticle, pointer: "/data/relationships/author",
      reason: "a relationship must be an object, found null"),
    RefusedCase(
      name: "attributes an array (R21)", json: #"{"data": {"type": "a", "attributes": []}}"#,
      decode: decodesArticle, pointer: "/data/attributes",
      reason: "attributes must be an object, found an array"),
    RefusedCase(
      name: "meta null as the only member (R2)", json: #"{"meta": null}"#,
      decode: { _ = try $0.decode(JSONAPIDocument<Article?, JSONAPIValue>.self, from: $1) },
      pointer: nil, reason: "none of data, errors and meta"),
    RefusedCase(
      name: "data null beside errors (R3: data null is primary data)",
      json: #"{"data": null, "errors": [{"status": "500"}]}"#, decode: decodesArticle,
      pointer: "", reason: "must not contain both data and errors"),
    RefusedCase(
      name: "an included resource null (R37)",
      json: #"{"data": [], "included": [null]}"#,
      decode: { _ = try $0.decode([Article].self, from: $1) }, pointer: "/included/0",
      reason: "expected a resource object, found null"),
    RefusedCase(
      name: "integer and string id of one resource in included (R40)",
      json:
        #"{"data": [], "included": [{"type": "people", "id": 2}, {"type": "people", "id": "2"}]}"#,
      decode: { _ = try $0.decode([Article].self, from: $1) }, pointer: "/included/1",
      reason: "people/2"),
    RefusedCase(
      name: "atomic: result meta an array (R43)",
      json: #"{"atomic:results": [{"meta": []}]}"#,
      decode: { _ = try $0.decode([JSONAPIOperationResult].self, from: $1) },
      pointer: "/atomic:results/0/meta", reason: "meta must be an object, found an array"),
    RefusedCase(
      name: "atomic: a result null (R109)", json: #"{"atomic:results": [null]}"#,
      decode: { _ = try $0.decode([JSONAPIOperationResult].self, from: $1) },
      pointer: "/atomic:results/0", reason: "must be an object, found null"),
    RefusedCase(
      name: "atomic: top-level data null (R99)",
      json: #"{"atomic:results": [{}], "data": null}"#,
      decode: { _ = try $0.decode([JSONAPIOperationResult].self, from: $1) }, pointer: "/data",
      reason: "must not contain data"),
    RefusedCase(
      name: "atomic: op null (R101)", json: #"{"atomic:operations": [{"op": null}]}"#,
      decode: { _ = try $0.decodeOperations(from: $1) }, pointer: "/atomic:operations/0/op",
      reason: "an operation needs op"),
    RefusedCase(
      name: "atomic: ref id 1e3 (R102)",
      json: #"{"atomic:operations": [{"op": "remove", "ref": {"type": "a", "id": 1e3}}]}"#,
      decode: { _ = try $0.decodeOperations(from: $1) }, pointer: "/atomic:operations/0/ref/id",
      reason: "id must be a string, found the number 1e3"),
    RefusedCase(
      name: "atomic: ref type null (R102)",
      json: #"{"atomic:operations": [{"op": "remove", "ref": {"type": null, "id": "1"}}]}"#,
      decode: { _ = try $0.decodeOperations(from: $1) },
      pointer: "/atomic:operations/0/ref/type", reason: "type must be a string, found null"),
    RefusedCase(
      name: "atomic: ref id null without lid (R102)",
      json: #"{"atomic:operations": [{"op": "remove", "ref": {"type": "a", "id": null}}]}"#,
      decode: { _ = try $0.decodeOperations(from: $1) }, pointer: "/atomic:operations/0/ref",
      reason: "ref needs exactly one of id and lid"),
    RefusedCase(
      name: "atomic: ref lid 5 (R102)",
      json: #"{"atomic:operations": [{"op": "remove", "ref": {"type": "a", "lid": 5}}]}"#,
      decode: { _ = try $0.decodeOperations(from: $1) }, pointer: "/atomic:operations/0/ref/lid",
      reason: "lid must be a string, found the number 5"),
    RefusedCase(
      name: "atomic: remove whose only target is null (R106)",
      json: #"{"atomic:operations": [{"op": "remove", "href": null}]}"#,
      decode: { _ = try $0.decodeOperations(from: $1) }, pointer: "/atomic:operations/0",
      reason: "a remove operation needs ref or href"),
  ]

  @Test(arguments: refusedCases)
  func stillRefused(_ row: RefusedCase) throws {
    let error = thrownError { try row.decode(JSONAPIDecoder(), Data(row.json.utf8)) }
    switch (error as? JSONAPIError, row.pointer) {
    case (.invalidDocument(let reason, let pointer)?, let expected?):
      #expect(pointer == expected)
      #expect(reason.contains(row.reason), "\(reason)")
    case (.duplicateResource(let type, let id, let pointer)?, let expected?):
      #expect(pointer == expected)
      #expect("\(type)/\(id)" == row.reason)
    case (.notADocument(let reason)?, nil):
      #expect(reason.contains(row.reason), "\(reason)")
    default:
      Issue.record("expected the documented error, got \(String(describing: error))")
    }
  }

  @Test func fractionalIDMessageSaysIDsAreStringsAndCitesTheSpecification() throws {
    let error = thrownError {
      try JSONAPIDecoder().decode(Person.self, from: #"{"data": {"type": "people", "id": 1.5}}"#)
    }
    guard case .invalidDocument(let reason, _) = error as? JSONAPIError else {
      Issue.record("expected invalidDocument, got \(String(describing: error))")
      return
    }
    #expect(
      reason
        == "id must be a string, found the number 1.5; an integer id such as 2 is read as the "
        + "string \"2\", a number with a fraction or an exponent is not an id (see "
        + "https://jsonapi.org/format/#document-resource-object-identification)")
  }

  @Test func otherDecodersReadIdentifierIDsAsStringsOnly() throws {
    // Only JSONAPIDecoder sees a number's source text; through JSONDecoder an integer id would
    // pass through a binary number, so JSONAPIResourceIdentifier keeps R35 there.
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(
        JSONAPIResourceIdentifier.self, from: Data(#"{"type": "people", "id": 2}"#.utf8))
    }
    #expect(
      try JSONDecoder().decode(
        JSONAPIResourceIdentifier.self,
        from: Data(#"{"type": "people", "id": "2", "meta": null}"#.utf8))
        == JSONAPIResourceIdentifier(type: "people", id: "2"))
  }

  @Test func errorCodePast32BitsReadsAsItsDigits() throws {
    // R93 wants a string, R119 reads a number leniently: as Int64, so that a code past 2^31
    // reads the same on 32-bit platforms (watchOS), where Int would not hold it.
    let errors = try JSONAPIDecoder().decodeErrors(
      JSONAPIErrorObject.self,
      from: Data(#"{"errors": [{"code": 3000000000, "status": 422, "id": null}]}"#.utf8))
    #expect(errors == [JSONAPIErrorObject(status: "422", code: "3000000000")])
  }

  @Test func theTablesCoverEveryPlace() {
    #expect(Self.nullCases.count >= 30)
    #expect(Self.integerIDCases.count >= 18)
    #expect(Self.refusedCases.count >= 25)
    let names = (Self.nullCases + Self.integerIDCases).map(\.name) + Self.refusedCases.map(\.name)
    #expect(Set(names).count == names.count)
  }
}
