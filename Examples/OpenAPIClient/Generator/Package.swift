// swift-tools-version:6.0
import PackageDescription

// Only for Scripts/generate-openapi-client.sh: runs swift-openapi-generator's command-line tool.
// The client package itself depends on the runtime alone and compiles the committed code.
let package = Package(
  name: "Generator",
  dependencies: [
    .package(url: "https://github.com/apple/swift-openapi-generator", exact: "1.14.3")
  ]
)
