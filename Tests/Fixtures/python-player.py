#!/usr/bin/python3
"""An MPRIS player written in Python, as MPRIS bridges and scripted players are (issue 31).

  python-player.py NAME DESKTOP_ENTRY IDENTITY TITLE [ART_URL]

Owns org.mpris.MediaPlayer2.NAME and serves the root interface (DesktopEntry, Identity; an empty
DESKTOP_ENTRY is left out) and the Player interface. Prints "ready" once it owns its name, then
plays TITLE at once. SIGUSR1 stops it (PlaybackStatus "Stopped", announced as players do);
SIGTERM ends it. The broker sees /proc/PID/exe as the Python interpreter. ART_URL is the track's
mpris:artUrl; with WRITE_ART set in the environment, the player first writes a file there (a
file:// URL) holding a PNG signature and WRITE_ART's text, as browsers write their art files.
"""
import os
import signal
import sys

import dbus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

ROOT = "org.mpris.MediaPlayer2"
PLAYER = "org.mpris.MediaPlayer2.Player"
PROPERTIES = "org.freedesktop.DBus.Properties"


class Player(dbus.service.Object):
    def __init__(self, bus, desktop_entry, identity, title, art_url):
        super().__init__(bus, "/org/mpris/MediaPlayer2")
        self.root = {"Identity": identity, "CanQuit": False, "CanRaise": False, "HasTrackList": False,
                     "SupportedUriSchemes": dbus.Array([], signature="s"),
                     "SupportedMimeTypes": dbus.Array([], signature="s")}
        if desktop_entry:
            self.root["DesktopEntry"] = desktop_entry
        metadata = dbus.Dictionary({"mpris:trackid": dbus.ObjectPath("/org/example/track/1"),
                                    "xesam:title": title, "mpris:length": dbus.Int64(240_000_000)}, signature="sv")
        if art_url:
            metadata["mpris:artUrl"] = art_url
        self.player = {"PlaybackStatus": "Playing", "Metadata": metadata, "Position": dbus.Int64(0),
                       "Rate": 1.0, "CanPlay": True, "CanPause": True, "CanSeek": False, "CanControl": True}

    def values(self, interface):
        if interface == ROOT:
            return self.root
        if interface == PLAYER:
            return self.player
        raise dbus.exceptions.DBusException("no interface " + interface,
                                            name="org.freedesktop.DBus.Error.UnknownInterface")

    @dbus.service.method(PROPERTIES, in_signature="ss", out_signature="v")
    def Get(self, interface, name):
        return self.values(interface)[name]

    @dbus.service.method(PROPERTIES, in_signature="s", out_signature="a{sv}")
    def GetAll(self, interface):
        return dbus.Dictionary(self.values(interface), signature="sv")

    @dbus.service.signal(PROPERTIES, signature="sa{sv}as")
    def PropertiesChanged(self, interface, changed, invalidated):
        pass

    def stop(self):
        self.player["PlaybackStatus"] = "Stopped"
        self.PropertiesChanged(PLAYER, dbus.Dictionary({"PlaybackStatus": "Stopped"}, signature="sv"),
                               dbus.Array([], signature="s"))


def main():
    name, desktop_entry, identity, title = sys.argv[1:5]
    art_url = sys.argv[5] if len(sys.argv) > 5 else ""
    if art_url.startswith("file://") and os.environ.get("WRITE_ART"):
        with open(art_url[len("file://"):], "wb") as art:
            art.write(b"\x89PNG\r\n\x1a\n" + os.environ["WRITE_ART"].encode())
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    player = Player(bus, desktop_entry, identity, title, art_url)
    owned = dbus.service.BusName(ROOT + "." + name, bus, do_not_queue=True)
    loop = GLib.MainLoop()
    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGUSR1, lambda: player.stop() or True)
    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGTERM, lambda: loop.quit() or False)
    print("ready", owned.get_name(), flush=True)
    loop.run()


main()
