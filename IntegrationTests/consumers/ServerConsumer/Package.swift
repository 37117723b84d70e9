// swift-tools-version:6.2
import PackageDescription

// A server as a user writes it: every integration product, each named as its package declares
// it. Scripts/consumers.sh builds it in CI. Paths stand in for versions here, since the packages
// are not published from this machine; their manifests take each other the same way.
let package = Package(
  name: "ServerConsumer",
  platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .visionOS(.v1)],
  dependencies: [
    .package(name: "JSONAPICodable", path: "../../.."),
    .package(name: "JSONAPISQLStoreKit", path: "../../../Integrations/JSONAPISQLStoreKit"),
    .package(name: "JSONAPIStoreConformance", path: "../../../Integrations/JSONAPIStoreConformance"),
    .package(name: "JSONAPISQLiteStore", path: "../../../Integrations/JSONAPISQLiteStore"),
    .package(name: "JSONAPIPostgresStore", path: "../../../Integrations/JSONAPIPostgresStore"),
    .package(name: "JSONAPIHummingbird", path: "../../../Integrations/JSONAPIHummingbird"),
    .package(name: "JSONAPIVapor", path: "../../../Integrations/JSONAPIVapor"),
    .package(name: "JSONAPIAsyncHTTPClient", path: "../../../Integrations/JSONAPIAsyncHTTPClient"),
  ],
  targets: [
    .executableTarget(
      name: "ServerConsumer",
      dependencies: [
        .product(name: "JSONAPICodable", package: "JSONAPICodable"),
        .product(name: "JSONAPINetworking", package: "JSONAPICodable"),
        .product(name: "JSONAPIServer", package: "JSONAPICodable"),
        .product(name: "JSONAPISQLStoreKit", package: "JSONAPISQLStoreKit"),
        .product(name: "JSONAPIStoreConformance", package: "JSONAPIStoreConformance"),
        .product(name: "JSONAPISQLiteStore", package: "JSONAPISQLiteStore"),
        .product(name: "JSONAPIPostgresStore", package: "JSONAPIPostgresStore"),
        .product(name: "JSONAPIHummingbird", package: "JSONAPIHummingbird"),
        .product(name: "JSONAPIHummingbirdCoders", package: "JSONAPIHummingbird"),
        .product(name: "JSONAPIVapor", package: "JSONAPIVapor"),
        .product(name: "JSONAPIAsyncHTTPClient", package: "JSONAPIAsyncHTTPClient"),
      ]
    )
  ],
  swiftLanguageModes: [.v6]
)
