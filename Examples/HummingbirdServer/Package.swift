// swift-tools-version:6.1
import PackageDescription

// A JSON:API blog served by Hummingbird over SQLite (GRDB), built from JSONAPICodable's server
// pieces. A package of its own so that the library keeps zero dependencies: see README.md.
let package = Package(
  name: "HummingbirdServer",
  // Hummingbird 2 needs macOS 14; the library's own floor is lower.
  platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .visionOS(.v1)],
  dependencies: [
    // The apps depend on the library and its integrations as a user's app does, by product; here
    // by path, since they live in the same repository (see README.md for a dependency by version).
    .package(name: "JSONAPICodable", path: "../.."),
    .package(name: "JSONAPIHummingbird", path: "../../Integrations/JSONAPIHummingbird"),
    .package(name: "JSONAPISQLiteStore", path: "../../Integrations/JSONAPISQLiteStore"),
    .package(name: "JSONAPIPostgresStore", path: "../../Integrations/JSONAPIPostgresStore"),
    .package(
      url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1",
      traits: ["FullFoundation"]),
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
    .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.0"),
    // What the blog needs to connect to PostgreSQL.
    .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.0"),
  ],
  targets: [
    // The blog: declared resources served by the glue from the SQLite store.
    .executableTarget(
      name: "HummingbirdServer",
      dependencies: [
        .product(name: "JSONAPIHummingbird", package: "JSONAPIHummingbird"),
        .product(name: "JSONAPIServer", package: "JSONAPICodable"),
        .product(name: "JSONAPISQLiteStore", package: "JSONAPISQLiteStore"),
        .product(name: "JSONAPIPostgresStore", package: "JSONAPIPostgresStore"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
      ]
    ),
    // A lending library (books, authors, loans) in memory, served through the glue.
    .executableTarget(
      name: "LibraryServer",
      dependencies: [
        .product(name: "JSONAPIHummingbird", package: "JSONAPIHummingbird"),
        .product(name: "JSONAPIServer", package: "JSONAPICodable"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
      ]
    ),
    // What the apps' in-process tests share: a client over HummingbirdTesting and its answers.
    .target(
      name: "GlueTestSupport",
      dependencies: [
        .product(name: "JSONAPIServer", package: "JSONAPICodable"),
        .product(name: "HummingbirdTesting", package: "hummingbird"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "NIOCore", package: "swift-nio"),
      ],
      path: "Tests/GlueTestSupport"
    ),
    .testTarget(
      name: "HummingbirdServerTests",
      dependencies: [
        "HummingbirdServer", "GlueTestSupport",
        .product(name: "JSONAPIHummingbird", package: "JSONAPIHummingbird"),
        .product(name: "JSONAPIServer", package: "JSONAPICodable"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdTesting", package: "hummingbird"),
      ]
    ),
    .testTarget(
      name: "LibraryServerTests",
      dependencies: [
        "LibraryServer", "GlueTestSupport",
        .product(name: "JSONAPIHummingbird", package: "JSONAPIHummingbird"),
        .product(name: "JSONAPIServer", package: "JSONAPICodable"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdTesting", package: "hummingbird"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
