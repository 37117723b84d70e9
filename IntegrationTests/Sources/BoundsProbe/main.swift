import BoundsProbeKit
import Foundation
import JSONAPINetworking

// One case of the bounds probe (issue 27) in this process, over the transport `--transport`
// names: `urlsession` (URLSessionTransport.shared, the default) or, on Linux, `libcurl`
// (LibcurlTransport). Scripts/bounds.sh runs every case in a fresh process. The other arguments
// are runBoundsProbe's:
//
//   BoundsProbe --transport urlsession --case honest --base http://127.0.0.1:8080/ --limit 1048576

let arguments = Array(CommandLine.arguments.dropFirst())
#if os(Linux)
  let names = ["urlsession", "libcurl"]
#else
  let names = ["urlsession"]
#endif
let chosen = arguments.firstIndex(of: "--transport").flatMap { index in
  arguments.indices.contains(index + 1) ? arguments[index + 1] : nil
}

let transport: any JSONAPITransport
switch chosen ?? "urlsession" {
case "urlsession":
  transport = URLSessionTransport.shared
#if os(Linux)
  case "libcurl":
    transport = LibcurlTransport()
#endif
default:
  FileHandle.standardError.write(
    Data("unknown --transport; this build has: \(names.joined(separator: ", "))\n".utf8))
  exit(2)
}
// The name goes on to runBoundsProbe, which prints it in its RESULT line.
let withName = chosen == nil ? arguments + ["--transport", "urlsession"] : arguments
exit(await runBoundsProbe(transport: transport, arguments: withName))
