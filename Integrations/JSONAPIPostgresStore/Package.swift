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

// A JSONAPIStore on PostgreSQL (postgres-nio), for servers that run as several instances on one
// database. Its tests need a PostgreSQL server: Scripts/postgres.sh starts one (POSTGRES_URL).
let package = Package(
  name: "JSONAPIPostgresStore",
  platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .visionOS(.v1)],
  products: [
    .library(name: "JSONAPIPostgresStore", targets: ["JSONAPIPostgresStore"])
  ],
  dependencies: [
    sibling("JSONAPICodable", at: "../..", from: "0.9.0"),
    sibling("JSONAPISQLStoreKit", at: "../JSONAPISQLStoreKit", from: "0.9.0"),
    // For the tests only: the contract every store keeps (JSONAPIStoreConformance).
    sibling("JSONAPIStoreConformance", at: "../JSONAPIStoreConformance", from: "0.9.0"),
    .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    .package(url: "https://github.com/apple/swift-log.git", from: "1.16.0"),
  ],
  targets: [
    .target(
      name: "JSONAPIPostgresStore",
      dependencies: [
        .product(name: "JSONAPIServer", package: "JSONAPICodable"),
        .product(name: "JSONAPISQLStoreKit", package: "JSONAPISQLStoreKit"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    .testTarget(
      name: "JSONAPIPostgresStoreTests",
      dependencies: [
        "JSONAPIPostgresStore",
        .product(name: "JSONAPIServer", package: "JSONAPICodable"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "JSONAPIStoreConformance", package: "JSONAPIStoreConformance"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
