#!/usr/bin/python3
"""The settings portal for tests (issue 36): org.freedesktop.portal.Settings at
/org/freedesktop/portal/desktop under the name org.freedesktop.portal.Desktop, as
xdg-desktop-portal serves it and KDE Plasma's backend answers it, with one setting:
org.freedesktop.appearance color-scheme = argv[1] (0 no preference, 1 prefer dark, 2 prefer light).

Each Read is printed as "read NAMESPACE KEY", and "ready" once the name is owned. A setting it does
not have is the portal's NotFound error, as the real one answers.
"""
import sys

import dbus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

INTERFACE = "org.freedesktop.portal.Settings"
SETTINGS = {"org.freedesktop.appearance": {"color-scheme": dbus.UInt32(int(sys.argv[1]))}}


class NotFound(dbus.DBusException):
    _dbus_error_name = "org.freedesktop.portal.Error.NotFound"


class Portal(dbus.service.Object):
    @dbus.service.method(INTERFACE, in_signature="ss", out_signature="v")
    def Read(self, namespace, key):
        print("read %s %s" % (namespace, key), flush=True)
        if key not in SETTINGS.get(namespace, {}):
            raise NotFound("Requested setting not found")
        # The portal wraps the value in a second variant, as xdg-desktop-portal does: libadwaita
        # 1.2 unwraps two and crashes on a value wrapped once.
        value = SETTINGS[namespace][key]
        return type(value)(value, variant_level=2)

    @dbus.service.method(INTERFACE, in_signature="as", out_signature="a{sa{sv}}")
    def ReadAll(self, namespaces):
        print("read-all %s" % ",".join(namespaces), flush=True)
        return dbus.Dictionary({
            namespace: dbus.Dictionary(values, signature="sv") for namespace, values in SETTINGS.items()
            if any(namespace == pattern or (pattern.endswith("*") and namespace.startswith(pattern[:-1])) for pattern in namespaces)
            or not namespaces
        }, signature="sa{sv}")

    @dbus.service.method(dbus.PROPERTIES_IFACE, in_signature="ss", out_signature="v")
    def Get(self, interface, name):
        if interface == INTERFACE and name == "version":
            return dbus.UInt32(1)
        raise dbus.DBusException("no such property", name="org.freedesktop.DBus.Error.InvalidArgs")


dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
bus = dbus.SessionBus()
portal = Portal(bus, "/org/freedesktop/portal/desktop")
name = dbus.service.BusName("org.freedesktop.portal.Desktop", bus, do_not_queue=True)
print("ready", flush=True)
GLib.MainLoop().run()
