#!/usr/bin/python3
"""A desktop notification server for tests (issue 20): org.freedesktop.Notifications on the
session bus, as the Desktop Notifications Specification 1.2 defines it, answering every question
the way argv[1] says:

  allow    invokes the action "allow", then closes the notification (reason 2, dismissed)
  deny     invokes the action "deny", then closes it
  dismiss  closes it unanswered (reason 2)
  silent   never answers; CloseNotification closes it (reason 3)

Each Notify is printed as one line: "notify APP_ICON|SUMMARY|BODY|ACTIONS" (actions joined by
","), then "ready" once the name is owned.
"""
import sys

import dbus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

INTERFACE = "org.freedesktop.Notifications"
BEHAVIOUR = sys.argv[1]


class Server(dbus.service.Object):
    def __init__(self, bus):
        super().__init__(bus, "/org/freedesktop/Notifications")
        self.last_id = 0

    @dbus.service.method(INTERFACE, in_signature="", out_signature="as")
    def GetCapabilities(self):
        return ["actions", "body"]

    @dbus.service.method(INTERFACE, in_signature="", out_signature="ssss")
    def GetServerInformation(self):
        return ("test-notifications", "mediabroker", "1", "1.2")

    @dbus.service.method(INTERFACE, in_signature="susssasa{sv}i", out_signature="u")
    def Notify(self, app_name, replaces_id, app_icon, summary, body, actions, hints, expire_timeout):
        self.last_id += 1
        notification = self.last_id
        print("notify " + "|".join([app_icon, summary, body.replace("\n", " "), ",".join(actions)]), flush=True)
        # The answer comes after the reply, as from a person.
        GLib.idle_add(self.answer, notification)
        return notification

    @dbus.service.method(INTERFACE, in_signature="u", out_signature="")
    def CloseNotification(self, notification):
        self.NotificationClosed(notification, 3)

    def answer(self, notification):
        if BEHAVIOUR in ("allow", "deny"):
            self.ActionInvoked(notification, BEHAVIOUR)
        if BEHAVIOUR != "silent":
            self.NotificationClosed(notification, 2)
        return False

    @dbus.service.signal(INTERFACE, signature="us")
    def ActionInvoked(self, notification, action):
        pass

    @dbus.service.signal(INTERFACE, signature="uu")
    def NotificationClosed(self, notification, reason):
        pass


dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
session = dbus.SessionBus()
name = dbus.service.BusName(INTERFACE, session)
server = Server(session)
print("ready", flush=True)
GLib.MainLoop().run()
