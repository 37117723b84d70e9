// swift-tools-version:6.2
import PackageDescription

// A JSONAPITransport over AsyncHTTPClient, for servers that talk to JSON:API servers. It is a
// package of its own so that the library's package keeps zero dependencies; copy it into your
// project or depend on it by path. Tools version 6.2: AsyncHTTPClient 1.37.0 needs it.
let package = Package(
  name: "AsyncHTTPClientTransport",
  // The library's own floor (a package may not go below the floor of a package it depends on);
  // AsyncHTTPClient 1.37.0 declares none and needs only macOS 10.15, iOS 13, tvOS 13, watchOS 6.
  platforms: [
    .macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1),
  ],
  products: [
    .library(name: "JSONAPIAsyncHTTPClient", targets: ["JSONAPIAsyncHTTPClient"])
  ],
  dependencies: [
    .package(name: "JSONAPICodable", path: "../.."),
    .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    // Named because the transport uses its types (ByteBuffer, HTTPHeaders); AsyncHTTPClient
    // 1.37.0 asks for the same lower bound.
    .package(url: "https://github.com/apple/swift-nio.git", from: "2.100.0"),
    // The bounds probe of the integration suite (Scripts/bounds.sh --probe).
    .package(name: "IntegrationTests", path: "../../IntegrationTests"),
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
