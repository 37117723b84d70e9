// swift-tools-version:6.1
import PackageDescription

// A page of a type with a visibility policy against the same page without one, on the SQLite
// store: statements per request and time per request. Its own package, so that nothing else
// resolves GRDB for it. Run from the repository root:
//   swift run -c release --package-path Benchmarks/SQLiteVisibility SQLiteVisibilityBenchmark
let package = Package(
  name: "SQLiteVisibilityBenchmark",
  platforms: [.macOS(.v14)],
  dependencies: [
    .package(name: "JSONAPICodable", path: "../.."),
    .package(name: "JSONAPISQLiteStore", path: "../../Integrations/JSONAPISQLiteStore"),
  ],
  targets: [
    .executableTarget(
      name: "SQLiteVisibilityBenchmark",
      dependencies: [
        .product(name: "JSONAPIServer", package: "JSONAPICodable"),
        .product(name: "JSONAPISQLiteStore", package: "JSONAPISQLiteStore"),
      ]
    )
  ],
  swiftLanguageModes: [.v6]
)
