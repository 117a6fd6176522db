#!/usr/bin/python3
"""An app that lends its bus connection to whatever process gets its pid next (issue 32, item 1).

  borrowed-pid.py FIFO APP_ID

The connecting process prints "name UNIQUE_NAME", forks a keeper that holds the connection, and
exits without a word to the bus; the first process then prints "connector exited". When the test
writes to FIFO (a named pipe it made), the keeper calls the broker on the connection it kept —
RecentMedia, SetReaderAccess(APP_ID, allowed), Purge({all}) — printing "read COUNT", "granted" and
"purged", or "refused ERROR" for each, and exits; then so does the first process. With CGROUP_PROCS
set (a cgroup's cgroup.procs, a snap's scope), the first process moves itself there before anything
else, as snapd places a snap's processes.
"""
import os
import sys

import dbus

fifo, app_id = sys.argv[1], sys.argv[2]
if os.environ.get("CGROUP_PROCS"):
    with open(os.environ["CGROUP_PROCS"], "w") as procs:
        procs.write(str(os.getpid()))


def attempt(label, call):
    try:
        result = call()
        print(label if result is None else "%s %d" % (label, len(result)), flush=True)
    except dbus.exceptions.DBusException as error:
        print("refused", error.get_dbus_name(), flush=True)


keeper_gone, keeper_alive = os.pipe()
connector = os.fork()
if connector == 0:
    os.close(keeper_gone)
    bus = dbus.SessionBus()
    print("name", bus.get_unique_name(), flush=True)
    if os.fork() != 0:
        os._exit(0)  # the socket stays open in the keeper
    with open(fifo) as trigger:
        trigger.read()
    broker = dbus.Interface(
        bus.get_object("org.mediabroker.MediaBroker1", "/org/mediabroker/MediaBroker1", introspect=False),
        "org.mediabroker.MediaBroker1")
    attempt("read", lambda: broker.RecentMedia(dbus.Dictionary({}, signature="sv")))
    attempt("granted", lambda: broker.SetReaderAccess(app_id, "allowed"))
    attempt("purged", lambda: [broker.Purge(dbus.Dictionary({"all": True}, signature="sv"))] and None)
    os._exit(0)

os.close(keeper_alive)
os.waitpid(connector, 0)
print("connector exited", flush=True)
os.read(keeper_gone, 1)  # end of file: the keeper has gone
