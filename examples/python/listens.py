#!/usr/bin/python3
"""Prints today's listens from MediaBroker, newest first, one a line:

    21:04  Teardrop — Massive Attack  (mpv)

With --follow it then prints each new listen as the broker records it, until Ctrl-C.

It talks D-Bus through GLib's Gio (Debian: python3-gi), which needs no generated code: the
interface is described in org.mediabroker.MediaBroker1.xml (/usr/share/dbus-1/interfaces/).
"""

import sys
from datetime import datetime, time

from gi.repository import Gio, GLib

NAME = "org.mediabroker.MediaBroker1"
PATH = "/org/mediabroker/MediaBroker1"
INTERFACE = "org.mediabroker.MediaBroker1"
PAGE = 100  # assets per call; a page this full may have more after it


def describe(asset):
    """One asset, an a{sv} unpacked to a dict. Only "title" is always there."""
    started = datetime.fromtimestamp(asset.get("started", 0) / 1_000_000)  # microseconds
    line = f"{started:%H:%M}  {asset['title']}"
    if "artist" in asset:
        line += f" — {asset['artist']}"
    app = asset.get("app_name") or asset.get("app_id")
    return line + (f"  ({app})" if app else "")


def today(broker):
    """Today's assets, newest first, a page at a time."""
    midnight = datetime.combine(datetime.now().date(), time())
    query = {"since": GLib.Variant("x", int(midnight.timestamp()) * 1_000_000), "limit": GLib.Variant("u", PAGE)}
    while True:
        reply = broker.call_sync("RecentMedia", GLib.Variant("(a{sv})", (query,)), Gio.DBusCallFlags.NONE, -1, None)
        (assets,) = reply.unpack()
        yield from assets
        if len(assets) < PAGE:
            return
        query["before_id"] = GLib.Variant("x", assets[-1]["id"])  # the next page: after this one


def main():
    follow = "--follow" in sys.argv[1:]
    # The session bus starts the broker if it does not run yet.
    broker = Gio.DBusProxy.new_for_bus_sync(
        Gio.BusType.SESSION, Gio.DBusProxyFlags.DO_NOT_LOAD_PROPERTIES, None, NAME, PATH, INTERFACE, None)
    printed = set()

    def on_signal(proxy, sender, signal, parameters):
        if signal != "MediaAdded":  # MediaRemoved, the other signal, tells ids purged or expired
            return
        (asset,) = parameters.unpack()
        if asset["id"] not in printed:
            printed.add(asset["id"])
            print(describe(asset), flush=True)

    if follow:
        # MediaAdded goes only to those who called Subscribe: listen first, then subscribe, so that
        # no listen recorded meanwhile is missed (and none is printed twice, by its id).
        broker.connect("g-signal", on_signal)
        broker.call_sync("Subscribe", None, Gio.DBusCallFlags.NONE, -1, None)
    for asset in today(broker):
        printed.add(asset["id"])
        print(describe(asset))
    if follow:
        sys.stdout.flush()
        print("following new listens (Ctrl-C to stop)", file=sys.stderr, flush=True)
        try:
            GLib.MainLoop().run()
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    try:
        main()
    except GLib.Error as error:
        sys.exit(f"listens.py: {error.message}")
