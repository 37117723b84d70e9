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

// The contract every JSONAPIStore keeps, as checks a store's own tests run (as fluent-kit's
// benchmark suite does for its drivers): filters, sorts, windows, scopes, inverses,
// transactions, the write gate, U+0000, to-many linkage. It depends only on JSONAPIServer, so a
// store author adds it to a test target and nothing else; its own tests run it on the memory
// store.
let package = Package(
  name: "JSONAPIStoreConformance",
  platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .visionOS(.v1)],
  products: [
    .library(name: "JSONAPIStoreConformance", targets: ["JSONAPIStoreConformance"])
  ],
  dependencies: [
    sibling("JSONAPICodable", at: "../..", from: "0.9.0")
  ],
  targets: [
    .target(
      name: "JSONAPIStoreConformance",
      dependencies: [.product(name: "JSONAPIServer", package: "JSONAPICodable")]
    ),
    .testTarget(
      name: "JSONAPIStoreConformanceTests",
      dependencies: [
        "JSONAPIStoreConformance",
        .product(name: "JSONAPIServer", package: "JSONAPICodable"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
