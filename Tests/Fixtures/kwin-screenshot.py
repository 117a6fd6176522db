#!/usr/bin/python3
"""Takes a picture of part of KWin's screen, as Spectacle does (issue 36):

  kwin-screenshot.py X Y WIDTH HEIGHT PNG

asks org.kde.KWin.ScreenShot2.CaptureArea for that rectangle, in logical pixels (a window's frame:
a window of its own would bring the shadow GTK draws around it, in black), at the screen's own
resolution (twice the size on a 2× screen), reads the raw image KWin writes into
the pipe it is given, saves it as PNG at PNG and prints "WIDTH HEIGHT". KWin answers only callers a desktop file
grants the interface, or any when it runs with KWIN_SCREENSHOT_NO_PERMISSION_CHECKS=1.
"""
import os
import struct
import sys
import zlib

import dbus

# QImage::Format_ARGB32 and _Premultiplied: 32-bit words 0xAARRGGBB, so B, G, R, A in memory here.
ARGB32 = {5, 6}

bus = dbus.SessionBus()
shots = dbus.Interface(bus.get_object("org.kde.KWin", "/org/kde/KWin/ScreenShot2"), "org.kde.KWin.ScreenShot2")
read_end, write_end = os.pipe()
x, y, width, height = (int(value) for value in sys.argv[1:5])
results = shots.CaptureArea(x, y, dbus.UInt32(width), dbus.UInt32(height), dbus.Dictionary({"native-resolution": True}, signature="sv"),
                            dbus.types.UnixFd(write_end))
os.close(write_end)
chunks = []
while True:
    chunk = os.read(read_end, 1 << 20)
    if not chunk:
        break
    chunks.append(chunk)
data = b"".join(chunks)
width, height, stride, image_format = (int(results[key]) for key in ("width", "height", "stride", "format"))
if image_format not in ARGB32 or len(data) < stride * height:
    sys.exit("unexpected image: format %d, %d bytes for %dx%d (stride %d)" % (image_format, len(data), width, height, stride))
rows = []
for y in range(height):
    row = data[y * stride:y * stride + width * 4]
    pixels = bytearray(width * 3)
    pixels[0::3], pixels[1::3], pixels[2::3] = row[2::4], row[1::4], row[0::4]
    rows.append(b"\0" + bytes(pixels))


def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


with open(sys.argv[5], "wb") as png:
    png.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
              + chunk(b"IDAT", zlib.compress(b"".join(rows))) + chunk(b"IEND", b""))
print(width, height, flush=True)
