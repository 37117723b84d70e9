/// The elements of an array, written before the array itself: each a range of ``bytes``, in order,
/// written at ``JSONWriter/includedElementLevel`` (a document's `included`, so pretty-printed
/// output indents them as it would have).
final class PrewrittenElements {
  /// Where the elements were written; a range can appear more than once.
  let bytes: OutputBuffer
  let ranges: [Range<Int>]

  init(bytes: OutputBuffer, ranges: [Range<Int>]) {
    self.bytes = bytes
    self.ranges = ranges
  }
}
