// swift-tools-version:6.0
import PackageDescription

// The benchmark lives in its own package so that library users resolve nothing new.
// Run: swift run -c release --package-path Benchmarks JSONAPIBenchmarks
let package = Package(
  name: "JSONAPIBenchmarks",
  // The library's own floor, so that an Apple build sees the same availability.
  platforms: [
    .macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1),
  ],
  dependencies: [
    // `name:` because a path dependency is otherwise known by its folder name, which differs
    // between checkouts (worktrees, CI); the library target is the only thing we link.
    .package(name: "JSONAPICodable", path: "..")
  ],
  targets: [
    .executableTarget(
      name: "JSONAPIBenchmarks",
      dependencies: [.product(name: "JSONAPICodable", package: "JSONAPICodable")]
    )
  ],
  swiftLanguageModes: [.v6]
)
