// swift-tools-version:6.0
import PackageDescription

// The integration suite: JSONAPIClient against a real JSON:API server (djangorestframework-jsonapi,
// IntegrationTests/server). Kept out of the root package so `swift test` needs no Python; run it
// with Scripts/integration.sh, which starts the server first.
//
// HummingbirdSuite runs the same kinds of scenarios against Examples/HummingbirdServer (issue 31),
// whose data and endpoints differ; Scripts/hummingbird.sh runs it. Both share IntegrationHarness.
//
// BoundsProbe measures the client's bounds against the hostile server of Scripts/hostile-server.py
// (issue 27): one case per process, peak memory read from /proc. Scripts/bounds.sh runs it. Its
// logic is the library BoundsProbeKit, so that a package with another transport (Examples/) can
// run the same cases by depending on this package by path.
let package = Package(
  name: "IntegrationTests",
  // The library's own floor, so that an Apple build sees the same availability.
  platforms: [
    .macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1),
  ],
  products: [
    .library(name: "BoundsProbeKit", targets: ["BoundsProbeKit"]),
    .executable(name: "IntegrationSuite", targets: ["IntegrationSuite"]),
    .executable(name: "HummingbirdSuite", targets: ["HummingbirdSuite"]),
    .executable(name: "BoundsProbe", targets: ["BoundsProbe"]),
  ],
  dependencies: [.package(name: "JSONAPICodable", path: "..")],
  targets: [
    .target(
      name: "IntegrationHarness",
      dependencies: [
        .product(name: "JSONAPICodable", package: "JSONAPICodable"),
        .product(name: "JSONAPINetworking", package: "JSONAPICodable"),
      ]
    ),
    .executableTarget(
      name: "IntegrationSuite",
      dependencies: [
        "IntegrationHarness",
        .product(name: "JSONAPICodable", package: "JSONAPICodable"),
        .product(name: "JSONAPINetworking", package: "JSONAPICodable"),
      ]
    ),
    .executableTarget(
      name: "HummingbirdSuite",
      dependencies: [
        "IntegrationHarness",
        .product(name: "JSONAPICodable", package: "JSONAPICodable"),
        .product(name: "JSONAPINetworking", package: "JSONAPICodable"),
      ]
    ),
    .target(
      name: "BoundsProbeKit",
      dependencies: [
        .product(name: "JSONAPICodable", package: "JSONAPICodable"),
        .product(name: "JSONAPINetworking", package: "JSONAPICodable"),
      ]
    ),
    .executableTarget(
      name: "BoundsProbe",
      dependencies: [
        "BoundsProbeKit",
        .product(name: "JSONAPINetworking", package: "JSONAPICodable"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
