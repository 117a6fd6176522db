/// An image secured from a player's `artUrl`: its bytes, checked, and their hash.
package struct SecuredArtwork: Sendable, Equatable {
    package let bytes: [UInt8]
    let kind: ImageKind
    /// SHA-256 of the bytes in hex: the file's name in the artwork folder.
    let hash: String

    /// The most bytes one image may have.
    package static let maximumBytes = 4 * 1024 * 1024

    /// `bytes` when they are a PNG, JPEG or WebP image of at most ``maximumBytes``.
    package init?(bytes: [UInt8]) {
        guard !bytes.isEmpty, bytes.count <= Self.maximumBytes, let kind = ImageKind(magic: bytes) else { return nil }
        self.bytes = bytes
        self.kind = kind
        self.hash = SHA256.hex(of: bytes)
    }

    package var fileName: String { "\(hash).\(kind.fileExtension)" }
}
