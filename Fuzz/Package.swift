// swift-tools-version:6.0
// libFuzzer harness for JSONAPICodable. Its own package so that nothing here reaches library users.
// Build and run with ../Scripts/fuzz.sh (the sanitizer flags live there, never in a manifest).
import PackageDescription

let package = Package(
  name: "JSONAPIFuzz",
  dependencies: [.package(name: "JSONAPICodable", path: "..")],
  targets: [
    .executableTarget(
      name: "JSONAPIFuzz",
      dependencies: [.product(name: "JSONAPICodable", package: "JSONAPICodable")]
    )
  ],
  swiftLanguageModes: [.v6]
)
