/// The relationship paths a request asked to include (`author`, `comments.author`), as a tree of
/// relationship names: node ``root`` stands for the primary data, and each requested name leads to
/// the node whose children may be followed next. Built once per encode call, in time linear in the
/// paths' length.
struct IncludeTree: Sendable, Hashable {
  /// The node of the primary data.
  static let root = 0
  /// Each node's children by relationship name; index ``root`` first.
  private var children: [[String: Int]] = [[:]]

  /// The tree of `paths`; empty names (`a..b`) lead nowhere, as no relationship has them.
  init(paths: [String]) {
    for path in paths {
      var node = Self.root
      for name in path.split(separator: ".", omittingEmptySubsequences: false) {
        let key = String(name)
        if let next = children[node][key] {
          node = next
        } else {
          children.append([:])
          children[node][key] = children.count - 1
          node = children.count - 1
        }
      }
    }
  }

  /// The node reached from `node` through relationship `name`, or `nil` when it was not requested.
  func child(of node: Int, named name: String) -> Int? {
    children[node][name]
  }
}
