internal import CGtk

/// An icon or a picture at a fixed size.
@MainActor
public struct Image: View {
    public let widget: Widget
    private var image: OpaquePointer { widget.opaque }

    /// A picture from a file (album art, an app's icon); GTK shows a broken-image icon for a file
    /// it cannot read.
    public init(file: String, size: Int32) {
        widget = Widget(gtk_image_new_from_file(file))
        gtk_image_set_pixel_size(image, size)
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
