internal import CGtk

/// An icon or a picture at a fixed size.
@MainActor
public struct Image: View {
    public let widget: Widget
    private var image: OpaquePointer { widget.opaque }

    /// A picture from a file (album art, an app's icon) whose path came from someone else. It shows
    /// the theme's `placeholder` icon at once; `read` gets the file's bytes on another thread (it
    /// must not wait on a FIFO either: see `BoundedFile`) and GTK decodes them there too, so the
    /// main loop never waits on the file. The placeholder stays when there are no bytes or they are
    /// no image.
    public init(file: String, size: Int32, placeholder: String, read: @escaping @Sendable (String) -> [UInt8]?) {
        self.init(icon: placeholder, size: size)
        let pending = PendingImage(holding: widget)
        Task.detached {
            let texture = read(file).flatMap(Texture.init(decoding:))
            MainThread.perform { pending.finish(showing: texture) }
        }
    }

    /// An icon from the icon theme.
    public init(icon: String, size: Int32) {
        widget = Widget(gtk_image_new_from_icon_name(icon))
        gtk_image_set_pixel_size(image, size)
    }

    public var size: Int32 {
        get { gtk_image_get_pixel_size(image) }
        nonmutating set { gtk_image_set_pixel_size(image, newValue) }
    }
}

/// A decoded picture, made off the main thread (a `GdkTexture` is immutable, so GTK allows it).
// @unchecked Sendable: the texture is immutable once made, and its one reference moves with the
// value to the main thread, which releases it.
private final class Texture: @unchecked Sendable {
    let texture: OpaquePointer

    /// The image in `bytes`, when GTK can decode them.
    ///
    /// The corresponding GTK call is `gdk_texture_new_from_bytes`.
    init?(decoding bytes: [UInt8]) {
        let data = bytes.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        defer { g_bytes_unref(data) }
        guard let texture = gdk_texture_new_from_bytes(data, nil) else { return nil }
        self.texture = texture
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(texture)) }
}

/// An image widget waiting for its picture: it holds a reference so the widget outlives a window
/// closed before the file was read.
// @unchecked Sendable: the pointer is only dereferenced in `finish`, on the main thread.
private final class PendingImage: @unchecked Sendable {
    private let image: OpaquePointer

    @MainActor init(holding widget: Widget) {
        image = widget.opaque
        g_object_ref(UnsafeMutableRawPointer(image))
    }

    @MainActor func finish(showing texture: Texture?) {
        if let texture { gtk_image_set_from_paintable(image, texture.texture) }
        g_object_unref(UnsafeMutableRawPointer(image))
    }
}
