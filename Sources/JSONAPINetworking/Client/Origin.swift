import Foundation

/// A URL's origin (RFC 6454): scheme, host and port, with the scheme's default port filled in.
struct Origin: Hashable, Sendable, CustomStringConvertible {
  let scheme: String
  let host: String
  let port: Int?

  init?(_ url: URL) {
    guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(), !host.isEmpty
    else { return nil }
    self.scheme = scheme
    self.host = host
    switch (url.port, scheme) {
    case (let port?, _): self.port = port
    case (nil, "http"), (nil, "ws"): self.port = 80
    case (nil, "https"), (nil, "wss"): self.port = 443
    default: self.port = nil
    }
  }

  var description: String {
    let defaultPort = (scheme == "http" && port == 80) || (scheme == "https" && port == 443)
    guard let port, !defaultPort else { return "\(scheme)://\(host)" }
    return "\(scheme)://\(host):\(port)"
  }
}
