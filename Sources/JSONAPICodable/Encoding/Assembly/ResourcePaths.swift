/// The paths of the resources one document's assembly takes apart, kept in one table: a resource's
/// path is one step (a member name or an element index) under the path of the resource or
/// relationship it was met in.
///
/// Queueing a related resource then allocates nothing: its path is a ``Step`` under a row, which
/// becomes a row itself only when the resource is taken apart (copies dropped unread cost
/// nothing), and the table is freed at once at the end. With a node per resource, a chain of 60
/// related resources kept 60 nodes alive through their parents and freed them together at the
/// end, cold. Primary resources need no row, and an
/// ``EncodingPath`` is built only for an error.
final class ResourcePaths {
  /// A path in the table, or the document or one of its primary resources.
  struct Index {
    /// A row; -1 for the document; -2 - n for element n of the primary data.
    fileprivate let row: Int
  }

  /// One step under a path: member `name`, or element `element` when it is not negative.
  struct Step {
    fileprivate let parent: Index
    fileprivate let name: String
    fileprivate let element: Int

    /// Member `name` of the object at `parent`.
    static func member(_ name: String, of parent: Index) -> Step {
      Step(parent: parent, name: name, element: -1)
    }

    /// Element `element` of the array at `parent`.
    static func element(_ element: Int, of parent: Index) -> Step {
      Step(parent: parent, name: "", element: element)
    }

    /// The step as an error's path spells it.
    fileprivate var pathStep: EncodingPath.Step {
      element >= 0 ? .index(element) : .member(name)
    }
  }

  /// The document itself.
  static let topLevel = Index(row: -1)

  /// Element `element` of the primary data.
  static func primary(_ element: Int) -> Index {
    Index(row: -2 - element)
  }

  // Confined to one encode call on one thread: no dynamic exclusivity checks needed.
  @exclusivity(unchecked) private var rows: [Step] = []

  /// `step` as a row of the table, so that paths can go on from it.
  func row(_ step: Step) -> Index {
    rows.append(step)
    return Index(row: rows.count - 1)
  }

  /// The path at member `name` of the resource or object at `parent`.
  func appending(_ name: String, to parent: Index) -> Index {
    row(.member(name, of: parent))
  }

  /// The path `index` as errors name it.
  func path(_ index: Index) -> EncodingPath {
    var steps: [EncodingPath.Step] = []
    var row = index.row
    // Parents come before their rows, so this ends.
    while row >= 0 {
      steps.append(rows[row].pathStep)
      row = rows[row].parent.row
    }
    if row <= -2 { steps.append(.index(-2 - row)) }
    return EncodingPath(steps.reversed())
  }

  /// The path `step` leads to, as errors name it.
  func path(_ step: Step) -> EncodingPath {
    path(step.parent).appending(step.pathStep)
  }
}
