// swift-tools-version:6.0
import PackageDescription

// The integration suite: JSONAPIClient against a real JSON:API server (djangorestframework-jsonapi,
// IntegrationTests/server). Kept out of the root package so `swift test` needs no Python; run it
// with Scripts/integration.sh, which starts the server first.
let package = Package(
  name: "IntegrationTests",
  // The library's own floor, so that an Apple build sees the same availability.
  platforms: [
    .macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1),
  ],
  dependencies: [.package(name: "JSONAPICodable", path: "..")],
  targets: [
    .executableTarget(
      name: "IntegrationSuite",
      dependencies: [
        .product(name: "JSONAPICodable", package: "JSONAPICodable"),
        .product(name: "JSONAPINetworking", package: "JSONAPICodable"),
      ]
    )
  ],
  swiftLanguageModes: [.v6]
)
