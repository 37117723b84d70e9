// swift-tools-version:6.1
import PackageDescription

// A JSON:API blog served by Hummingbird over SQLite (GRDB), built from JSONAPICodable's server
// pieces. A package of its own so that the library keeps zero dependencies: see README.md.
let package = Package(
  name: "HummingbirdServer",
  // Hummingbird 2 needs macOS 14; the library's own floor is lower.
  platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .visionOS(.v1)],
  dependencies: [
    .package(name: "JSONAPICodable", path: "../.."),
    // The swift-configuration support is not used here: leaving the trait out builds less.
    .package(
      url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1",
      traits: ["FullFoundation"]),
    .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
  ],
  targets: [
    .executableTarget(
      name: "HummingbirdServer",
      dependencies: [
        .product(name: "JSONAPICodable", package: "JSONAPICodable"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "GRDB", package: "GRDB.swift"),
      ]
    )
  ],
  swiftLanguageModes: [.v6]
)
