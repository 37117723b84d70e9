// swift-tools-version:6.0
// libFuzzer harness for JSONAPICodable. Its own package so that nothing here reaches library users.
// Build and run with ../Scripts/fuzz.sh (the sanitizer flags live there, never in a manifest).
import PackageDescription

let package = Package(
  name: "JSONAPIFuzz",
  // The library's own floor, so that an Apple build sees the same availability.
  platforms: [
    .macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1),
  ],
  dependencies: [.package(name: "JSONAPICodable", path: "..")],
  targets: [
    .executableTarget(
      name: "JSONAPIFuzz",
      dependencies: [.product(name: "JSONAPICodable", package: "JSONAPICodable")]
    ),
    // What a server reads from a stranger: query, Accept/Content-Type, bodies, operations.
    .executableTarget(
      name: "JSONAPIServerFuzz",
      dependencies: [.product(name: "JSONAPIServer", package: "JSONAPICodable")]
    ),
  ],
  swiftLanguageModes: [.v6]
)
