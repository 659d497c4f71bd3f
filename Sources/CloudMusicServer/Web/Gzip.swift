import CZlib
import Foundation

/// zlib, wrapped once: gzip compression of the web player's files, done once at start-up.
enum Gzip {
    /// `data` as a gzip member (RFC 1952) at the best compression; nil when zlib fails.
    static func compress(_ data: Data) -> Data? {
        var stream = z_stream()
        guard cz_deflate_init_gzip(&stream, Z_BEST_COMPRESSION) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(data.count))) + 32)
        let status = data.withUnsafeBytes { (input: UnsafeRawBufferPointer) -> Int32 in
            output.withUnsafeMutableBytes { (out: UnsafeMutableRawBufferPointer) -> Int32 in
                stream.next_in = UnsafeMutablePointer(
                    mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
                stream.avail_in = uInt(input.count)
                stream.next_out = out.baseAddress?.assumingMemoryBound(to: Bytef.self)
                stream.avail_out = uInt(out.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        return Data(output[0..<Int(stream.total_out)])
    }
}
