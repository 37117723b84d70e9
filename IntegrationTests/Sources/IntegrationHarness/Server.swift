import Foundation

/// The server a suite runs against, read from its command line.
public struct SuiteServer: Sendable {
  /// The API root the suite's clients resolve their paths against.
  public let baseURL: URL
  /// The same server under another origin (`localhost` and the same port), for the checks of
  /// links to another origin.
  public let otherOrigin: URL

  /// Reads the server's URL from the first argument, else `JSONAPI_SERVER_URL`, else `fallback`,
  /// and prints the line that opens the run, naming `server` when given. A URL without a port
  /// prints `usage: <suite> http://127.0.0.1:PORT/` and exits with status 2.
  public static func fromCommandLine(suite: String, fallback: String, server: String? = nil)
    -> SuiteServer
  {
    let address = argument(1, orEnvironment: "JSONAPI_SERVER_URL") ?? fallback
    guard let baseURL = URL(string: address), let port = baseURL.port,
      let otherOrigin = URL(string: "http://localhost:\(port)/")
    else {
      print("usage: \(suite) http://127.0.0.1:PORT/")
      exit(2)
    }
    print("JSONAPIClient against \(baseURL.absoluteString)" + (server.map { " (\($0))" } ?? ""))
    return SuiteServer(baseURL: baseURL, otherOrigin: otherOrigin)
  }
}

/// The command line's argument at `index` (1 is the first after the program), else the value of
/// the environment variable `name`; `nil` when neither is there.
public func argument(_ index: Int, orEnvironment name: String) -> String? {
  let arguments = CommandLine.arguments
  return arguments.indices.contains(index)
    ? arguments[index] : ProcessInfo.processInfo.environment[name]
}
