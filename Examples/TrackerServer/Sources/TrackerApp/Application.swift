import Hummingbird
import JSONAPIHummingbird
import JSONAPIServer
import TrackerKit

extension Tracker {
  /// The tracker's application: every path to the server behind the bearer authenticator, the
  /// OpenAPI description (with its security scheme) at `/openapi.json`.
  ///
  /// - Throws: `EncodingError` only if the description cannot be written (never here).
  public static func application(server: JSONAPIServer, configuration: ApplicationConfiguration)
    throws -> some ApplicationProtocol
  {
    let description = try server.openAPIDocument(title: "Tracker", version: "1.0.0")
      .secured(by: securityScheme, named: "bearerAuth").jsonData()
    return buildApplication(
      server: server, configuration: configuration, openAPI: description,
      authenticator: authenticator)
  }

  /// ``application(server:configuration:)`` on `port` of 127.0.0.1 (only).
  public static func application(server: JSONAPIServer, port: Int) throws
    -> some ApplicationProtocol
  {
    try application(
      server: server,
      configuration: ApplicationConfiguration(
        address: .hostname("127.0.0.1", port: port), serverName: "TrackerServer"))
  }
}
