#if canImport(Glibc)
import Glibc
#endif

/// One end of the picker's channel: a Unix stream socket the broker made with `socketpair` and the
/// picker inherited. Each side writes one message and shuts its writing down; the other reads to
/// the end. The descriptor is owned here and closed once.
public final class ChannelSocket: @unchecked Sendable {
    // @unchecked Sendable: the descriptor is used by one thread at a time — the broker's thread
    // for this request, or the picker's main thread — and closed only by `close()` or deinit.
    public private(set) var descriptor: Int32

    public init(descriptor: Int32) { self.descriptor = descriptor }

    deinit { close() }

    /// The environment variable that names the picker's end of the channel.
    public static let environmentKey = "MEDIA_BROKER_PICKER_FD"

    /// Writes `text` whole and shuts this side's writing down, so the reader sees its end.
    public func send(_ text: ChannelText) throws(ChannelError) {
        let bytes = text.encoded
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0 {
                if errno == EINTR { continue }
                throw .io("writing to the picker channel failed: \(String(cString: strerror(errno)))")
            }
            offset += written
        }
        shutdown(descriptor, Int32(SHUT_WR))
    }

    /// Reads until the other side shuts its writing down or exits; `nil` when it sent nothing.
    public func receive() throws(ChannelError) -> ChannelText? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .io("reading the picker channel failed: \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            bytes += buffer[..<count]
            guard bytes.count <= ChannelText.maximumBytes else { throw .malformed("a message longer than \(ChannelText.maximumBytes) bytes") }
        }
        return bytes.isEmpty ? nil : try ChannelText(decoding: bytes)
    }

    public func close() {
        guard descriptor >= 0 else { return }
        _ = Glibc.close(descriptor)
        descriptor = -1
    }
}
