import AsyncHTTPClient
import Foundation
import JSONAPIAsyncHTTPClient
import JSONAPINetworking

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

// A benchmark, not a test (Scripts/bench-transports.sh starts the server and runs it): requests
// per second and latency of each transport against one JSON:API server, sequential and with 16
// concurrent tasks, in interleaved rounds so that every transport meets the same machine state.
//
//   TransportBench --base URL [--requests N] [--rounds R]

@main
struct TransportBench {
  struct Contender {
    var name: String
    var transport: any JSONAPITransport
  }

  struct Target {
    var name: String
    var reference: String
  }

  /// Latencies (nanoseconds) and busy time of one cell, over every round.
  struct Samples {
    var latencies: [Int64] = []
    var elapsed: Duration = .zero
    var requests = 0

    var requestsPerSecond: Double {
      let seconds =
        Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
      return seconds > 0 ? Double(requests) / seconds : 0
    }

    func percentile(_ fraction: Double) -> Double {
      guard !latencies.isEmpty else { return 0 }
      let sorted = latencies.sorted()
      let index = min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.up)) - 1)
      return Double(sorted[max(0, index)]) / 1e6
    }
  }

  static func main() async throws {
    let arguments = CommandLine.arguments
    func value(_ name: String) -> String? {
      arguments.firstIndex(of: name).flatMap {
        arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil
      }
    }
    guard let baseText = value("--base"), let base = URL(string: baseText) else {
      FileHandle.standardError.write(
        Data("usage: TransportBench --base URL [--requests N] [--rounds R]\n".utf8))
      exit(2)
    }
    let requests = value("--requests").flatMap(Int.init) ?? 1_000
    let rounds = value("--rounds").flatMap(Int.init) ?? 5

    // As the example ships it (a connection per request), and with AsyncHTTPClient's pool, to
    // show what connection reuse is worth on this machine.
    let shipped = HTTPClient(
      eventLoopGroup: HTTPClient.defaultEventLoopGroup,
      configuration: AsyncHTTPClientTransport.recommendedConfiguration())
    var pooledConfiguration = AsyncHTTPClientTransport.recommendedConfiguration()
    pooledConfiguration.maximumUsesPerConnection = nil
    let pooled = HTTPClient(
      eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: pooledConfiguration)
    var contenders = [
      Contender(
        name: "AsyncHTTPClientTransport", transport: AsyncHTTPClientTransport(client: shipped)),
      Contender(
        name: "AsyncHTTPClient, pooled", transport: AsyncHTTPClientTransport(client: pooled)),
      Contender(name: "URLSessionTransport", transport: URLSessionTransport.shared),
    ]
    #if os(Linux)
      contenders.insert(
        Contender(name: "LibcurlTransport", transport: LibcurlTransport.shared), at: 0)
    #endif
    let targets = [
      Target(name: "GET /articles/1", reference: "articles/1"),
      Target(
        name: "20 articles with authors", reference: "articles?page%5Bsize%5D=20&include=author"),
    ]
    let concurrencies = [1, 16]

    var results: [String: Samples] = [:]
    func key(_ contender: Int, _ target: Int, _ concurrency: Int) -> String {
      "\(contender) \(target) \(concurrency)"
    }
    for (targetIndex, target) in targets.enumerated() {
      guard let url = URL(string: target.reference, relativeTo: base)?.absoluteURL else { continue }
      var request = URLRequest(url: url)
      request.setValue("application/vnd.api+json", forHTTPHeaderField: "Accept")
      // Every contender must get the same answer before any is timed.
      var expected: Int?
      for contender in contenders {
        let (body, response) = try await contender.transport.send(
          request, maxResponseBytes: 16 << 20)
        guard response.statusCode == 200, expected == nil || expected == body.count else {
          throw BenchError("\(contender.name): \(response.statusCode), \(body.count) bytes")
        }
        expected = body.count
      }
      FileHandle.standardError.write(Data("\(target.name): \(expected ?? 0) bytes\n".utf8))
      for round in 0..<rounds {
        for concurrency in concurrencies {
          // The order turns each round, so that no contender always follows the same one.
          for offset in contenders.indices {
            let index = (offset + round) % contenders.count
            let samples = try await measure(
              contenders[index].transport, request, requests: requests, concurrency: concurrency,
              expectedBytes: expected ?? 0)
            results[key(index, targetIndex, concurrency), default: Samples()].merge(samples)
          }
        }
        FileHandle.standardError.write(Data("  round \(round + 1) of \(rounds)\n".utf8))
      }
    }
    try await shipped.shutdown()
    try await pooled.shutdown()

    print(
      "| Request | Tasks | Transport | Requests/s | p50 (ms) | p99 (ms) | Throughput vs AHC | p99 vs AHC |"
    )
    print("|---|---|---|---|---|---|---|---|")
    let baseline = contenders.firstIndex { $0.name == "AsyncHTTPClientTransport" } ?? 0
    for (targetIndex, target) in targets.enumerated() {
      for concurrency in concurrencies {
        let reference = results[key(baseline, targetIndex, concurrency)] ?? Samples()
        for (index, contender) in contenders.enumerated() {
          let samples = results[key(index, targetIndex, concurrency)] ?? Samples()
          let throughput = reference.requestsPerSecond / max(samples.requestsPerSecond, 1e-9)
          let tail = samples.percentile(0.99) / max(reference.percentile(0.99), 1e-9)
          print(
            "| \(target.name) | \(concurrency) | \(contender.name) | "
              + "\(format(samples.requestsPerSecond, 0)) | \(format(samples.percentile(0.5), 2)) | "
              + "\(format(samples.percentile(0.99), 2)) | \(format(throughput, 2))× | \(format(tail, 2))× |"
          )
        }
      }
    }
    print(
      "(vs AHC: AsyncHTTPClientTransport's requests per second over this one's, and this one's p99 over its p99: below 1 is better)"
    )
  }

  /// `requests` requests, `concurrency` at a time.
  static func measure(
    _ transport: any JSONAPITransport, _ request: URLRequest, requests: Int, concurrency: Int,
    expectedBytes: Int
  ) async throws -> Samples {
    let clock = ContinuousClock()
    let start = clock.now
    let perTask = requests / concurrency
    let latencies = try await withThrowingTaskGroup(of: [Int64].self) { group in
      for _ in 0..<concurrency {
        group.addTask {
          var latencies: [Int64] = []
          latencies.reserveCapacity(perTask)
          for _ in 0..<perTask {
            let sent = clock.now
            let (body, response) = try await transport.send(request, maxResponseBytes: 16 << 20)
            let took = sent.duration(to: clock.now)
            guard response.statusCode == 200, body.count == expectedBytes else {
              throw BenchError("answer \(response.statusCode), \(body.count) bytes")
            }
            latencies.append(
              took.components.seconds * 1_000_000_000 + took.components.attoseconds / 1_000_000_000)
          }
          return latencies
        }
      }
      var all: [Int64] = []
      for try await part in group { all += part }
      return all
    }
    return Samples(
      latencies: latencies, elapsed: start.duration(to: clock.now), requests: latencies.count)
  }

  static func format(_ value: Double, _ digits: Int) -> String {
    String(format: "%.\(digits)f", value)
  }
}

extension TransportBench.Samples {
  mutating func merge(_ other: Self) {
    latencies += other.latencies
    elapsed += other.elapsed
    requests += other.requests
  }
}

struct BenchError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
