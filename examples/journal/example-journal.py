#!/usr/bin/python3
"""Example Journal: the reference journal app for MediaBroker's suggestions (docs/journal-apps.md).

Its desktop file (org.example.Journal.desktop) declares

    X-MediaBroker-Suggestion-URL=examplejournal://suggestion/{id}

so when the person clicks *Write about it* on a suggestion, the broker starts

    example-journal.py examplejournal://suggestion/ID

with XDG_ACTIVATION_TOKEN set, which GTK 4 reads to take focus. The app asks the broker's picker
to open at that moment (PickMedia with the option "suggestion"), and appends what the person
shares to today's Markdown entry, ENTRIES/YYYY-MM-DD.md, where ENTRIES is $EXAMPLE_JOURNAL_DIR or
$XDG_DATA_HOME/example-journal. Started without a URL it asks the picker as any app would.

GTK 4 and D-Bus through PyGObject (Debian: python3-gi, gir1.2-gtk-4.0): nothing generated, no
other library.
"""

import os
import sys
from datetime import datetime
from urllib.parse import urlsplit

import gi

gi.require_version("Gtk", "4.0")
from gi.repository import Gio, GLib, Gtk  # noqa: E402

NAME = "org.mediabroker.MediaBroker1"
PATH = "/org/mediabroker/MediaBroker1"
INTERFACE = "org.mediabroker.MediaBroker1"
APP_ID = "org.example.Journal"


def suggestion_id(url):
    """The id in examplejournal://suggestion/ID, or None for any other URL."""
    parts = urlsplit(url)
    if parts.scheme != "examplejournal" or parts.netloc != "suggestion":
        return None
    ident = parts.path.strip("/")
    return ident if len(ident) == 32 and all(c in "0123456789abcdef" for c in ident) else None


def markdown_text(text):
    """A player's words as Markdown text: what would make a link, emphasis or a heading escaped."""
    out = []
    for char in " ".join(str(text).split()):
        if char in "\\`*_[]#<>|!":
            out.append("\\" + char)
        else:
            out.append(char)
    return "".join(out)


def entry_lines(results, when):
    """The Markdown a share adds to the entry: the moment's title, then each listen."""
    lines = ["", f"## {when:%H:%M} — listening"]
    moment = results.get("moment")
    if moment:
        lines += ["", f"*{markdown_text(moment.get('title', 'A moment'))}*"]
    lines.append("")
    for asset in results.get("assets", []):
        line = "- " + markdown_text(asset.get("title", "Untitled"))
        if asset.get("artist"):
            line += " — " + markdown_text(asset["artist"])
        lines.append(line)
    return "\n".join(lines) + "\n"


class Journal(Gtk.Application):
    def __init__(self):
        super().__init__(application_id=APP_ID, flags=Gio.ApplicationFlags.HANDLES_OPEN)
        self.window = None
        self.view = None
        self.bus = None

    def entries(self):
        folder = os.environ.get("EXAMPLE_JOURNAL_DIR") or os.path.join(
            os.environ.get("XDG_DATA_HOME") or os.path.expanduser("~/.local/share"), "example-journal")
        os.makedirs(folder, exist_ok=True)
        return folder

    def do_activate(self):
        self.show_window()
        self.pick(None)

    def do_open(self, files, n_files, hint):
        self.show_window()
        self.pick(suggestion_id(files[0].get_uri()) if files else None)

    def show_window(self):
        if self.window is None:
            self.window = Gtk.ApplicationWindow(application=self, title="Example Journal", default_width=480, default_height=360)
            self.view = Gtk.TextView(editable=False, wrap_mode=Gtk.WrapMode.WORD_CHAR)
            self.window.set_child(Gtk.ScrolledWindow(child=self.view))
        self.window.present()
        self.show_entry()

    def show_entry(self):
        path = os.path.join(self.entries(), f"{datetime.now():%Y-%m-%d}.md")
        text = open(path, encoding="utf-8").read() if os.path.exists(path) else "Nothing written today yet."
        self.view.get_buffer().set_text(text)

    def pick(self, suggestion):
        """PickMedia, at the suggestion when there is one; the Response comes as a signal."""
        self.hold()
        self.bus = Gio.bus_get_sync(Gio.BusType.SESSION)
        token = "journal%d" % os.getpid()
        sender = self.bus.get_unique_name()[1:].replace(".", "_")
        request = f"{PATH}/request/{sender}/{token}"
        # Subscribed before the call, as portal clients do, so the Response cannot come unheard.
        self.bus.signal_subscribe(NAME, "org.freedesktop.portal.Request", "Response", request, None,
                                  Gio.DBusSignalFlags.NONE, self.response)
        options = {"handle_token": GLib.Variant("s", token), "reason": GLib.Variant("s", "Write about this moment")}
        if suggestion:
            options["suggestion"] = GLib.Variant("s", suggestion)
        try:
            self.bus.call_sync(NAME, PATH, INTERFACE, "PickMedia", GLib.Variant("(sa{sv})", ("", options)),
                               None, Gio.DBusCallFlags.NONE, -1, None)
        except GLib.Error as error:
            print("example-journal: the broker refused to open its picker:", error.message, file=sys.stderr)
            self.release()

    def response(self, connection, sender, path, interface, signal, parameters):
        code, results = parameters.unpack()
        if code == 0:
            with open(os.path.join(self.entries(), f"{datetime.now():%Y-%m-%d}.md"), "a", encoding="utf-8") as entry:
                entry.write(entry_lines(results, datetime.now()))
            self.show_entry()
        self.release()
        if os.environ.get("EXAMPLE_JOURNAL_QUIT_AFTER_PICK"):
            self.quit()


if __name__ == "__main__":
    sys.exit(Journal().run(sys.argv))
