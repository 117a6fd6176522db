#!/usr/bin/env python3
"""Writes the fuzzer's seed corpus in FuzzInput's format (see Fuzz/FuzzInput.swift).

  seeds.py DIR                     the quirk shapes of mpris-quirks.md, one file per seed, into DIR
  seeds.py --from-busctl NAME DIR  a `busctl --json=short … GetAll` reply on stdin (a real player's
                                   Player properties) as metadata, listening-script and round-trip
                                   seeds named NAME-*

Values are written from (signature, python value) pairs, so the seeds carry D-Bus types exactly.
"""
import json
import struct
import sys
from pathlib import Path

# Target selectors: the first byte of an input (FuzzTarget.swift).
METADATA, LISTENING, RECENT, DONATION, SETTINGS, SINGLE, WIRE, MARSHALLING = range(8)


def text(tag, s):
    data = s.encode("utf-8")[:0xFFFF]
    return tag + struct.pack("<H", len(data)) + data


def enc(sig, value):
    """One value of D-Bus type `sig`."""
    if sig == "y": return b"y" + struct.pack("<B", value)
    if sig == "b": return b"b" + bytes([1 if value else 0])
    if sig == "n": return b"n" + struct.pack("<h", value)
    if sig == "q": return b"q" + struct.pack("<H", value)
    if sig == "i": return b"i" + struct.pack("<i", value)
    if sig == "u": return b"u" + struct.pack("<I", value)
    if sig == "x": return b"x" + struct.pack("<q", value)
    if sig == "t": return b"t" + struct.pack("<Q", value)
    if sig == "d": return b"d" + struct.pack("<d", value)
    if sig == "s": return text(b"s", value)
    if sig == "o": return text(b"o", value)
    if sig == "g": return text(b"g", value)
    if sig == "v":
        inner_sig, inner = value
        return b"v" + enc(inner_sig, inner)
    if sig == "a{sv}":
        items = list(value.items())[:255]
        out = b"e" + bytes([len(items)])
        for key, (vsig, v) in items:
            k = key.encode()[:255]
            out += bytes([len(k)]) + k + enc(vsig, v)
        return out
    if sig.startswith("a{"):
        ksig, vsig = sig[2], sig[3:-1]
        items = list(value.items())[:255]
        out = b"E" + bytes([len(items)])
        for k, v in items:
            out += enc(ksig, k) + enc(vsig, v)
        return out
    if sig.startswith("a"):
        element = sig[1:]
        return b"a" + struct.pack("<H", len(value)) + b"".join(enc(element, v) for v in value)
    if sig.startswith("("):
        fields = split_struct(sig)
        return b"r" + bytes([len(fields)]) + b"".join(enc(f, v) for f, v in zip(fields, value))
    raise ValueError(f"unsupported signature {sig}")


def split_struct(sig):
    """'(sai)' → ['s', 'ai']"""
    inner, parts, i = sig[1:-1], [], 0
    while i < len(inner):
        j = end_of_type(inner, i)
        parts.append(inner[i:j])
        i = j
    return parts


def end_of_type(sig, i):
    c = sig[i]
    if c == "a": return end_of_type(sig, i + 1)
    if c in "({":
        close, depth, j = {"(": ")", "{": "}"}[c], 0, i
        while True:
            if sig[j] in "({": depth += 1
            if sig[j] in ")}": depth -= 1
            j += 1
            if depth == 0: return j
    return i + 1


def repeated_string(piece, count):
    """`S`: piece repeated `count` times (0xFFFF: a megabyte)."""
    data = piece.encode()[:255]
    return b"S" + bytes([len(data)]) + data + struct.pack("<H", count)


def nested_variants(depth, inner):
    return b"V" + bytes([depth]) + inner


def vardict_raw(entries):
    """An `e` whose values are already encoded bytes."""
    out = b"e" + bytes([len(entries)])
    for key, encoded in entries:
        k = key.encode()
        out += bytes([len(k)]) + k + encoded
    return out


def md(**fields):
    return ("a{sv}", fields)


def s(v): return ("s", v)
def o(v): return ("o", v)
def x(v): return ("x", v)
def strs(*v): return ("as", list(v))


