import AsyncHTTPClient
import BoundsProbeKit
import Foundation
import JSONAPIAsyncHTTPClient

/// The bounds probe of the integration suite, run over `AsyncHTTPClientTransport` with the
/// configuration its documentation recommends. The arguments and the exit code are
/// BoundsProbeKit's.
@main enum AHCBoundsProbe {
  static func main() async {
    let httpClient = HTTPClient(
      eventLoopGroup: HTTPClient.defaultEventLoopGroup,
      configuration: AsyncHTTPClientTransport.recommendedConfiguration())
    var code = await runBoundsProbe(
      transport: AsyncHTTPClientTransport(client: httpClient),
      arguments: Array(CommandLine.arguments.dropFirst()))
    do {
      try await httpClient.shutdown()
    } catch {
      let message = "AHCBoundsProbe: shutting the HTTP client down failed: \(error)\n"
      FileHandle.standardError.write(Data(message.utf8))
      if code == 0 { code = 1 }
    }
    exit(code)
  }
}
