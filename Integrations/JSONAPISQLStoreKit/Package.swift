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

// What the SQL stores share (JSONAPISQLiteStore, JSONAPIPostgresStore): where each declared type
// lives (tables, columns, join tables), the checks of a record against its table, and the order
// of ids. No database in it.
let package = Package(
  name: "JSONAPISQLStoreKit",
  platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .visionOS(.v1)],
  products: [
    .library(name: "JSONAPISQLStoreKit", targets: ["JSONAPISQLStoreKit"])
  ],
  dependencies: [
    sibling("JSONAPICodable", at: "../..", from: "0.9.0")
  ],
  targets: [
    .target(
      name: "JSONAPISQLStoreKit",
      dependencies: [.product(name: "JSONAPIServer", package: "JSONAPICodable")]
    )
  ],
  swiftLanguageModes: [.v6]
)
