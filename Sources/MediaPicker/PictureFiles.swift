import BoundedFile
import SwiftGtk

extension Image {
    /// Album art and app icons are at most this large (as the broker's art is).
    nonisolated static let maximumPictureBytes = 4 * 1024 * 1024

    /// The picture at `file`, a path the broker passed on from a player or an app: read off the
    /// main loop without waiting on anything but a regular file of at most
    /// ``maximumPictureBytes`` (a FIFO an app planted shows the placeholder), or the placeholder
    /// icon alone when there is no file.
    static func picture(_ file: String?, size: Int32, placeholder: String) -> Image {
        guard let file else { return Image(icon: placeholder, size: size) }
        return Image(file: file, size: size, placeholder: placeholder) { BoundedFile.read($0, limit: maximumPictureBytes) }
    }
}