# The shapes of mpris-quirks.md, as players send them.
QUIRKS = {
    "q01-artist-as-string": md(**{"xesam:title": s("Song"), "xesam:artist": s("Solo Artist"), "mpris:length": x(200_000_000)}),
    "q02-length-t": md(**{"xesam:title": s("Spotify"), "mpris:length": ("t", 215_000_000)}),
    "q02-length-d": md(**{"xesam:title": s("smplayer"), "mpris:length": ("d", 215000000.0)}),
    "q02-length-string": md(**{"xesam:title": s("Amberol"), "mpris:length": s("215000000")}),
    "q02-length-negative-i": md(**{"xesam:title": s("Cantata"), "mpris:length": ("i", -1294967296)}),
    "q02-length-ms": md(**{"xesam:title": s("DeaDBeeF"), "mpris:length": x(215_000)}),
    "q03-trackid-string": md(**{"mpris:trackid": s("spotify:track:4uLU6hMCjMI75M1A2tKUQC"), "xesam:title": s("Never")}),
    "q04-firefox-same-trackid": md(**{"mpris:trackid": o("/org/mpris/MediaPlayer2/firefox"), "xesam:title": s("Video")}),
    "q04-no-trackid": md(**{"xesam:title": s("Strawberry"), "xesam:album": s("A")}),
    "q05-firefox-placeholder": md(**{"xesam:title": s("Firefox is playing media"), "xesam:artist": strs("")}),
    "q05-spotify-connect-album-only": md(**{"xesam:album": s("Only an album")}),
    "q05-empty": md(),
    "q06-rtl-emoji": md(**{"xesam:title": s("\u05e9\u05dc\u05d5\u05dd \U0001F469\U0001F3FD\u200d\U0001F4BB \u202eevil"), "xesam:artist": strs("\u0645\u0631\u062d\u0628\u0627")}),
    "q06-many-artists": md(**{"xesam:title": s("Crowd"), "xesam:artist": strs(*[f"Artist {i}" for i in range(40)])}),
    "q12-playlists-shape": ("a{sv}", {"Orderings": ("as", ["Alphabetical"]), "PlaylistCount": ("u", 3)}),
    "q18-brave-tmp-art": md(**{"xesam:title": s("Clip"), "mpris:artUrl": s("file:///tmp/.org.chromium.Chromium.abc")}),
    "q19-notrack": md(**{"mpris:trackid": o("/org/mpris/MediaPlayer2/TrackList/NoTrack")}),
    "q23-spotify-ad": md(**{"mpris:trackid": s("spotify:ad:000000012c8f3f4b"), "xesam:title": s("Advertisement")}),
    "exclude-flag": md(**{"xesam:title": s("Private"), "mediabroker:exclude": ("b", True)}),
    "exclude-flag-string": md(**{"xesam:title": s("Private"), "mediabroker:exclude": s("no")}),
    "vendor-keys": md(**{"xesam:title": s("Vendor"), "vlc:time": ("u", 12), "xesam:comment": strs("c"),
                         "xesam:url": s("file:///music/a%20b.flac"), "xesam:genre": s("Rock")}),
    "array-of-variants": md(**{"xesam:title": s("V"), "xesam:artist": ("av", [("s", "A"), ("i", 3), ("s", "B")])}),
}


def listening_script(tracks, rule=0):
    """A script: play each track, let time pass, change status; then stop."""
    out = bytes([LISTENING]) + struct.pack("<I", 2_000_000) + bytes([rule, 1])
    for track in tracks:
        out += bytes([7]) + struct.pack("<H", 1) + bytes([2]) + enc(*track)          # metadata
        out += bytes([7]) + struct.pack("<H", 1) + bytes([1, 0])                    # Playing
        out += bytes([7]) + struct.pack("<H", 3000) + bytes([6])                    # tick, 30 s later
        out += bytes([7]) + struct.pack("<H", 1) + bytes([5]) + enc("x", 0)         # Seeked to 0
        out += bytes([7]) + struct.pack("<H", 3000) + bytes([1, 1])                 # Paused
        out += bytes([7]) + struct.pack("<H", 100) + bytes([1, 0])                  # Playing again
        out += bytes([7]) + struct.pack("<H", 30000) + bytes([6])                   # 300 s: a listen
    out += bytes([7]) + struct.pack("<H", 1) + bytes([1, 2])                        # Stopped
    return out


def write(directory, name, data):
    path = Path(directory) / name
    path.write_bytes(data)


