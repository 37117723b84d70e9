/// A related resource met in a relationship, waiting to be turned into an included resource.
struct PendingResource {
  let object: EncodedObject
  /// Where the resource was met, such as `[0].comments[1].author`.
  let path: EncodingPath
  /// The node of the requested include paths it was reached at (``IncludeTree/root`` when every
  /// related resource is included).
  var includeNode = IncludeTree.root
}
