// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "JSONAPICodable",
  platforms: [
    .macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1),
  ],
  products: [
    .library(name: "JSONAPICodable", targets: ["JSONAPICodable"]),
    .library(name: "JSONAPINetworking", targets: ["JSONAPINetworking"]),
    .library(name: "JSONAPIServer", targets: ["JSONAPIServer"]),
  ],
  targets: [
    .target(name: "JSONAPICodable"),
    // The server side: request rules, negotiation, paging for servers, the server built from
    // declared resources, its store protocol and memory store, its OpenAPI description. Apps
    // that only decode and encode never compile it.
    .target(name: "JSONAPIServer", dependencies: ["JSONAPICodable"]),
    .target(name: "JSONAPINetworking", dependencies: ["JSONAPICodable", "CJSONAPICurl"]),
    // The system libcurl, loaded at run time on Linux by JSONAPINetworking's LibcurlTransport.
    .target(
      name: "CJSONAPICurl",
      linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]
    ),
    .testTarget(
      name: "JSONAPICodableTests",
      dependencies: ["JSONAPICodable", "JSONAPIServer", "ServerExampleKit"],
      resources: [.copy("Fixtures")]
    ),
    .testTarget(
      name: "JSONAPINetworkingTests",
      dependencies: ["JSONAPINetworking", "JSONAPICodable"]
    ),
    .executableTarget(
      name: "ClientExample",
      dependencies: ["JSONAPICodable"],
      path: "Examples/ClientExample"
    ),
    .target(
      name: "ServerExampleKit",
      dependencies: ["JSONAPICodable", "JSONAPIServer"],
      path: "Examples/ServerExampleKit"
    ),
    .executableTarget(
      name: "ServerExample",
      dependencies: ["JSONAPICodable", "JSONAPIServer", "ServerExampleKit"],
      path: "Examples/ServerExample"
    ),
    .executableTarget(
      name: "NetworkClientExample",
      dependencies: ["JSONAPICodable", "JSONAPINetworking"],
      path: "Examples/NetworkClientExample"
    ),
  ],
  swiftLanguageModes: [.v6]
)
