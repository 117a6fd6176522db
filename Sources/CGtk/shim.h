#ifndef MEDIABROKER_CGTK_SHIM_H
#define MEDIABROKER_CGTK_SHIM_H
#include <gtk/gtk.h>
#include <adwaita.h>
#include <stdlib.h>
#ifdef GDK_WINDOWING_X11
#include <gdk/x11/gdkx.h>
#endif
#ifdef GDK_WINDOWING_WAYLAND
#include <gdk/wayland/gdkwayland.h>
#endif

/* Macros and variadic functions do not import into Swift: these few stand in for the ones
   SwiftGtk needs, each a plain call of the function the macro names. */

static inline gulong cgtk_signal_connect(gpointer instance, const char *signal, GCallback handler,
                                         gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(instance, signal, handler, data, destroy, (GConnectFlags)0);
}

/* gtk_accessible_update_property is variadic. */
static inline void cgtk_accessible_set_label(GtkWidget *widget, const char *label) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}

/* Makes a realized window transient for another program's window, named as portals name it:
   "x11:XID" (hexadecimal) on X11, "wayland:HANDLE" (an xdg-foreign handle) on Wayland. FALSE when
   the name does not fit the display the window is on, or is malformed. The GDK backends' calls
   and Xlib's take X11 and Wayland types, which stay here, out of Swift. */
static inline gboolean cgtk_window_set_foreign_parent(GtkWindow *window, const char *parent) {
    GdkSurface *surface = gtk_native_get_surface(GTK_NATIVE(window));
    if (surface == NULL || parent == NULL) return FALSE;
#ifdef GDK_WINDOWING_X11
    if (GDK_IS_X11_SURFACE(surface) && g_str_has_prefix(parent, "x11:")) {
        char *end = NULL;
        unsigned long xid = strtoul(parent + 4, &end, 16);
        if (end == parent + 4 || *end != '\0' || xid == 0) return FALSE;
        Display *display = gdk_x11_display_get_xdisplay(gdk_surface_get_display(surface));
        XSetTransientForHint(display, gdk_x11_surface_get_xid(surface), (Window)xid);
        return TRUE;
    }
#endif
#ifdef GDK_WINDOWING_WAYLAND
    if (GDK_IS_WAYLAND_TOPLEVEL(surface) && g_str_has_prefix(parent, "wayland:")) {
        return gdk_wayland_toplevel_set_transient_for_exported(GDK_TOPLEVEL(surface), (char *)parent + 8);
    }
#endif
    return FALSE;
}

/* The Wayland connection and surface of a realized window, for the xdg-foreign v2 import GTK 4.8
   lacks (SwiftGtk hands them to CWaylandForeign); NULL when the window is not on Wayland. */
static inline struct wl_display *cgtk_window_wl_display(GtkWindow *window) {
#ifdef GDK_WINDOWING_WAYLAND
    GdkDisplay *display = gtk_widget_get_display(GTK_WIDGET(window));
    if (GDK_IS_WAYLAND_DISPLAY(display)) return gdk_wayland_display_get_wl_display(display);
#endif
    return NULL;
}

static inline struct wl_surface *cgtk_window_wl_surface(GtkWindow *window) {
#ifdef GDK_WINDOWING_WAYLAND
    GdkSurface *surface = gtk_native_get_surface(GTK_NATIVE(window));
    if (surface != NULL && GDK_IS_WAYLAND_SURFACE(surface)) return gdk_wayland_surface_get_wl_surface(surface);
#endif
    return NULL;
}

/* g_signal_connect_after: the handler runs after the class's own (a window's `map` has then
   presented its toplevel). */
static inline gulong cgtk_signal_connect_after(gpointer instance, const char *signal, GCallback handler,
                                               gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(instance, signal, handler, data, destroy, G_CONNECT_AFTER);
}

#endif
