#!/usr/bin/python3
"""Drives a picker or settings window as a person would, through the accessibility tree (AT-SPI).

    picker-driver.py WINDOW-TITLE[@TEXT] STEP...

Finds the application window whose title starts with WINDOW-TITLE — and, with @TEXT, that shows
a control whose name holds TEXT (one app's picker among two) — waiting up to 20 s, then runs each
step in order:

    press:NAME     activates the button named NAME (its AT-SPI action)
    toggle:NAME    flips the check box or switch named NAME with a click of the mouse at its middle,
                   as GTK 4.8's check boxes and switches expose no AT-SPI action and cannot be
                   focused through AT-SPI (their extents are the window's, so its origin is added)
    type:NAME=TEXT replaces what the text field named NAME holds with TEXT, as typing would (its
                   AT-SPI EditableText), and waits until the field reads TEXT
    keys:KEYS      gives the window the keyboard and types KEYS (xdotool key names, separated by
                   spaces: Tab, Return, space, alt+s)
    focused:NAME   fails unless the control named NAME has the keyboard focus
    expect:NAME    fails unless something named NAME is showing (a label, a control)
    disabled:NAME  fails unless a button named NAME shows, unavailable (greyed out)
    control:NAME   fails unless a button, check box or switch named NAME is showing
    roles          prints every named node showing as ROLE<TAB>NAME, once two reads agree
    extents:NAME   prints where the control named NAME is, in the window: X<TAB>Y<TAB>WIDTH<TAB>HEIGHT,
                   once two reads agree
    controls       prints every control showing (button, check box, switch…) as ROLE<TAB>NAME,
                   named or not, once two reads agree
    gone           waits until the window has gone

Each wait has a deadline; a step that cannot be done exits 1 with the reason on stderr.
"""
import re
import subprocess
import sys
import time

import pyatspi
from gi.repository import GLib

DEADLINE = 20.0


def fail(message):
    print("picker-driver: " + message, file=sys.stderr)
    sys.exit(1)


def windows(title, text=None):
    found = []
    desktop = pyatspi.Registry.getDesktop(0)
    for app in desktop:
        if app is None:
            continue
        try:
            for window in app:
                if window is not None and window.name.startswith(title) and (
                        text is None or any(text in (node.name or "") for node in walk(window))):
                    found.append(window)
        except Exception:
            continue
    return found


def wait_for(what, probe):
    # Controls come and go while the window changes (a list rebuilt, a page replaced): one that
    # went while being looked at is looked for again.
    end = time.monotonic() + DEADLINE
    last = None
    while time.monotonic() < end:
        try:
            result = probe()
        except Exception as error:
            result, last = None, error
        if result:
            return result
        time.sleep(0.05)
    fail("timed out waiting for " + (what() if callable(what) else what) + (" (last error: %s)" % last if last else ""))


class settled:
    """A probe for wait_for: what `read` returns, once two reads in a row agree and find something.

    A page being replaced, or a control being laid out, reads as nothing or as part of each page
    for a moment."""

    def __init__(self, read):
        self.read, self.last = read, None

    def __call__(self):
        value = self.read()
        agreed = value if value and value == self.last else None
        self.last = value
        return agreed


def named_nodes(window):
    names = []
    for node in walk(window):
        try:
            if node.name and showing(node):
                names.append(node.getRoleName() + "\t" + node.name)
        except GLib.GError:
            continue  # a node of a page going away as it is read
    return names


def describe_controls(window):
    return "; ".join("%s %r" % (node.getRoleName(), node.name) for node in walk(window)
                     if node.getRoleName() in BUTTONS | TOGGLES | FIELDS and showing(node)) or "none"


def describe_windows():
    names = []
    for app in pyatspi.Registry.getDesktop(0):
        try:
            names += ["%s: %s" % (app.name, window.name) for window in app if window is not None]
        except Exception as error:
            names.append(str(error))
    return "; ".join(names) or "none"


def showing(node):
    try:
        return node.getState().contains(pyatspi.STATE_VISIBLE)
    except Exception:
        return False


def walk(node):
    try:
        children = list(node)
    except Exception:
        return
    for child in children:
        if child is None:
            continue
        yield child
        yield from walk(child)


BUTTONS = {"push button"}
TOGGLES = {"check box", "toggle button", "switch", "radio button"}
FIELDS = {"entry", "text", "password text"}


def enabled(node):
    try:
        return node if node is not None and node.getState().contains(pyatspi.STATE_SENSITIVE) else None
    except Exception:
        return None


def spoken(node):
    # GTK 4.8 names a button whose label property is set and whose child is that label by both:
    # libadwaita's dialog answers read "Cancel Cancel". Such a name is taken as said once.
    name = node.name or ""
    half = len(name) // 2
    if len(name) % 2 == 1 and name[half] == " " and name[:half] == name[half + 1:]:
        return name[:half]
    return name


def find(window, name, roles=None):
    return next((n for n in walk(window)
                 if spoken(n) == name and showing(n) and (roles is None or n.getRoleName() in roles)), None)


def checked_state(window, name):
    # A list rebuilt after a press may still show its old rows for a moment: a row that has gone
    # is looked for again.
    try:
        node = find(window, name, TOGGLES)
        return (node, node.getState().contains(pyatspi.STATE_CHECKED)) if node else None
    except Exception:
        return None


