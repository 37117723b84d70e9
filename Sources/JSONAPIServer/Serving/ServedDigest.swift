import Foundation

/// BLAKE2b (RFC 7693) without a key: the hash of the server's entity tags.
///
/// A cryptographic hash, so that two versions of one answer never share a tag by accident nor by
/// design (a client that may write a resource cannot make a later version look unchanged to
/// another client's cache or `If-Match`). BLAKE2b rather than SHA-256 because its 64-bit words
/// make it about three times as fast without any machine-specific code, and every served body is
/// hashed. Written here so that the server keeps zero dependencies, and not `Hasher`, which is
/// seeded per process: two instances of one API would give one answer two tags.
///
/// The arithmetic wraps on purpose (`&+`): BLAKE2b is defined modulo 2⁶⁴.
struct ServedDigest {
  /// The length in bytes of the digests in entity tags (RFC 7693's `nn`): 128 bits.
  static let tagLength = 16

  /// The initialization vector (RFC 7693, section 2.6).
  private static let initialization: [UInt64] = [
    0x6a09_e667_f3bc_c908, 0xbb67_ae85_84ca_a73b, 0x3c6e_f372_fe94_f82b, 0xa54f_f53a_5f1d_36f1,
    0x510e_527f_ade6_82d1, 0x9b05_688c_2b3e_6c1f, 0x1f83_d9ab_fb41_bd6b, 0x5be0_cd19_137e_2179,
  ]

  /// The message schedule of each of the ten distinct rounds (section 2.7); rounds 10 and 11
  /// repeat rounds 0 and 1.
  private static let schedule: [UInt8] = [
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
    14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3,
    11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4,
    7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8,
    9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13,
    2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9,
    12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11,
    13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10,
    6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5,
    10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0,
  ]

  /// The digest of `data`, `length` bytes long (from 1 to 64; others are taken as the nearest of
  /// those): the digest of that length, not a longer one cut short.
  static func digest(_ data: Data, length: Int = tagLength) -> [UInt8] {
    let length = min(max(length, 1), 64)
    var state = initialization
    // The parameter block's first word: the digest's length, no key, fanout and depth 1.
    state[0] ^= 0x0101_0000 ^ UInt64(length)
    // Every block but the last is read where it lies; the last (partial, or empty for empty
    // data) is copied and padded with zeros, as the final block always is.
    let last = data.isEmpty ? 0 : (data.count - 1) / 128 * 128
    var tail = [UInt8](data.suffix(from: data.startIndex + last))
    tail += repeatElement(0, count: 128 - tail.count)
    var words = [UInt64](repeating: 0, count: 16)
    data.withUnsafeBytes { body in
      tail.withUnsafeBytes { tail in
        state.withUnsafeMutableBufferPointer { state in
          words.withUnsafeMutableBufferPointer { words in
            schedule.withUnsafeBufferPointer { schedule in
              // The counter is the bytes hashed so far (a body is far below 2⁶⁴ bytes, so its
              // high word stays 0).
              for start in stride(from: 0, to: last, by: 128) {
                compress(
                  state, words, schedule, body, at: start, counter: UInt64(start + 128),
                  isLast: false)
              }
              compress(
                state, words, schedule, tail, at: 0, counter: UInt64(data.count), isLast: true)
            }
          }
        }
      }
    }
    // The state's words in little-endian order, cut to the digest's length.
    var digest: [UInt8] = []
    digest.reserveCapacity(length)
    for index in 0..<length {
      digest.append(UInt8(truncatingIfNeeded: state[index / 8] >> UInt64(index % 8 * 8)))
    }
    return digest
  }

  /// The compression function F (section 3.2) on the 128-byte block of `bytes` at `start`;
  /// `words` holds the block's 16 words while it runs. The working vector lives in locals, so
  /// that it stays in registers.
  @inline(__always)
  private static func compress(
    _ state: UnsafeMutableBufferPointer<UInt64>, _ words: UnsafeMutableBufferPointer<UInt64>,
    _ schedule: UnsafeBufferPointer<UInt8>, _ bytes: UnsafeRawBufferPointer, at start: Int,
    counter: UInt64, isLast: Bool
  ) {
    for index in 0..<16 {
      words[index] = UInt64(
        littleEndian: bytes.loadUnaligned(fromByteOffset: start + index * 8, as: UInt64.self))
    }
    let iv = initialization
    var v0 = state[0]
    var v1 = state[1]
    var v2 = state[2]
    var v3 = state[3]
    var v4 = state[4]
    var v5 = state[5]
    var v6 = state[6]
    var v7 = state[7]
    var v8 = iv[0]
    var v9 = iv[1]
    var v10 = iv[2]
    var v11 = iv[3]
    var v12 = iv[4] ^ counter
    var v13 = iv[5]
    var v14 = isLast ? ~iv[6] : iv[6]
    var v15 = iv[7]
    for round in 0..<12 {
      let row = round % 10 * 16
      func word(_ index: Int) -> UInt64 { words[Int(schedule[row + index])] }
      mix(&v0, &v4, &v8, &v12, word(0), word(1))
      mix(&v1, &v5, &v9, &v13, word(2), word(3))
      mix(&v2, &v6, &v10, &v14, word(4), word(5))
      mix(&v3, &v7, &v11, &v15, word(6), word(7))
      mix(&v0, &v5, &v10, &v15, word(8), word(9))
      mix(&v1, &v6, &v11, &v12, word(10), word(11))
      mix(&v2, &v7, &v8, &v13, word(12), word(13))
      mix(&v3, &v4, &v9, &v14, word(14), word(15))
    }
    state[0] ^= v0 ^ v8
    state[1] ^= v1 ^ v9
    state[2] ^= v2 ^ v10
    state[3] ^= v3 ^ v11
    state[4] ^= v4 ^ v12
    state[5] ^= v5 ^ v13
    state[6] ^= v6 ^ v14
    state[7] ^= v7 ^ v15
  }

  /// The mixing function G (section 3.1).
  @inline(__always)
  private static func mix(
    _ a: inout UInt64, _ b: inout UInt64, _ c: inout UInt64, _ d: inout UInt64, _ x: UInt64,
    _ y: UInt64
  ) {
    a = a &+ b &+ x
    d = rotate(d ^ a, 32)
    c = c &+ d
    b = rotate(b ^ c, 24)
    a = a &+ b &+ y
    d = rotate(d ^ a, 16)
    c = c &+ d
    b = rotate(b ^ c, 63)
  }

  @inline(__always)
  private static func rotate(_ value: UInt64, _ count: UInt64) -> UInt64 {
    (value >> count) | (value << (64 - count))
  }

  /// The digest of `data` in lowercase hexadecimal (two digits a byte).
  static func hex(_ data: Data, length: Int = tagLength) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    text.reserveCapacity(2 * length)
    for byte in digest(data, length: length) {
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 0x0f)])
    }
    return String(decoding: text, as: UTF8.self)
  }
}
