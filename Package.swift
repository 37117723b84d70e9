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
  ],
  targets: [
    .target(name: "JSONAPICodable"),
    .target(name: "JSONAPINetworking", dependencies: ["JSONAPICodable", "CJSONAPICurl"]),
    // The system libcurl, loaded at run time on Linux by JSONAPINetworking's LibcurlTransport.
    .target(
      name: "CJSONAPICurl",
      linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]
    ),
    .testTarget(
      name: "JSONAPICodableTests",
      dependencies: ["JSONAPICodable", "ServerExampleKit"],
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
      dependencies: ["JSONAPICodable"],
      path: "Examples/ServerExampleKit"
    ),
    .executableTarget(
      name: "ServerExample",
      dependencies: ["JSONAPICodable", "ServerExampleKit"],
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
