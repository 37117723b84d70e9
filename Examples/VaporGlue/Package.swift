// swift-tools-version:6.0
import PackageDescription

// JSONAPICodable in Vapor 4: Sources/VaporGlue/JSONAPIVaporServer.swift serves a JSONAPIServer
// (the server from declared resources), and JSONAPIVaporContent.swift makes the coders Vapor's
// content coders for `application/vnd.api+json`; both compiled and tested here against Vapor.
// A package of its own so that the library keeps zero dependencies.
let package = Package(
  name: "VaporGlue",
  platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
  dependencies: [
    .package(name: "JSONAPICodable", path: "../.."),
    .package(url: "https://github.com/vapor/vapor", exact: "4.122.3"),
  ],
  targets: [
    .target(
      name: "VaporGlue",
      dependencies: [
        .product(name: "JSONAPICodable", package: "JSONAPICodable"),
        .product(name: "Vapor", package: "vapor"),
      ]
    ),
    .testTarget(
      name: "VaporGlueTests",
      dependencies: [
        "VaporGlue",
        .product(name: "JSONAPICodable", package: "JSONAPICodable"),
        .product(name: "Vapor", package: "vapor"),
        .product(name: "VaporTesting", package: "vapor"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
