#!/usr/bin/python3
"""A journaling app talking to the broker, as a sandboxed test client runs it (issue 20).

  app.py ask [REASON]         RequestAccess; prints "answer ANSWER" or "refused ERROR MESSAGE"
  app.py donate COUNT [APP]   COUNT donations as fast as it can, with app_id APP if given; prints
                              "ok ID" or "refused ERROR" for each, then "seconds ELAPSED"
  app.py donate-as NAME ICON [APP]
                              one donation naming its app NAME with the icon at path ICON (and
                              app_id APP if given); prints "ok ID" or "refused ERROR"
  app.py huge COUNT           RecentMedia with an `app_id` filter of COUNT strings, then Donate with
                              COUNT artists (issue 32, item 8); prints "ok METHOD" or
                              "refused METHOD ERROR MESSAGE" for each
"""
import sys
import time

import dbus

BROKER = "org.mediabroker.MediaBroker1"
bus = dbus.SessionBus()
broker = bus.get_object(BROKER, "/org/mediabroker/MediaBroker1", introspect=False)
interface = dbus.Interface(broker, BROKER)


def donate(media, app_id):
    """One Donate of `media` (with `app_id` if given); prints "ok ID" or "refused ERROR"."""
    if app_id:
        media["app_id"] = app_id
    try:
        print("ok", interface.Donate(dbus.Dictionary(media, signature="sv")), flush=True)
    except dbus.exceptions.DBusException as error:
        print("refused", error.get_dbus_name(), flush=True)


if sys.argv[1] == "ask":
    options = dbus.Dictionary({"reason": sys.argv[2]} if len(sys.argv) > 2 else {}, signature="sv")
    try:
        # The broker waits up to two minutes for the person: the call waits longer.
        print("answer", interface.RequestAccess(options, timeout=150), flush=True)
    except dbus.exceptions.DBusException as error:
        print("refused", error.get_dbus_name(), error.get_dbus_message(), flush=True)
elif sys.argv[1] == "donate":
    start = time.monotonic()
    for number in range(int(sys.argv[2])):
        donate({"title": "Sandboxed donation %d" % (number + 1)}, sys.argv[3] if len(sys.argv) > 3 else None)
    print("seconds %.3f" % (time.monotonic() - start), flush=True)
elif sys.argv[1] == "donate-as":
    donate({"title": "Donated as %s" % sys.argv[2], "app_name": sys.argv[2], "app_icon": sys.argv[3]},
           sys.argv[4] if len(sys.argv) > 4 else None)
elif sys.argv[1] == "huge":
    strings = dbus.Array(["a"] * int(sys.argv[2]), signature="s")
    for method, argument in (("RecentMedia", {"app_id": strings}), ("Donate", {"app_id": "org.example.Journal", "title": "Huge", "artists": strings})):
        try:
            getattr(interface, method)(dbus.Dictionary(argument, signature="sv"), timeout=120)
            print("ok", method, flush=True)
        except dbus.exceptions.DBusException as error:
            print("refused", method, error.get_dbus_name(), error.get_dbus_message()[:300], flush=True)
