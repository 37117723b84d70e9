/// A related resource met in a relationship, waiting to be turned into an included resource.
struct PendingResource {
  let object: EncodedObject
  /// Its resource identifier object in the relationship it was met in. It holds the resource's
  /// identifier, worked out once when the relationship was classified: the queue's checks and
  /// taking the resource apart read it instead of looking up `type`, `id` and `lid` again.
  let linkage: ResourceLinkage
  /// Where it was met, such as `[0].comments[1].author`: a step that becomes a row of the
  /// assembly's paths only if the resource is taken apart.
  let path: ResourcePaths.Step
  /// The node of the requested include paths it was reached at (``IncludeTree/root`` when every
  /// related resource is included).
  var includeNode = IncludeTree.root

  var identifier: EncodedResourceIdentifier { linkage.identifier }
}
