import Foundation

/// A random resource graph: libraries (primary data) and members, linked by curator, members,
/// friends (often mutual, so cyclic) and a member's back-reference to a library.
///
/// Swift values cannot be cyclic, so ``decodedLibraries()`` builds the values the way the decoder reads
/// the graph: depth first from each primary library, and a resource met again while it is still
/// being built above is given as its identifier alone (optional fields `nil`). That is the
/// decoder's cycle rule (decoder-semantics: "Cycles"), so `decode(encode(x)) == x` must hold.
struct LibraryGraph {
  struct LibraryNode {
    var library: Library
    var curator: Int?
    var members: [Int]
  }

  struct MemberNode {
    var member: Member
    var friends: [Int]
    var library: Int?
  }

  var libraries: [LibraryNode] = []
  var members: [MemberNode] = []

  init(_ generator: inout Generator) {
    let memberCount = generator.int(0...6)
    let libraryCount = generator.int(1...3)
    for index in 0..<memberCount {
      // Member ids are escape-heavy too: they are matched byte for byte in the index.
      let id = "m\(index)" + (generator.bool(0.3) ? generator.string(maxLength: 3) : "")
      let member = Member(
        id: id, name: generator.optional { $0.string() },
        age: generator.optional { $0.int(-5...150) },
        score: generator.optional { $0.double() })
      let friends = memberCount == 0 ? [] : generator.array(0...2) { $0.int(0...(memberCount - 1)) }
      let library = generator.bool(0.4) ? generator.int(0...(libraryCount - 1)) : nil
      members.append(MemberNode(member: member, friends: friends, library: library))
    }
    // A member listed twice in one to-many would be a duplicate identifier; keep each once.
    for index in members.indices {
      var seen = Set<Int>()
      members[index].friends = members[index].friends.filter { seen.insert($0).inserted }
    }
    for index in 0..<libraryCount {
      var seen = Set<Int>()
      let listed =
        memberCount == 0
        ? []
        : generator.array(0...4) { $0.int(0...(memberCount - 1)) }.filter {
          seen.insert($0).inserted
        }
      let curator =
        memberCount > 0 && generator.bool(0.7) ? generator.int(0...(memberCount - 1)) : nil
      libraries.append(
        LibraryNode(
          library: Self.attributes(id: "lib\(index)", &generator), curator: curator, members: listed
        ))
    }
  }

  private static func attributes(id: String, _ generator: inout Generator) -> Library {
    Library(
      id: id, name: generator.string(), motto: generator.optional { $0.string(maxLength: 30) },
      founded: generator.optional { $0.integer(Int.self) }, rating: generator.double(),
      small: generator.integer(Int8.self), big: generator.integer(UInt64.self),
      negative: generator.integer(Int64.self), ratio: generator.float(),
      flags: generator.array(0...3) { $0.bool() },
      address: generator.optional { generator in
        Library.Address(
          street: generator.string(), zip: generator.optional { $0.string(maxLength: 5) },
          location: generator.array(0...2) { $0.double() })
      },
      shelves: generator.array(0...3) { generator in
        Library.Shelf(
          label: generator.string(), counts: generator.array(0...3) { $0.integer(Int.self) },
          note: generator.optional { $0.string() })
      },
      matrix: generator.array(0...2) { generator in generator.array(0...3) { $0.double() } },
      openings: generator.optional { generator in
        Dictionary(
          generator.array(0...3) { ($0.memberName(), $0.integer(Int.self)) },
          uniquingKeysWith: { first, _ in first })
      },
      curator: nil, members: [])
  }

  /// The primary data as the decoder must read it back.
  func decodedLibraries() -> [Library] {
    libraries.indices.map { index in
      var building = Set<Resource>([.library(index)])
      return library(index, &building)
    }
  }

  private enum Resource: Hashable {
    case library(Int)
    case member(Int)
  }

  private func library(_ index: Int, _ building: inout Set<Resource>) -> Library {
    var value = libraries[index].library
    value.curator = libraries[index].curator.map { member($0, &building) }
    value.members = libraries[index].members.map { member($0, &building) }
    return value
  }

  private func member(_ index: Int, _ building: inout Set<Resource>) -> Member {
    let node = members[index]
    guard building.insert(.member(index)).inserted else {
      return Member(id: node.member.id)  // a cycle: the identifier alone
    }
    defer { building.remove(.member(index)) }
    var value = node.member
    value.friends = node.friends.map { member($0, &building) }
    value.library = node.library.map { libraryIndex in
      let full = libraries[libraryIndex].library
      return building.contains(.library(libraryIndex))
        ? LibraryReference(id: full.id) : LibraryReference(id: full.id, name: full.name)
    }
    return value
  }
}
