/// State shared by every encoder of one `encode` call: the settings snapshot and caches.
final class EncodingContext {
  let options: EncodingOptions
  let userInfo: [CodingUserInfoKey: Any]
  let traitsCache = EncodingTypeTraitsCache()
  let keys: KeyEncodingConverter

  init(options: EncodingOptions) {
    self.options = options
    self.userInfo = options.userInfo
    keys = KeyEncodingConverter(strategy: options.keyEncodingStrategy)
  }
}
