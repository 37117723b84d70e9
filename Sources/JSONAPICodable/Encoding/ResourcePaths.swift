/// The paths of the resources one document's assembly takes apart, kept in one table: a resource's
/// path is one step (a member name or an element index) under the path of the resource or
/// relationship it was met in.
///
/// Queueing a related resource then appends a row instead of allocating a path node, and the
/// table is freed at once at the end: with a node per resource, a chain of 60 related resources
/// kept 60 nodes alive through their parents and freed them together at the end, cold
/// (11% of encoding 100 000 resources in chains). An ``EncodingPath`` is built only for an error.
final class ResourcePaths {
  /// A path in the table.
  struct Index {
    fileprivate let row: Int
  }

  /// The document itself.
  static let topLevel = Index(row: -1)

  /// One step: member `name`, or element `element` when it is not negative, under row `parent`.
  private struct Row {
    let name: String
    let element: Int
    let parent: Int
  }

  // Confined to one encode call on one thread: no dynamic exclusivity checks needed.
  @exclusivity(unchecked) private var rows: [Row] = []

  /// The path at member `name` of the resource or object at `parent`.
  func appending(_ name: String, to parent: Index) -> Index {
    append(Row(name: name, element: -1, parent: parent.row))
  }

  /// The path at element `element` of the array at `parent`.
  func appending(element: Int, to parent: Index) -> Index {
    append(Row(name: "", element: element, parent: parent.row))
  }

  private func append(_ row: Row) -> Index {
    rows.append(row)
    return Index(row: rows.count - 1)
  }

  /// The path `index` as errors name it.
  func path(_ index: Index) -> EncodingPath {
    var steps: [EncodingPath.Step] = []
    var row = index.row
    while row >= 0 {
      let step = rows[row]
      steps.append(step.element >= 0 ? .index(step.element) : .member(step.name))
      row = step.parent
    }
    return EncodingPath(steps.reversed())
  }
}
