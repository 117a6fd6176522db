#ifndef MEDIABROKER_CWAYLANDFOREIGN_H
#define MEDIABROKER_CWAYLANDFOREIGN_H
/* xdg-foreign v2 for the picker: another program's window, exported by handle, becomes the parent
   of one of ours. GTK 4.8 speaks only v1 (zxdg_importer_v1); KWin 5.27 offers only v2
   (zxdg_importer_v2), so on KDE Plasma the picker imports the handle itself, here.

   Everything runs on GTK's wl_display but on a private event queue of its own, dispatched only
   by these calls (wl_display_roundtrip_queue): GTK's default queue and its event source are never
   touched. The types stay opaque, as SwiftGtk hands over the pointers GDK gives it.

   xdg-foreign-unstable-v2-protocol.c and xdg-foreign-unstable-v2-client-protocol.h beside this
   folder are wayland-scanner 1.21's output (Debian 12's libwayland-bin) for wayland-protocols
   1.31's XML, committed so that the build needs neither; from Sources/CWaylandForeign, made again with
     X=/usr/share/wayland-protocols/unstable/xdg-foreign/xdg-foreign-unstable-v2.xml
     wayland-scanner private-code $X xdg-foreign-unstable-v2-protocol.c
     wayland-scanner client-header $X xdg-foreign-unstable-v2-client-protocol.h */

#include <stdbool.h>

struct wl_display;
struct wl_surface;

/* The window of another program, imported with v2 by its handle; owned by whoever got it from
   mb_foreign_import_v2 and freed once with mb_foreign_parent_free. */
typedef struct mb_foreign_parent mb_foreign_parent;

/* Imports `handle` through zxdg_importer_v2 where the compositor offers no v1 importer (two round
   trips: the registry, then the import, so that a `destroyed` answer has come). Sets
   *gtk_imports, and returns NULL without importing, where GTK's own v1 import is the one to make:
   the compositor offers v1, or its registry cannot be read. Otherwise NULL when the compositor has
   no v2 importer either, or does not know the handle (stale, unknown or malformed: it answers
   `destroyed`), or when memory or the connection fails. */
mb_foreign_parent *mb_foreign_import_v2(struct wl_display *display, const char *handle, bool *gtk_imports);

/* Makes the imported window the parent of `surface`, which must already be an xdg_toplevel (the
   protocol's invalid_surface error otherwise): call it once GTK has mapped the window. */
void mb_foreign_set_parent_of(mb_foreign_parent *parent, struct wl_surface *surface);

/* Destroys the import (the compositor then drops the relationship) and its queue. NULL does
   nothing. */
void mb_foreign_parent_free(mb_foreign_parent *parent);

#endif
