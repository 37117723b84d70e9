// swift-tools-version:6.0
import PackageDescription

// An app as an iOS developer writes it: the codec and the client, nothing of the server.
// Scripts/consumers.sh builds it and checks that no server code was compiled into it.
let package = Package(
  name: "AppConsumer",
  platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
  dependencies: [.package(name: "JSONAPICodable", path: "../../..")],
  targets: [
    .executableTarget(
      name: "AppConsumer",
      dependencies: [
        .product(name: "JSONAPICodable", package: "JSONAPICodable"),
        .product(name: "JSONAPINetworking", package: "JSONAPICodable"),
      ]
    )
  ],
  swiftLanguageModes: [.v6]
)
