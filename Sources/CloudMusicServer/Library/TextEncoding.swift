import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Legacy text encodings that Chinese lyric files still come in.
enum TextEncoding {
    /// Decodes GB18030 (a superset of GBK and GB2312) with glibc's iconv; nil when the bytes are not valid.
    static func decodeGB18030(_ data: Data) -> String? {
        let converter = iconv_open("UTF-8", "GB18030")
        guard converter != iconv_t(bitPattern: -1) else { return nil }
        defer { iconv_close(converter) }
        var input = [CChar](repeating: 0, count: data.count)
        data.withUnsafeBytes { raw in input.withUnsafeMutableBytes { $0.copyMemory(from: raw) } }
        var output = [CChar](repeating: 0, count: data.count * 2 + 4)
        let converted: Int? = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                var inPointer: UnsafeMutablePointer<CChar>? = inBuffer.baseAddress
                var inLeft = inBuffer.count
                var outPointer: UnsafeMutablePointer<CChar>? = outBuffer.baseAddress
                var outLeft = outBuffer.count
                guard iconv(converter, &inPointer, &inLeft, &outPointer, &outLeft) != -1, inLeft == 0 else {
                    return nil
                }
                return outBuffer.count - outLeft
            }
        }
        guard let converted else { return nil }
        return String(decoding: output.prefix(converted).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
