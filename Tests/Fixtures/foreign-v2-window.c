/* A GTK 4 app window exported with xdg-foreign v2, as a KDE app exports it for a portal (issue 36):
   GTK 4.8 exports with v1 only, which KWin 5.27 does not offer, so this exports the window's
   surface itself with zxdg_exporter_v2, on a private queue of GTK's Wayland connection.

   Shows a window titled "Journal Window"; once mapped, prints "exported wayland:HANDLE" (or "not
   exported" where the compositor has no v2 exporter) and keeps the window, and the export, until
   it is killed. Built by WaylandPickerTests with the protocol code of Sources/CWaylandForeign:
     cc foreign-v2-window.c Sources/CWaylandForeign/xdg-foreign-unstable-v2-protocol.c
        -I Sources/CWaylandForeign $(pkg-config --cflags --libs gtk4 wayland-client) */
#include <gdk/wayland/gdkwayland.h>
#include <gtk/gtk.h>
#include <stdio.h>
#include <string.h>
#include <wayland-client.h>

#include "xdg-foreign-unstable-v2-client-protocol.h"

static struct zxdg_exporter_v2 *exporter;
static char *handle;

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    (void)data;
    (void)version;
    if (strcmp(interface, zxdg_exporter_v2_interface.name) == 0)
        exporter = wl_registry_bind(registry, name, &zxdg_exporter_v2_interface, 1);
}

static void global_remove(void *data, struct wl_registry *registry, uint32_t name) {
    (void)data;
    (void)registry;
    (void)name;
}

static const struct wl_registry_listener registry_listener = {global, global_remove};

static void exported_handle(void *data, struct zxdg_exported_v2 *exported, const char *text) {
    (void)data;
    (void)exported;
    handle = g_strdup(text);
}

static const struct zxdg_exported_v2_listener exported_listener = {exported_handle};

/* After the class's map: GTK has made the xdg_toplevel, which export_toplevel requires. */
static void mapped(GtkWidget *window, gpointer data) {
    (void)data;
    GdkSurface *surface = gtk_native_get_surface(GTK_NATIVE(window));
    struct wl_display *display = gdk_wayland_display_get_wl_display(gtk_widget_get_display(window));
    struct wl_event_queue *queue = wl_display_create_queue(display);
    struct wl_display *wrapper = wl_proxy_create_wrapper(display);
    wl_proxy_set_queue((struct wl_proxy *)wrapper, queue);
    struct wl_registry *registry = wl_display_get_registry(wrapper);
    wl_registry_add_listener(registry, &registry_listener, NULL);
    wl_display_roundtrip_queue(display, queue);
    if (exporter != NULL) {
        /* Kept for the process's life: destroying it would revoke the handle. */
        struct zxdg_exported_v2 *exported =
            zxdg_exporter_v2_export_toplevel(exporter, gdk_wayland_surface_get_wl_surface(surface));
        zxdg_exported_v2_add_listener(exported, &exported_listener, NULL);
        /* The compositor answers at once; a few round trips bound the wait. */
        for (int trip = 0; trip < 3 && handle == NULL; trip++) wl_display_roundtrip_queue(display, queue);
    }
    if (handle != NULL)
        printf("exported wayland:%s\n", handle);
    else
        printf("not exported\n");
    fflush(stdout);
}

int main(void) {
    gtk_init();
    if (!GDK_IS_WAYLAND_DISPLAY(gdk_display_get_default())) {
        fprintf(stderr, "not on Wayland\n");
        return 1;
    }
    GtkWidget *window = gtk_window_new();
    gtk_window_set_title(GTK_WINDOW(window), "Journal Window");
    gtk_window_set_default_size(GTK_WINDOW(window), 640, 480);
    g_signal_connect_after(window, "map", G_CALLBACK(mapped), NULL);
    gtk_window_present(GTK_WINDOW(window));
    for (;;) g_main_context_iteration(NULL, TRUE);
}
