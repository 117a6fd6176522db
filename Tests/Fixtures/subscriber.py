#!/usr/bin/python3
"""A journaling app following live listens, as a sandboxed test client runs it (issue 20).

It adds a match rule for the broker's MediaAdded, asks to Subscribe, prints "subscribed" or
"refused ERROR", then one line "added TITLE" for every MediaAdded that reaches it, until killed.
"""
import dbus
import dbus.mainloop.glib
from gi.repository import GLib

BROKER = "org.mediabroker.MediaBroker1"

dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
bus = dbus.SessionBus()
bus.add_signal_receiver(lambda asset: print("added", asset.get("title", ""), flush=True),
                        signal_name="MediaAdded", dbus_interface=BROKER)
try:
    bus.call_blocking(BROKER, "/org/mediabroker/MediaBroker1", BROKER, "Subscribe", "", [])
    print("subscribed", flush=True)
except dbus.exceptions.DBusException as error:
    print("refused", error.get_dbus_name(), flush=True)
GLib.MainLoop().run()
