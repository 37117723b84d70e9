// swift-tools-version:6.1
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

// JSONAPICodable in Hummingbird 2: JSONAPIHummingbird serves a JSONAPIServer (the server from
// declared resources) as Hummingbird routes; JSONAPIHummingbirdCoders makes the coders
// Hummingbird's response encoder and request decoder, for apps that write their own routes.
// Its own tests cover authentication; the apps that use it (Examples/HummingbirdServer,
// Examples/TrackerServer) test the rest.
let package = Package(
  name: "JSONAPIHummingbird",
  // Hummingbird 2 needs macOS 14; the library's own floor is lower.
  platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .visionOS(.v1)],
  products: [
    .library(name: "JSONAPIHummingbird", targets: ["JSONAPIHummingbird"]),
    .library(name: "JSONAPIHummingbirdCoders", targets: ["JSONAPIHummingbirdCoders"]),
  ],
  dependencies: [
    sibling("JSONAPICodable", at: "../..", from: "0.9.0"),
    // The swift-configuration support is not used here: leaving the trait out builds less.
    .package(
      url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1",
      traits: ["FullFoundation"]),
    // For the glue (header fields, its channel handler): the versions Hummingbird asks for.
    .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
    .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.0"),
    .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.34.1"),
  ],
  targets: [
    .target(
      name: "JSONAPIHummingbird",
      dependencies: [
        .product(name: "JSONAPIServer", package: "JSONAPICodable"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdCore", package: "hummingbird"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
      ]
    ),
    .target(
      name: "JSONAPIHummingbirdCoders",
      dependencies: [
        .product(name: "JSONAPICodable", package: "JSONAPICodable"),
        .product(name: "Hummingbird", package: "hummingbird"),
      ]
    ),
    .testTarget(
      name: "JSONAPIHummingbirdTests",
      dependencies: [
        "JSONAPIHummingbird",
        .product(name: "JSONAPIServer", package: "JSONAPICodable"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdTesting", package: "hummingbird"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
