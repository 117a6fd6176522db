/* xdg-foreign v2 import on a private queue; see include/CWaylandForeign.h. */
#include "CWaylandForeign.h"

#include <stdlib.h>
#include <string.h>
#include <wayland-client.h>

#include "xdg-foreign-unstable-v2-client-protocol.h"

/* The versions of xdg-foreign-unstable-v2 these calls speak. */
#define MB_IMPORTER_V2_VERSION 1

struct mb_foreign_parent {
    struct wl_event_queue *queue;
    struct zxdg_importer_v2 *importer;
    struct zxdg_imported_v2 *imported;
    bool destroyed; /* the compositor said the handle names nothing (any longer) */
};

/* What the registry offers, read during one round trip on the private queue. */
typedef struct {
    struct wl_registry *registry;
    bool v1;
    uint32_t v2_name; /* 0: no zxdg_importer_v2 */
} registry_scan;

static void registry_global(void *data, struct wl_registry *registry, uint32_t name, const char *interface,
                            uint32_t version) {
    (void)registry;
    (void)version;
    registry_scan *scan = data;
    if (strcmp(interface, "zxdg_importer_v1") == 0) scan->v1 = true;
    if (strcmp(interface, zxdg_importer_v2_interface.name) == 0) scan->v2_name = name;
}

static void registry_global_remove(void *data, struct wl_registry *registry, uint32_t name) {
    (void)data;
    (void)registry;
    (void)name;
}

static const struct wl_registry_listener registry_listener = {registry_global, registry_global_remove};

/* Reads the registry on `queue`: a wrapper of the display carries the queue, so the registry and
   whatever is bound from it deliver their events there, not to GTK's default queue. The registry
   stays in scan->registry for binding; the caller destroys it. */
static bool scan_registry(struct wl_display *display, struct wl_event_queue *queue, registry_scan *scan) {
    struct wl_display *wrapper = wl_proxy_create_wrapper(display);
    if (wrapper == NULL) return false;
    wl_proxy_set_queue((struct wl_proxy *)wrapper, queue);
    scan->registry = wl_display_get_registry(wrapper);
    wl_proxy_wrapper_destroy(wrapper);
    if (scan->registry == NULL) return false;
    wl_registry_add_listener(scan->registry, &registry_listener, scan);
    return wl_display_roundtrip_queue(display, queue) >= 0;
}

static void imported_destroyed(void *data, struct zxdg_imported_v2 *imported) {
    (void)imported;
    ((mb_foreign_parent *)data)->destroyed = true;
}

static const struct zxdg_imported_v2_listener imported_listener = {imported_destroyed};

mb_foreign_parent *mb_foreign_import_v2(struct wl_display *display, const char *handle, bool *gtk_imports) {
    *gtk_imports = true;
    if (display == NULL || handle == NULL || handle[0] == '\0') return NULL;
    mb_foreign_parent *parent = calloc(1, sizeof *parent);
    if (parent == NULL) return NULL;
    parent->queue = wl_display_create_queue(display);
    if (parent->queue == NULL) {
        free(parent);
        return NULL;
    }
    registry_scan scan = {NULL, false, 0};
    if (scan_registry(display, parent->queue, &scan)) {
        *gtk_imports = scan.v1;
        if (!scan.v1 && scan.v2_name != 0) {
            parent->importer = wl_registry_bind(scan.registry, scan.v2_name, &zxdg_importer_v2_interface, MB_IMPORTER_V2_VERSION);
        }
    }
    if (scan.registry != NULL) wl_registry_destroy(scan.registry);
    if (parent->importer != NULL) {
        parent->imported = zxdg_importer_v2_import_toplevel(parent->importer, handle);
    }
    if (parent->imported != NULL) {
        zxdg_imported_v2_add_listener(parent->imported, &imported_listener, parent);
        /* The compositor answers an unknown handle with `destroyed` at once (an inert object):
           after this round trip it has, and the picker then shows unattached. */
        if (wl_display_roundtrip_queue(display, parent->queue) >= 0 && !parent->destroyed) return parent;
    }
    mb_foreign_parent_free(parent);
    return NULL;
}

void mb_foreign_set_parent_of(mb_foreign_parent *parent, struct wl_surface *surface) {
    if (parent == NULL || surface == NULL || parent->imported == NULL) return;
    zxdg_imported_v2_set_parent_of(parent->imported, surface);
}

void mb_foreign_parent_free(mb_foreign_parent *parent) {
    if (parent == NULL) return;
    if (parent->imported != NULL) zxdg_imported_v2_destroy(parent->imported);
    if (parent->importer != NULL) zxdg_importer_v2_destroy(parent->importer);
    /* The proxies go first: a queue destroyed while proxies still use it makes libwayland warn. */
    wl_event_queue_destroy(parent->queue);
    free(parent);
}
