/* Writes wire-format seeds for the fuzzer's wire target (FuzzTarget.swift, selector 6): real
 * messages marshalled by libdbus, so mutations start from what passes dbus_message_demarshal's
 * validation. libdbus is not instrumented, so the fuzzer cannot find its way to a valid message on
 * its own (2 of 1,978 corpus inputs reached the target's reader before these seeds).
 *
 *   wireseeds DIR    writes DIR/wire-*; run by `Fuzz/run --seeds`
 */
#include <dbus/dbus.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sv_entry.h"

enum { WIRE_TARGET = 6 };

static void strings_entry(DBusMessageIter *dict, const char *key, int count, const char **items) {
    DBusMessageIter e, v, a;
    dbus_message_iter_open_container(dict, DBUS_TYPE_DICT_ENTRY, NULL, &e);
    dbus_message_iter_append_basic(&e, DBUS_TYPE_STRING, &key);
    dbus_message_iter_open_container(&e, DBUS_TYPE_VARIANT, "as", &v);
    dbus_message_iter_open_container(&v, DBUS_TYPE_ARRAY, "s", &a);
    for (int i = 0; i < count; i++) dbus_message_iter_append_basic(&a, DBUS_TYPE_STRING, &items[i]);
    dbus_message_iter_close_container(&v, &a);
    dbus_message_iter_close_container(&e, &v);
    dbus_message_iter_close_container(dict, &e);
}

/* An MPRIS Metadata a{sv} as mpv sends it. */
static void metadata(DBusMessageIter *dict) {
    const char *artists[] = {"Massive Attack", "Elizabeth Fraser"};
    const char *title = "Teardrop", *album = "Mezzanine", *url = "file:///music/teardrop.ogg";
    const char *trackid = "/org/mpv/Track/1";
    dbus_int64_t length = 330000000;
    entry_basic(dict, "mpris:trackid", DBUS_TYPE_OBJECT_PATH, "o", &trackid);
    entry_basic(dict, "xesam:title", DBUS_TYPE_STRING, "s", &title);
    strings_entry(dict, "xesam:artist", 2, artists);
    entry_basic(dict, "xesam:album", DBUS_TYPE_STRING, "s", &album);
    entry_basic(dict, "xesam:url", DBUS_TYPE_STRING, "s", &url);
    entry_basic(dict, "mpris:length", DBUS_TYPE_INT64, "x", &length);
}

static void properties(DBusMessageIter *it, int with_metadata) {
    DBusMessageIter dict, e, v, m;
    const char *status = "Playing", *key = "Metadata";
    double rate = 1.0;
    dbus_message_iter_open_container(it, DBUS_TYPE_ARRAY, "{sv}", &dict);
    if (with_metadata) {
        dbus_message_iter_open_container(&dict, DBUS_TYPE_DICT_ENTRY, NULL, &e);
        dbus_message_iter_append_basic(&e, DBUS_TYPE_STRING, &key);
        dbus_message_iter_open_container(&e, DBUS_TYPE_VARIANT, "a{sv}", &v);
        dbus_message_iter_open_container(&v, DBUS_TYPE_ARRAY, "{sv}", &m);
        metadata(&m);
        dbus_message_iter_close_container(&v, &m);
        dbus_message_iter_close_container(&e, &v);
        dbus_message_iter_close_container(&dict, &e);
    }
    entry_basic(&dict, "PlaybackStatus", DBUS_TYPE_STRING, "s", &status);
    entry_basic(&dict, "Rate", DBUS_TYPE_DOUBLE, "d", &rate);
    dbus_message_iter_close_container(it, &dict);
}

static int write_seed(const char *dir, const char *name, DBusMessage *message) {
    char *bytes = NULL, path[4096];
    int length = 0;
    dbus_message_set_serial(message, 7);
    if (!dbus_message_marshal(message, &bytes, &length)) return 1;
    snprintf(path, sizeof path, "%s/wire-%s", dir, name);
    FILE *file = fopen(path, "wb");
    if (!file) { perror(path); return 1; }
    unsigned char selector = WIRE_TARGET;
    int ok = fwrite(&selector, 1, 1, file) == 1 && fwrite(bytes, 1, (size_t)length, file) == (size_t)length;
    ok = fclose(file) == 0 && ok;
    dbus_free(bytes);
    dbus_message_unref(message);
    return ok ? 0 : 1;
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: wireseeds DIR\n"); return 64; }
    const char *dir = argv[1];
    int failed = 0;

    /* PropertiesChanged with a track change, and one with only the status. */
    const char *interface = "org.mpris.MediaPlayer2.Player";
    for (int with_metadata = 1; with_metadata >= 0; with_metadata--) {
        DBusMessage *signal = dbus_message_new_signal("/org/mpris/MediaPlayer2", "org.freedesktop.DBus.Properties", "PropertiesChanged");
        DBusMessageIter it, invalidated;
        dbus_message_set_sender(signal, ":1.42");
        dbus_message_iter_init_append(signal, &it);
        dbus_message_iter_append_basic(&it, DBUS_TYPE_STRING, &interface);
        properties(&it, with_metadata);
        dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "s", &invalidated);
        if (!with_metadata) {
            const char *volume = "Volume";
            dbus_message_iter_append_basic(&invalidated, DBUS_TYPE_STRING, &volume);
        }
        dbus_message_iter_close_container(&it, &invalidated);
        failed |= write_seed(dir, with_metadata ? "properties-changed-track" : "properties-changed-status", signal);
    }

    /* A GetAll reply: a{sv} of every Player property. */
    DBusMessage *call = dbus_message_new_method_call("org.mpris.MediaPlayer2.mpv", "/org/mpris/MediaPlayer2",
                                                     "org.freedesktop.DBus.Properties", "GetAll");
    dbus_message_set_serial(call, 3);
    DBusMessage *reply = dbus_message_new_method_return(call);
    DBusMessageIter it;
    dbus_message_iter_init_append(reply, &it);
    properties(&it, 1);
    failed |= write_seed(dir, "getall-reply", reply);
    dbus_message_unref(call);

    /* Seeked (x), and a RecentMedia call with its filter a{sv}. */
    DBusMessage *seeked = dbus_message_new_signal("/org/mpris/MediaPlayer2", interface, "Seeked");
    dbus_int64_t position = 120000000;
    dbus_message_append_args(seeked, DBUS_TYPE_INT64, &position, DBUS_TYPE_INVALID);
    failed |= write_seed(dir, "seeked", seeked);

    DBusMessage *recent = dbus_message_new_method_call("org.mediabroker.MediaBroker1", "/org/mediabroker/MediaBroker1",
                                                       "org.mediabroker.MediaBroker1", "RecentMedia");
    DBusMessageIter filter;
    dbus_uint32_t limit = 50;
    dbus_int64_t since = 1700000000000000;
    const char *app = "mpv";
    dbus_message_iter_init_append(recent, &it);
    dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "{sv}", &filter);
    entry_basic(&filter, "limit", DBUS_TYPE_UINT32, "u", &limit);
    entry_basic(&filter, "since", DBUS_TYPE_INT64, "x", &since);
    entry_basic(&filter, "app_id", DBUS_TYPE_STRING, "s", &app);
    dbus_message_iter_close_container(&it, &filter);
    failed |= write_seed(dir, "recent-media-call", recent);
    return failed;
}
