// swift-tools-version:6.1
import PackageDescription

// The tracker of issue 46 (users, projects with an owner and members, tasks in projects), served
// by Hummingbird from SQLite with policies on every row: a package of its own, so that the
// library keeps zero dependencies. See README.md.
let package = Package(
  name: "TrackerServer",
  // Hummingbird 2 needs macOS 14; the library's own floor is lower.
  platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .visionOS(.v1)],
  dependencies: [
    // The library and its integrations by product, as a user's app takes them; by path here,
    // since they live in the same repository.
    .package(name: "JSONAPICodable", path: "../.."),
    .package(name: "JSONAPIHummingbird", path: "../../Integrations/JSONAPIHummingbird"),
    .package(name: "JSONAPISQLiteStore", path: "../../Integrations/JSONAPISQLiteStore"),
    .package(
      url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1",
      traits: ["FullFoundation"]),
  ],
  targets: [
    // What the tracker is: models, declarations with their policies, the seed, the store.
    .target(
      name: "TrackerKit",
      dependencies: [
        .product(name: "JSONAPIServer", package: "JSONAPICodable"),
        .product(name: "JSONAPISQLiteStore", package: "JSONAPISQLiteStore"),
      ]
    ),
    // The application that serves it (Hummingbird, the glue's authenticator): what tests drive.
    .target(
      name: "TrackerApp",
      dependencies: [
        "TrackerKit",
        .product(name: "JSONAPIHummingbird", package: "JSONAPIHummingbird"),
        .product(name: "JSONAPIServer", package: "JSONAPICodable"),
        .product(name: "Hummingbird", package: "hummingbird"),
      ]
    ),
    // `main`: reads the environment and runs the application.
    .executableTarget(
      name: "TrackerServer",
      dependencies: [
        "TrackerApp", "TrackerKit",
        .product(name: "Hummingbird", package: "hummingbird"),
      ]
    ),
    // GET /tasks?include=project with and without the policies (Benchmarks/README.md): needs
    // no Hummingbird, so its release build is short.
    .executableTarget(
      name: "TrackerBench",
      dependencies: [
        "TrackerKit",
        .product(name: "JSONAPIServer", package: "JSONAPICodable"),
        .product(name: "JSONAPISQLiteStore", package: "JSONAPISQLiteStore"),
      ]
    ),
    .testTarget(
      name: "TrackerTests",
      dependencies: [
        "TrackerApp", "TrackerKit",
        .product(name: "JSONAPIServer", package: "JSONAPICodable"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdTesting", package: "hummingbird"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
