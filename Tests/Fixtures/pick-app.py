#!/usr/bin/python3
"""A journaling app asking the person to pick listens, as an app would (issue 21).

  pick-app.py pick [REASON [PARENT]]
                              calls PickMedia (over the window PARENT, as portals name it); prints "handle PATH", then, when the Response comes,
                              "response CODE JSON" (JSON: the asset ids, the moment's id and
                              asset_ids, and every key of the results) and exits. SIGUSR1 makes
                              it call Close() on the request; it then prints "closed" and keeps
                              listening (for a Response that must not come) until SIGTERM.
  pick-app.py pick-over-window [REASON]
                              shows a GTK 4 window titled "Journal Window" on the Wayland display,
                              exports it with xdg-foreign and prints "exported wayland:HANDLE" (or
                              "not exported", where GTK 4.8 cannot: KWin, which offers only
                              xdg-foreign v2; foreign-v2-window.c exports there), then picks as `pick`
                              does over that window
  pick-app.py recent          calls RecentMedia; prints "ok COUNT" or "refused ERROR"
  pick-app.py introspect PATH prints the broker's introspection XML of PATH
  pick-app.py storm COUNT     COUNT times PickMedia with handle_token "t" and at once Close(), as
                              an attacker piling up pickers would; then picks as `pick` does with
                              the same token (reason "Storm")

With PICK_APP_OWNS=NAME in its environment it first owns the well-known name NAME, as a
GApplication owns its app id; with PICK_APP_SUGGESTION=ID, `pick` asks with the option
suggestion (issue 35), as a journal app a suggestion opened would.
"""
import json
import os
import signal
import sys

import dbus
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

BROKER = "org.mediabroker.MediaBroker1"
DBusGMainLoop(set_as_default=True)
bus = dbus.SessionBus()
if os.environ.get("PICK_APP_OWNS"):
    bus.request_name(os.environ["PICK_APP_OWNS"], dbus.bus.NAME_FLAG_DO_NOT_QUEUE)
broker = dbus.Interface(bus.get_object(BROKER, "/org/mediabroker/MediaBroker1", introspect=False), BROKER)


def pick(reason, parent, token=None):
    loop = GLib.MainLoop()
    request = {}

    def response(code, results, path=None):
        if path != request.get("path"):
            return
        summary = {
            "keys": sorted(str(key) for key in results.keys()),
            "assets": [int(asset["id"]) for asset in results.get("assets", [])],
        }
        if "moment" in results:
            summary["moment"] = {"id": str(results["moment"]["id"]),
                                 "asset_ids": [int(i) for i in results["moment"]["asset_ids"]]}
        print("response", int(code), json.dumps(summary, sort_keys=True), flush=True)
        loop.quit()

    # Subscribed before the call, as portal clients do, so no Response can come first.
    bus.add_signal_receiver(response, "Response", "org.freedesktop.portal.Request", path_keyword="path")
    options = dbus.Dictionary({"reason": reason} if reason else {}, signature="sv")
    if token:
        options["handle_token"] = token
    if os.environ.get("PICK_APP_SUGGESTION"):
        options["suggestion"] = os.environ["PICK_APP_SUGGESTION"]
    request["path"] = str(broker.PickMedia(parent, options))
    print("handle", request["path"], flush=True)

    def close():
        dbus.Interface(bus.get_object(BROKER, request["path"], introspect=False),
                       "org.freedesktop.portal.Request").Close()
        print("closed", flush=True)
        return GLib.SOURCE_REMOVE

    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGUSR1, close)
    loop.run()


def exported_window():
    # Imported here: only this command needs a display.
    import gi
    gi.require_version("Gtk", "4.0")
    gi.require_version("GdkWayland", "4.0")
    from gi.repository import GdkWayland, Gtk

    window = Gtk.Window(title="Journal Window", default_width=640, default_height=480)
    loop = GLib.MainLoop()
    exported = {}

    def done(toplevel, handle, *data):
        exported["handle"] = handle
        loop.quit()

    def export():
        # The handle exists once the window is mapped; GTK 4.8 exports through xdg-foreign v1 only.
        surface = window.get_surface()
        if not isinstance(surface, GdkWayland.WaylandToplevel) or not surface.export_handle(done):
            loop.quit()
        return GLib.SOURCE_REMOVE

    # From the loop: the window may be mapped while present() runs, before the loop does.
    window.connect("map", lambda *_: GLib.idle_add(export))
    window.present()
    loop.run()
    return window, exported.get("handle")


if sys.argv[1] == "pick":
    try:
        pick(sys.argv[2] if len(sys.argv) > 2 else None, sys.argv[3] if len(sys.argv) > 3 else "")
    except dbus.exceptions.DBusException as error:
        print("refused", error.get_dbus_name(), error.get_dbus_message(), flush=True)
elif sys.argv[1] == "pick-over-window":
    window, handle = exported_window()
    print("exported wayland:" + handle if handle else "not exported", flush=True)
    pick(sys.argv[2] if len(sys.argv) > 2 else None, "wayland:" + handle if handle else "")
elif sys.argv[1] == "storm":
    for _ in range(int(sys.argv[2])):
        path = broker.PickMedia("", dbus.Dictionary({"handle_token": "t", "reason": "Storm"}, signature="sv"))
        dbus.Interface(bus.get_object(BROKER, path, introspect=False), "org.freedesktop.portal.Request").Close()
    pick("Storm", "", "t")
elif sys.argv[1] == "introspect":
    print(dbus.Interface(bus.get_object(BROKER, sys.argv[2], introspect=False),
                         "org.freedesktop.DBus.Introspectable").Introspect(), flush=True)
elif sys.argv[1] == "recent":
    try:
        print("ok", len(broker.RecentMedia(dbus.Dictionary({}, signature="sv"))), flush=True)
    except dbus.exceptions.DBusException as error:
        print("refused", error.get_dbus_name(), flush=True)
