// swift-tools-version:6.1
import PackageDescription

// What the SQL stores share (JSONAPISQLiteStore, and the PostgreSQL store of the
// HummingbirdServer example): where each declared type lives (tables, columns, join tables),
// the checks of a record against its table, and the order of ids. No database in it; a package
// of its own so that JSONAPICodable keeps zero dependencies.
let package = Package(
  name: "JSONAPISQLStoreKit",
  platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .visionOS(.v1)],
  products: [
    .library(name: "JSONAPISQLStoreKit", targets: ["JSONAPISQLStoreKit"])
  ],
  dependencies: [
    .package(name: "JSONAPICodable", path: "../..")
  ],
  targets: [
    .target(
      name: "JSONAPISQLStoreKit",
      dependencies: [.product(name: "JSONAPICodable", package: "JSONAPICodable")]
    )
  ],
  swiftLanguageModes: [.v6]
)
