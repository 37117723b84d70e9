// swift-tools-version:6.1
import PackageDescription

// A JSON:API blog served by Hummingbird over SQLite (GRDB), built from JSONAPICodable's server
// pieces. A package of its own so that the library keeps zero dependencies: see README.md.
let package = Package(
  name: "HummingbirdServer",
  // Hummingbird 2 needs macOS 14; the library's own floor is lower.
  platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .visionOS(.v1)],
  dependencies: [
    .package(name: "JSONAPICodable", path: "../.."),
    // The swift-configuration support is not used here: leaving the trait out builds less.
    .package(
      url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1",
      traits: ["FullFoundation"]),
    .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    .package(name: "JSONAPISQLiteStore", path: "../JSONAPISQLiteStore"),
    .package(name: "JSONAPISQLStoreKit", path: "../JSONAPISQLStoreKit"),
    // For the glue (header fields, its channel handler): the versions Hummingbird asks for.
    .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
    .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.0"),
    .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.34.1"),
    // The PostgreSQL store, and what the blog needs to connect with it.
    .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
    .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.0"),
    .package(url: "https://github.com/apple/swift-log.git", from: "1.16.0"),
  ],
  targets: [
    // The blog: declared resources served by the glue from the SQLite store.
    .executableTarget(
      name: "HummingbirdServer",
      dependencies: [
        "JSONAPIHummingbird",
        .product(name: "JSONAPICodable", package: "JSONAPICodable"),
        .product(name: "JSONAPISQLiteStore", package: "JSONAPISQLiteStore"),
        "JSONAPIPostgresStore",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
      ]
    ),
    // A JSONAPIStore on PostgreSQL (postgres-nio), for servers that run as several instances on
    // one database: the blog uses it when DATABASE_URL is set.
    .target(
      name: "JSONAPIPostgresStore",
      dependencies: [
        .product(name: "JSONAPICodable", package: "JSONAPICodable"),
        .product(name: "JSONAPISQLStoreKit", package: "JSONAPISQLStoreKit"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    // JSONAPIEncoder and JSONAPIDecoder as Hummingbird's response encoder and request decoder,
    // for apps that write their own routes: one file, to be copied into an app.
    .target(
      name: "JSONAPIHummingbirdCoders",
      dependencies: [
        .product(name: "JSONAPICodable", package: "JSONAPICodable"),
        .product(name: "Hummingbird", package: "hummingbird"),
      ]
    ),
    // Hummingbird glue over JSONAPIServer, the framework-free server built from declarations:
    // one file, to be copied into an app.
    .target(
      name: "JSONAPIHummingbird",
      dependencies: [
        .product(name: "JSONAPICodable", package: "JSONAPICodable"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdCore", package: "hummingbird"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
      ]
    ),
    // A lending library (books, authors, loans) in memory, served through the glue.
    .executableTarget(
      name: "LibraryServer",
      dependencies: [
        "JSONAPIHummingbird",
        .product(name: "JSONAPICodable", package: "JSONAPICodable"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
      ]
    ),
    // What the apps' in-process tests share: a client over HummingbirdTesting and its answers.
    .target(
      name: "GlueTestSupport",
      dependencies: [
        .product(name: "JSONAPICodable", package: "JSONAPICodable"),
        .product(name: "HummingbirdTesting", package: "hummingbird"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "NIOCore", package: "swift-nio"),
      ],
      path: "Tests/GlueTestSupport"
    ),
    .testTarget(
      name: "HummingbirdServerTests",
      dependencies: [
        "HummingbirdServer", "JSONAPIHummingbird", "GlueTestSupport",
        .product(name: "JSONAPICodable", package: "JSONAPICodable"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdTesting", package: "hummingbird"),
      ]
    ),
    // Needs a PostgreSQL server: run by Scripts/postgres.sh, which starts one (POSTGRES_URL).
    .testTarget(
      name: "JSONAPIPostgresStoreTests",
      dependencies: [
        "JSONAPIPostgresStore",
        .product(name: "JSONAPICodable", package: "JSONAPICodable"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
      ]
    ),
    .testTarget(
      name: "LibraryServerTests",
      dependencies: [
        "LibraryServer", "JSONAPIHummingbird", "GlueTestSupport",
        .product(name: "JSONAPICodable", package: "JSONAPICodable"),
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
