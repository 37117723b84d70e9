// swift-tools-version:6.2
import Foundation
import PackageDescription

// A package of this repository (JSONAPICodable/Integrations) that can be published on its own.
// In a checkout of the repository it takes its siblings by path; anywhere else, or with
// JSONAPI_RELEASED=1 in the environment, by version from their own repositories.
func sibling(_ name: String, at path: String, from version: Version) -> Package.Dependency {
  let manifest = URL(fileURLWithPath: Context.packageDirectory)
    .appendingPathComponent(path).appendingPathComponent("Package.swift")
  if Context.environment["JSONAPI_RELEASED"] == nil,
    FileManager.default.fileExists(atPath: manifest.path)
  {
    return .package(name: name, path: path)
  }
  return .package(url: "https://github.com/OWNER/\(name).git", from: version)
}


// A JSONAPITransport over AsyncHTTPClient, for servers that talk to JSON:API servers. Tools
// version 6.2: AsyncHTTPClient 1.37.0 needs it.
let package = Package(
  name: "JSONAPIAsyncHTTPClient",
  // The library's own floor (a package may not go below the floor of a package it depends on);
  // AsyncHTTPClient 1.37.0 declares none and needs only macOS 10.15, iOS 13, tvOS 13, watchOS 6.
  platforms: [
    .macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1),
  ],
  products: [
    .library(name: "JSONAPIAsyncHTTPClient", targets: ["JSONAPIAsyncHTTPClient"])
  ],
  dependencies: [
    sibling("JSONAPICodable", at: "../..", from: "0.9.0"),
    .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    // Named because the transport uses its types (ByteBuffer, HTTPHeaders); AsyncHTTPClient
    // 1.37.0 asks for the same lower bound.
    .package(url: "https://github.com/apple/swift-nio.git", from: "2.100.0"),
  ],
  targets: [
    .target(
      name: "JSONAPIAsyncHTTPClient",
      dependencies: [
        .product(name: "JSONAPINetworking", package: "JSONAPICodable"),
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
      ]
    ),
    .testTarget(
      name: "JSONAPIAsyncHTTPClientTests",
      dependencies: [
        "JSONAPIAsyncHTTPClient",
        .product(name: "JSONAPINetworking", package: "JSONAPICodable"),
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)

// The repository's own tools, only in a checkout of it: the bounds probe of the integration
// suite (Scripts/bounds.sh --probe) and a benchmark of the transports against a running server
// (Scripts/bench-transports.sh). A published copy has neither.
if Context.environment["JSONAPI_RELEASED"] == nil,
  FileManager.default.fileExists(atPath: Context.packageDirectory + "/../../IntegrationTests")
{
  package.dependencies.append(.package(name: "IntegrationTests", path: "../../IntegrationTests"))
  package.targets += [
      .executableTarget(
        name: "AHCBoundsProbe",
        dependencies: [
          "JSONAPIAsyncHTTPClient",
          .product(name: "AsyncHTTPClient", package: "async-http-client"),
          .product(name: "BoundsProbeKit", package: "IntegrationTests"),
        ]
      ),
      // A benchmark of the transports against a running server (Scripts/bench-transports.sh).
      .executableTarget(
        name: "TransportBench",
        dependencies: [
          "JSONAPIAsyncHTTPClient",
          .product(name: "JSONAPINetworking", package: "JSONAPICodable"),
          .product(name: "AsyncHTTPClient", package: "async-http-client"),
        ]
      ),
  ]
}
