extension DisplayFormat {
    /// A size as people read file sizes, in decimal units: "300 bytes", "512 KB", "10 MB", "1.5 GB" (one
    /// decimal when it is not whole).
    public static func byteSize(_ bytes: Int64) -> String {
        func figure(_ value: Double) -> String {
            let tenths = (value * 10).rounded() / 10
            return tenths == tenths.rounded() ? String(Int64(tenths)) : String(tenths)
        }
        if bytes >= 1_000_000_000 { return figure(Double(bytes) / 1e9) + " GB" }
        if bytes >= 1_000_000 { return figure(Double(bytes) / 1e6) + " MB" }
        if bytes >= 1_000 { return figure(Double(bytes) / 1e3) + " KB" }
        return bytes == 1 ? "1 byte" : "\(bytes) bytes"
    }
}
