/// Where a value sits, for the encoder: the `codingPath` its models see and the place every encoder
/// error names. The one coding-path value of the encoder.
///
/// A linked list from the innermost step outwards, so that going one level down allocates one small
/// node instead of copying an array; `[CodingKey]` and text are built only when someone asks (a
/// model, a custom key strategy, an error being thrown). ``text`` is the one rendering.
package struct EncodingPath {
  /// One step down: a model's coding key, a member of the document (`data`, `errors`, a field), or
  /// an element of an array.
  package enum Step {
    case key(any CodingKey)
    case member(String)
    case index(Int)
  }

  private final class Node {
    let step: Step
    let parent: Node?

    init(step: Step, parent: Node?) {
      self.step = step
      self.parent = parent
    }
  }

  private let last: Node?

  private init(last: Node?) {
    self.last = last
  }

  /// The document or value itself.
  static var topLevel: EncodingPath { EncodingPath(last: nil) }

  /// What ``text`` says for ``topLevel``: a path is never shown empty.
  static let topLevelText = "the top level"

  /// The path with the steps of `steps` added, outermost first.
  package init(_ steps: some Sequence<Step>) {
    var last: Node?
    for step in steps { last = Node(step: step, parent: last) }
    self.last = last
  }

  func appending(_ step: Step) -> EncodingPath {
    EncodingPath(last: Node(step: step, parent: last))
  }

  /// The path at model key `key`; `nil` leaves it where it is (a single-value container's value).
  func appending(_ key: (any CodingKey)?) -> EncodingPath {
    guard let key else { return self }
    return appending(.key(key))
  }

  /// The path at member `name` of the document.
  func appending(_ name: String) -> EncodingPath { appending(.member(name)) }

  /// The path at element `index`.
  func appending(index: Int) -> EncodingPath { appending(.index(index)) }

  /// The steps, outermost first.
  var steps: [Step] {
    var steps: [Step] = []
    var current = last
    while let node = current {
      steps.append(node.step)
      current = node.parent
    }
    return steps.reversed()
  }

  /// The path as `Encoder.codingPath` gives it: document members and indices as ``AnyCodingKey``s.
  var codingPath: [any CodingKey] {
    steps.map { step in
      switch step {
      case .key(let key): return key
      case .member(let name): return AnyCodingKey(name)
      case .index(let index): return AnyCodingKey(index: index)
      }
    }
  }

  /// The path as errors give it, such as `[0].comments[1].author`; ``topLevelText`` when empty.
  var text: String {
    var text = ""
    for step in steps {
      switch step {
      case .key(let key):
        if let index = key.intValue {
          text += "[\(index)]"
        } else {
          text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
        }
      case .member(let name): text += text.isEmpty ? name : ".\(name)"
      case .index(let index): text += "[\(index)]"
      }
    }
    return text.isEmpty ? Self.topLevelText : text
  }
}
