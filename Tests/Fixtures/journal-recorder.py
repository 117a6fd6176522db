#!/usr/bin/python3
"""A stand-in journal app for tests (issue 35): records how the broker started it — its
arguments and the activation token in its environment — as one JSON object in the file
$JOURNAL_RECORD (written aside, then renamed, so a reader never sees half of it), and exits."""
import json
import os
import sys

record = os.environ["JOURNAL_RECORD"]
with open(record + ".part", "w") as out:
    json.dump({
        "arguments": sys.argv[1:],
        "XDG_ACTIVATION_TOKEN": os.environ.get("XDG_ACTIVATION_TOKEN"),
        "DESKTOP_STARTUP_ID": os.environ.get("DESKTOP_STARTUP_ID"),
    }, out)
os.rename(record + ".part", record)
