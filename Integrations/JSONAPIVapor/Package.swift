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

// JSONAPICodable in Vapor 4: JSONAPIVaporServer serves a JSONAPIServer (the server from declared
// resources), and JSONAPIVaporContent makes the coders Vapor's content coders for
// `application/vnd.api+json`.
let package = Package(
  name: "JSONAPIVapor",
  platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
  products: [
    .library(name: "JSONAPIVapor", targets: ["JSONAPIVapor"])
  ],
  dependencies: [
    sibling("JSONAPICodable", at: "../..", from: "0.9.0"),
    .package(url: "https://github.com/vapor/vapor", from: "4.122.3"),
  ],
  targets: [
    .target(
      name: "JSONAPIVapor",
      dependencies: [
        .product(name: "JSONAPIServer", package: "JSONAPICodable"),
        .product(name: "Vapor", package: "vapor"),
      ]
    ),
    .testTarget(
      name: "JSONAPIVaporTests",
      dependencies: [
        "JSONAPIVapor",
        .product(name: "JSONAPIServer", package: "JSONAPICodable"),
        .product(name: "Vapor", package: "vapor"),
        .product(name: "VaporTesting", package: "vapor"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
