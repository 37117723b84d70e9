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

// A JSONAPIStore on SQLite (GRDB) that serves any declared resource.
let package = Package(
  name: "JSONAPISQLiteStore",
  platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .visionOS(.v1)],
  products: [
    .library(name: "JSONAPISQLiteStore", targets: ["JSONAPISQLiteStore"])
  ],
  dependencies: [
    sibling("JSONAPICodable", at: "../..", from: "0.9.0"),
    sibling("JSONAPISQLStoreKit", at: "../JSONAPISQLStoreKit", from: "0.9.0"),
    // For the tests only: the contract every store keeps (JSONAPIStoreConformance).
    sibling("JSONAPIStoreConformance", at: "../JSONAPIStoreConformance", from: "0.9.0"),
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
  ],
  targets: [
    .target(
      name: "JSONAPISQLiteStore",
      dependencies: [
        .product(name: "JSONAPIServer", package: "JSONAPICodable"),
        .product(name: "JSONAPISQLStoreKit", package: "JSONAPISQLStoreKit"),
        .product(name: "GRDB", package: "GRDB.swift"),
      ]
    ),
    .testTarget(
      name: "JSONAPISQLiteStoreTests",
      dependencies: [
        "JSONAPISQLiteStore",
        .product(name: "JSONAPIServer", package: "JSONAPICodable"),
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "JSONAPIStoreConformance", package: "JSONAPIStoreConformance"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
