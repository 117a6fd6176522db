#!/usr/bin/python3
"""A desktop notification server for tests (issue 20): org.freedesktop.Notifications on the
session bus, as the Desktop Notifications Specification 1.2 defines it, answering every question
the way argv[1] says:

  allow    invokes the notification's first action (Allow, Record), then closes it (reason 2)
  deny     invokes its second action (Don't allow, Don't record), then closes it
  dismiss  closes it unanswered (reason 2)
  silent   never answers; CloseNotification closes it (reason 3)
  allow-later, deny-later
           as allow and deny, but only once the server gets SIGUSR1 (for every notification
           shown until then), as a person who answers a while later

Each Notify is printed as one line: "notify APP_ICON|SUMMARY|BODY|ACTIONS" (actions joined by
","), followed by "hint image-path=PATH" when it has that hint; each CloseNotification as
"closed ID", and "ready" once the name is owned.
"""
import signal
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
        self.waiting = []

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
        if "image-path" in hints:
            print("hint image-path=" + str(hints["image-path"]), flush=True)
        if BEHAVIOUR.endswith("-later"):
            self.waiting.append((notification, list(actions)))
        else:
            # The answer comes after the reply, as from a person.
            GLib.idle_add(self.answer, notification, list(actions))
        return notification

    @dbus.service.method(INTERFACE, in_signature="u", out_signature="")
    def CloseNotification(self, notification):
        print("closed %d" % notification, flush=True)
        self.NotificationClosed(notification, 3)

    def answer_waiting(self):
        waiting, self.waiting = self.waiting, []
        for notification, actions in waiting:
            self.answer(notification, actions)
        return True

    def answer(self, notification, actions):
        keys = actions[0::2]
        chosen = {"allow": 0, "deny": 1}.get(BEHAVIOUR.removesuffix("-later"))
        if chosen is not None and chosen < len(keys):
            # As Notifications 1.2 servers do: the token for the app an action starts, then the action.
            self.ActivationToken(notification, "test-activation-%d" % notification)
            self.ActionInvoked(notification, keys[chosen])
        if BEHAVIOUR != "silent":
            self.NotificationClosed(notification, 2)
        return False

    @dbus.service.signal(INTERFACE, signature="us")
    def ActionInvoked(self, notification, action):
        pass

    @dbus.service.signal(INTERFACE, signature="uu")
    def NotificationClosed(self, notification, reason):
        pass

    @dbus.service.signal(INTERFACE, signature="us")
    def ActivationToken(self, notification, token):
        pass


dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
session = dbus.SessionBus()
name = dbus.service.BusName(INTERFACE, session)
server = Server(session)
GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGUSR1, server.answer_waiting)
print("ready", flush=True)
GLib.MainLoop().run()