def quirk_seeds(directory):
    Path(directory).mkdir(parents=True, exist_ok=True)
    for name, (sig, value) in QUIRKS.items():
        write(directory, f"metadata-{name}", bytes([METADATA]) + enc(sig, value))
    write(directory, "listening-quirks", listening_script(list(QUIRKS.values())[:12]))
    write(directory, "listening-quirks-2", listening_script(list(QUIRKS.values())[12:], rule=1))

    # Issue 6 §2: the hostile shapes.
    megabyte = repeated_string("ab\u00e9", 0xFFFF)
    write(directory, "hostile-1mb-title", bytes([METADATA]) + vardict_raw([("xesam:title", b"v" + megabyte)]))
    write(directory, "hostile-10000-artists",
          bytes([METADATA]) + vardict_raw([("xesam:title", enc("s", "T")),
                                            ("xesam:artist", b"A" + struct.pack("<H", 10_000) + enc("s", "Same"))]))
    write(directory, "hostile-variants-64-deep",
          bytes([METADATA]) + nested_variants(64, vardict_raw([("xesam:title", nested_variants(64, enc("s", "Deep")))])))
    wrong = [enc("y", 1), enc("b", True), enc("i", -7), enc("d", float("nan")), enc("g", "a{sv}"),
             enc("ai", [1]), enc("(si)", ["a", 1]), enc("a{sv}", {"k": ("s", "v")})]
    keys = ["mpris:trackid", "mpris:length", "xesam:title", "xesam:artist", "xesam:album", "xesam:albumArtist",
            "xesam:genre", "xesam:url", "mediabroker:exclude"]
    for index, value in enumerate(wrong):
        write(directory, f"hostile-wrong-types-{index}",
              bytes([METADATA]) + vardict_raw([(key, b"v" + value) for key in keys]))

    # Client input.
    write(directory, "recent-typical", bytes([RECENT]) + enc("a{sv}", {"limit": ("u", 50), "since": ("x", 1_700_000_000_000_000),
                                                                       "app_id": ("s", "mpv")}))
    write(directory, "recent-hostile", bytes([RECENT]) + enc("a{sv}", {"limit": ("t", 2**64 - 1), "since": ("i", -5),
                                                                       "before_id": ("x", 0), "bogus": ("b", True)}))
    write(directory, "donation-typical", bytes([DONATION]) + struct.pack("<Q", 1_700_000_000_000_000 << 2) + enc("a{sv}", {
        "app_id": ("s", "org.gnome.Podcasts"), "title": ("s", "Episode 12"), "artists": ("as", ["Host"]),
        "length": ("x", 1_800_000_000), "listened": ("x", 1_500_000_000), "kind": ("s", "podcast")}))
    write(directory, "donation-hostile", bytes([DONATION]) + struct.pack("<Q", 1_700_000_000_000_000 << 2) + enc("a{sv}", {
        "app_id": ("s", "../../etc/passwd"), "title": ("s", ""), "started": ("x", -1), "ended": ("x", 2**63 - 1)}))
    write(directory, "settings-typical", bytes([SETTINGS]) + b"media_enabled=1\nretention_days=90\nopt_out=user:spotify\nopt_out=app:firefox\n")
    write(directory, "settings-hostile", bytes([SETTINGS]) + b"media_enabled=2\nretention_days=-1\nopt_out=x\n\x00\xff")
    write(directory, "single-values", bytes([SINGLE]) + enc("s", "Playing") + enc("s", " paused ") + enc("d", 1.5)
          + enc("s", "1e308") + enc("x", -(2**63)) + enc("t", 2**64 - 1) + enc("v", ("s", "Stopped")))
    write(directory, "marshalling-playerlike", bytes([MARSHALLING, 2]) + enc("s", "org.mpris.MediaPlayer2.Player")
          + enc(*QUIRKS["vendor-keys"]))


def from_busctl(name, directory):
    """A `busctl --json=short call … GetAll s org.mpris.MediaPlayer2.Player` reply → seeds."""
    reply = json.load(sys.stdin)
    properties = reply["data"][0]

    def convert(sig, data):
        if sig == "v": return (data["type"], convert(data["type"], data["data"]))
        if sig == "a{sv}": return {k: convert("v", v) for k, v in data.items()}
        if sig.startswith("a{"):
            return {k: convert(sig[3:-1], v) for k, v in data.items()}
        if sig.startswith("a"): return [convert(sig[1:], v) for v in data]
        if sig.startswith("("): return [convert(f, v) for f, v in zip(split_struct(sig), data)]
        return data

    Path(directory).mkdir(parents=True, exist_ok=True)
    props = {k: convert("v", v) for k, v in properties.items()}
    if "Metadata" in props:
        sig, metadata = props["Metadata"]
        write(directory, f"{name}-metadata", bytes([METADATA]) + enc(sig, metadata))
        write(directory, f"{name}-listening", listening_script([(sig, metadata)]))
    write(directory, f"{name}-getall", bytes([MARSHALLING, 0]) + enc("a{sv}", props))
    print(f"seeds.py: wrote {name}-* from {len(props)} properties", file=sys.stderr)


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--from-busctl":
        from_busctl(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 2:
        quirk_seeds(sys.argv[1])
    else:
        sys.exit(__doc__)
