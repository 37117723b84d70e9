// swift-tools-version:6.1
import PackageDescription

// A JSONAPIStore on SQLite (GRDB) that serves any declared resource: a package of its own so that
// the library keeps zero dependencies.
let package = Package(
  name: "JSONAPISQLiteStore",
  platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .visionOS(.v1)],
  products: [
    .library(name: "JSONAPISQLiteStore", targets: ["JSONAPISQLiteStore"])
  ],
  dependencies: [
    .package(name: "JSONAPICodable", path: "../.."),
    .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    .package(name: "JSONAPISQLStoreKit", path: "../JSONAPISQLStoreKit"),
  ],
  targets: [
    .target(
      name: "JSONAPISQLiteStore",
      dependencies: [
        .product(name: "JSONAPICodable", package: "JSONAPICodable"),
        .product(name: "JSONAPISQLStoreKit", package: "JSONAPISQLStoreKit"),
        .product(name: "GRDB", package: "GRDB.swift"),
      ]
    ),
    .testTarget(
      name: "JSONAPISQLiteStoreTests",
      dependencies: [
        "JSONAPISQLiteStore",
        .product(name: "JSONAPICodable", package: "JSONAPICodable"),
        .product(name: "GRDB", package: "GRDB.swift"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