def field_text(node):
    text = node.queryText()
    return text.getText(0, text.characterCount)


def x_windows(window):
    out = subprocess.run(["xdotool", "search", "--name", "^" + re.escape(window.name) + "$"], capture_output=True, text=True)
    return out.stdout.split()


def describe_focus(window):
    return "; ".join("%s %r" % (node.getRoleName(), node.name) for node in walk(window)
                     if node.getState().contains(pyatspi.STATE_FOCUSED)) or "none"


def window_origin(window):
    xids = x_windows(window)
    if not xids:
        fail("no X window is titled " + window.name)
    geometry = subprocess.run(["xdotool", "getwindowgeometry", "--shell", xids[0]], capture_output=True, text=True).stdout
    values = dict(line.split("=", 1) for line in geometry.split() if "=" in line)
    return int(values["X"]), int(values["Y"])


def click(window, node):
    extents = node.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
    x, y = window_origin(window)
    subprocess.run(["xdotool", "mousemove", "--sync", str(x + extents.x + extents.width // 2),
                    str(y + extents.y + extents.height // 2), "click", "1"], check=True)


def main():
    if len(sys.argv) < 3:
        fail(__doc__)
    title, _, text = sys.argv[1].partition("@")
    text = text or None
    found = {}

    def window():
        # Looked for on the first step that needs it: "gone" alone needs none.
        if "window" not in found:
            found["window"] = wait_for(lambda: "a window titled " + sys.argv[1] + " (windows: " + describe_windows() + ")",
                                       lambda: next(iter(windows(title, text)), None))
        return found["window"]

    for step in sys.argv[2:]:
        verb, _, name = step.partition(":")
        if verb == "press":
            # A person waits for a button to be enabled before pressing it.
            node = wait_for(lambda: name + ", enabled (controls: " + describe_controls(window()) + ")",
                            lambda: enabled(find(window(), name, BUTTONS)))
            action = node.queryAction()
            if action.nActions < 1:
                fail(name + " has no action")
            action.doAction(0)
        elif verb == "toggle":
            node, was = wait_for(lambda: name + " (controls: " + describe_controls(window()) + ")",
                                 lambda: checked_state(window(), name))
            click(window(), node)
            wait_for(name + " to flip", lambda: node.getState().contains(pyatspi.STATE_CHECKED) != was)
        elif verb == "type":
            field, _, typed = name.partition("=")
            node = wait_for(lambda: "a text field named " + field + ", enabled (controls: " + describe_controls(window()) + ")",
                            lambda: enabled(find(window(), field, FIELDS)))
            if not node.queryEditableText().setTextContents(typed):
                fail(field + " did not take the text")
            wait_for(lambda: field + " to read " + repr(typed) + " (it reads " + repr(field_text(node)) + ")",
                     lambda: field_text(node) == typed)
        elif verb == "keys":
            for xid in x_windows(window()):
                subprocess.run(["xdotool", "windowfocus", "--sync", xid], check=True)
            for key in name.split():
                # X delivers keys in order and GTK handles each before the next: no pause needed.
                subprocess.run(["xdotool", "key", "--clearmodifiers", key], check=True)
        elif verb == "focused":
            wait_for(lambda: name + " to have the focus (focused: " + describe_focus(window()) + ")",
                     lambda: any(node.name == name and node.getState().contains(pyatspi.STATE_FOCUSED)
                                 for node in walk(window())))
        elif verb == "expect":
            wait_for(name, lambda: find(window(), name))
        elif verb == "disabled":
            wait_for(lambda: name + ", disabled (controls: " + describe_controls(window()) + ")",
                     lambda: (lambda node: node is not None and not enabled(node))(find(window(), name, BUTTONS)))
        elif verb == "control":
            wait_for(lambda: "a control named " + name + " (controls: " + describe_controls(window()) + ")",
                     lambda: find(window(), name, BUTTONS | TOGGLES))
        elif verb == "roles":
            names = settled(lambda: named_nodes(window()))
            print("\n".join(wait_for(lambda: "the window's names to settle (last read: %r)" % names.last, names)))
        elif verb == "extents":
            def box():
                node = find(window(), name, BUTTONS | TOGGLES)
                extents = node.queryComponent().getExtents(pyatspi.WINDOW_COORDS) if node else None
                return (extents.x, extents.y, extents.width, extents.height) if extents and extents.width > 0 else None
            where = settled(box)
            print("\t".join(str(value) for value in wait_for(lambda: "a control named " + name + " to stand still (last read: %r)" % (where.last,), where)))
        elif verb == "controls":
            listing = settled(lambda: [node.getRoleName() + "\t" + (node.name or "") for node in walk(window())
                                       if node.getRoleName() in BUTTONS | TOGGLES | {"spin button", "slider", "entry", "link"} and showing(node)])
            print("\n".join(wait_for(lambda: "the window's controls to settle (last read: %r)" % listing.last, listing)))
        elif verb == "gone":
            wait_for("the window to go", lambda: not windows(title, text))
        else:
            fail("unknown step " + step)

main()
