// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "JSONAPICodable",
  platforms: [
    .macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1),
  ],
  products: [
    .library(name: "JSONAPICodable", targets: ["JSONAPICodable"])
  ],
  targets: [
    .target(name: "JSONAPICodable"),
    .testTarget(
      name: "JSONAPICodableTests",
      dependencies: ["JSONAPICodable", "ServerExampleKit"],
      resources: [.copy("Fixtures")]
    ),
    .executableTarget(
      name: "ClientExample",
      dependencies: ["JSONAPICodable"],
      path: "Examples/ClientExample"
    ),
    .target(
      name: "ServerExampleKit",
      dependencies: ["JSONAPICodable"],
      path: "Examples/ServerExampleKit"
    ),
    .executableTarget(
      name: "ServerExample",
      dependencies: ["JSONAPICodable", "ServerExampleKit"],
      path: "Examples/ServerExample"
    ),
  ],
  swiftLanguageModes: [.v6]
)
