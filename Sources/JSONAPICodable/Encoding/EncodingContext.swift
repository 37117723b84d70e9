/// State shared by every encoder of one `encode` call: the settings snapshot and caches.
final class EncodingContext {
  let options: EncodingOptions
  let userInfo: [CodingUserInfoKey: Any]
  let traitsCache: EncodingTypeTraitsCache
  let keys: KeyEncodingConverter
  /// Where the primary data's elements go as they are encoded; `nil` where a caller assembles the
  /// tree itself (atomic operations).
  let stream: PrimaryDataStream?

  init(options: EncodingOptions, stream: PrimaryDataStream?, traits: EncodingTypeTraitsCache) {
    self.options = options
    traitsCache = traits
    self.stream = stream
    self.userInfo = options.userInfo
    keys = KeyEncodingConverter(strategy: options.keyEncodingStrategy)
  }
}
