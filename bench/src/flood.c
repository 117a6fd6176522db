/* flood — an MPRIS player that floods PropertiesChanged as fast as the bus takes them, and measures
 * the follower's cost.
 *
 * It owns NAME (org.mpris.MediaPlayer2.flood), answers GetAll/Get for the root and Player
 * interfaces (Playing, track 0) and waits for the follower to read its Player properties (GetAll;
 * only the follower's own call counts): the media broker does so when it sees the name appear, the
 * baseline receiver after subscribing. Then it reads the follower's CPU time, sends SIGNALS
 * PropertiesChanged of about 690 bytes ({Metadata, PlaybackStatus}; every EVERY-th signal is a new
 * track, the others repeat the current one; the last one is a "sentinel" track), and pings the
 * follower: libdbus and the broker handle messages from one sender in order, so the reply means
 * every signal was read. With --expect-added it then waits for the broker's MediaAdded of the last
 * track before the sentinel (each track change finishes the previous listen, so the broker must
 * announce exactly 1 + (SIGNALS-1)/EVERY assets of this run). Last it waits for the follower's CPU
 * to go quiet (its store may still be writing) and reports the CPU used since the first signal.
 *
 * usage: flood --follower BUSNAME --follower-pid PID --signals N [--every K] [--run TAG]
 *              [--expect-added] [--name NAME] [--grace-ms MS] [--no-art]
 * prints one JSON object. */
#include "common.h"
#include <getopt.h>
#include <unistd.h>

static const char *run_tag = "r";
/* --no-art: tracks tell no mpris:artUrl (the cost of a track change without art). */
static int with_art = 1;
/* The follower's unique name: only its GetAll starts the flood (the broker follows every MPRIS
 * name and must not start a flood meant for the receiver). */
static char follower_unique[256];
static int getall_player_seen = 0;
static long added = 0;
static int final_seen = 0;
static char final_title[256];

static const char *artists[] = {"Nils Frahm", "Floating Points", "Khruangbin", "Alice Coltrane", "Bonobo",
                                "Hania Rani", "Kiasmos", "Ólafur Arnalds"};
static const char *albums[] = {"All Melody", "Crush", "Con Todo El Mundo", "Journey in Satchidananda",
                               "Migration", "Esja", "Blurred EP", "re:member"};

static void title_of(char *out, size_t n, long track) {
    if (track < 0) snprintf(out, n, "%s sentinel", run_tag);
    else snprintf(out, n, "%s Track %ld, evening session", run_tag, track);
}

static void append_variant_strings(DBusMessageIter *dict, const char *key, const char *value) {
    DBusMessageIter entry, variant, array;
    dbus_message_iter_open_container(dict, DBUS_TYPE_DICT_ENTRY, NULL, &entry);
    dbus_message_iter_append_basic(&entry, DBUS_TYPE_STRING, &key);
    dbus_message_iter_open_container(&entry, DBUS_TYPE_VARIANT, "as", &variant);
    dbus_message_iter_open_container(&variant, DBUS_TYPE_ARRAY, "s", &array);
    dbus_message_iter_append_basic(&array, DBUS_TYPE_STRING, &value);
    dbus_message_iter_close_container(&variant, &array);
    dbus_message_iter_close_container(&entry, &variant);
    dbus_message_iter_close_container(dict, &entry);
}

/* Metadata of `track` (-1: the sentinel) as a{sv}, realistic keys of a local-file player. */
static void append_metadata(DBusMessageIter *iter, long track) {
    char title[256], trackid[128], url[512], art[512];
    long k = track < 0 ? 999999 : track;
    const char *artist = artists[k % 8], *album = albums[(k / 3) % 8];
    title_of(title, sizeof title, track);
    snprintf(trackid, sizeof trackid, "/org/mpris/MediaPlayer2/Track/%ld", k);
    snprintf(url, sizeof url, "file:///home/listener/Music/%s/%s/%02ld%%20Track%%20%ld.flac", artist, album, k % 20 + 1, k);
    snprintf(art, sizeof art, "file:///home/listener/.cache/covers/%08lx.jpg", (unsigned long)(k * 2654435761u));
    dbus_int64_t length = 180000000 + (k % 7) * 23000000;
    dbus_int32_t number = (dbus_int32_t)(k % 20 + 1);
    DBusMessageIter variant, dict;
    dbus_message_iter_open_container(iter, DBUS_TYPE_VARIANT, "a{sv}", &variant);
    dbus_message_iter_open_container(&variant, DBUS_TYPE_ARRAY, "{sv}", &dict);
    { const char *v = trackid; dict_entry(&dict, "mpris:trackid", DBUS_TYPE_OBJECT_PATH, &v); }
    { const char *v = title; dict_entry(&dict, "xesam:title", DBUS_TYPE_STRING, &v); }
    append_variant_strings(&dict, "xesam:artist", artist);
    { const char *v = album; dict_entry(&dict, "xesam:album", DBUS_TYPE_STRING, &v); }
    { const char *v = url; dict_entry(&dict, "xesam:url", DBUS_TYPE_STRING, &v); }
    if (with_art) { const char *v = art; dict_entry(&dict, "mpris:artUrl", DBUS_TYPE_STRING, &v); }
    dict_entry(&dict, "mpris:length", DBUS_TYPE_INT64, &length);
    dict_entry(&dict, "xesam:trackNumber", DBUS_TYPE_INT32, &number);
    dbus_message_iter_close_container(&variant, &dict);
    dbus_message_iter_close_container(iter, &variant);
}

static void append_entry_metadata(DBusMessageIter *dict, long track) {
    DBusMessageIter entry;
    const char *key = "Metadata";
    dbus_message_iter_open_container(dict, DBUS_TYPE_DICT_ENTRY, NULL, &entry);
    dbus_message_iter_append_basic(&entry, DBUS_TYPE_STRING, &key);
    append_metadata(&entry, track);
    dbus_message_iter_close_container(dict, &entry);
}

static long current_track = 0;

static DBusMessage *properties_changed(long track) {
    DBusMessage *m = dbus_message_new_signal("/org/mpris/MediaPlayer2", "org.freedesktop.DBus.Properties", "PropertiesChanged");
    DBusMessageIter iter, dict, none;
    const char *interface = "org.mpris.MediaPlayer2.Player";
    dbus_message_iter_init_append(m, &iter);
    dbus_message_iter_append_basic(&iter, DBUS_TYPE_STRING, &interface);
    dbus_message_iter_open_container(&iter, DBUS_TYPE_ARRAY, "{sv}", &dict);
    append_entry_metadata(&dict, track);
    { const char *v = "Playing"; dict_entry(&dict, "PlaybackStatus", DBUS_TYPE_STRING, &v); }
    dbus_message_iter_close_container(&iter, &dict);
    dbus_message_iter_open_container(&iter, DBUS_TYPE_ARRAY, "s", &none);
    dbus_message_iter_close_container(&iter, &none);
    return m;
}

static void reply_getall(DBusConnection *c, DBusMessage *call, const char *interface) {
    DBusMessage *reply = dbus_message_new_method_return(call);
    DBusMessageIter iter, dict;
    dbus_message_iter_init_append(reply, &iter);
    dbus_message_iter_open_container(&iter, DBUS_TYPE_ARRAY, "{sv}", &dict);
    if (strcmp(interface, "org.mpris.MediaPlayer2") == 0) {
        { const char *v = "Flood"; dict_entry(&dict, "Identity", DBUS_TYPE_STRING, &v); }
        { const char *v = "flood"; dict_entry(&dict, "DesktopEntry", DBUS_TYPE_STRING, &v); }
    } else if (strcmp(interface, "org.mpris.MediaPlayer2.Player") == 0) {
        double rate = 1.0;
        dbus_int64_t position = 0;
        dbus_bool_t yes = TRUE;
        { const char *v = "Playing"; dict_entry(&dict, "PlaybackStatus", DBUS_TYPE_STRING, &v); }
        append_entry_metadata(&dict, current_track);
        dict_entry(&dict, "Rate", DBUS_TYPE_DOUBLE, &rate);
        dict_entry(&dict, "Position", DBUS_TYPE_INT64, &position);
        dict_entry(&dict, "CanPlay", DBUS_TYPE_BOOLEAN, &yes);
        dict_entry(&dict, "CanPause", DBUS_TYPE_BOOLEAN, &yes);
        dict_entry(&dict, "CanControl", DBUS_TYPE_BOOLEAN, &yes);
    }
    dbus_message_iter_close_container(&iter, &dict);
    dbus_connection_send(c, reply, NULL);
    dbus_message_unref(reply);
}

/* The title in a MediaAdded a{sv}, or NULL. */
static const char *added_title(DBusMessage *m) {
    DBusMessageIter iter, dict, entry, variant;
    if (!dbus_message_iter_init(m, &iter) || dbus_message_iter_get_arg_type(&iter) != DBUS_TYPE_ARRAY) return NULL;
    dbus_message_iter_recurse(&iter, &dict);
    while (dbus_message_iter_get_arg_type(&dict) == DBUS_TYPE_DICT_ENTRY) {
        const char *key;
        dbus_message_iter_recurse(&dict, &entry);
        dbus_message_iter_get_basic(&entry, &key);
        if (strcmp(key, "title") == 0) {
            dbus_message_iter_next(&entry);
            dbus_message_iter_recurse(&entry, &variant);
            if (dbus_message_iter_get_arg_type(&variant) != DBUS_TYPE_STRING) return NULL;
            const char *title;
            dbus_message_iter_get_basic(&variant, &title);
            return title;
        }
        dbus_message_iter_next(&dict);
    }
    return NULL;
}

static DBusHandlerResult filter(DBusConnection *c, DBusMessage *m, void *data) {
    (void)data;
    if (dbus_message_is_method_call(m, "org.freedesktop.DBus.Properties", "GetAll")) {
        const char *interface = "";
        dbus_message_get_args(m, NULL, DBUS_TYPE_STRING, &interface, DBUS_TYPE_INVALID);
        reply_getall(c, m, interface);
        const char *sender = dbus_message_get_sender(m);
        if (strcmp(interface, "org.mpris.MediaPlayer2.Player") == 0 &&
            (!follower_unique[0] || (sender && strcmp(sender, follower_unique) == 0))) getall_player_seen = 1;
        return DBUS_HANDLER_RESULT_HANDLED;
    }
    if (dbus_message_is_method_call(m, "org.freedesktop.DBus.Properties", "Get")) {
        DBusMessage *e = dbus_message_new_error(m, DBUS_ERROR_UNKNOWN_PROPERTY, "ask GetAll");
        dbus_connection_send(c, e, NULL);
        dbus_message_unref(e);
        return DBUS_HANDLER_RESULT_HANDLED;
    }
    if (dbus_message_is_signal(m, "org.mediabroker.MediaBroker1", "MediaAdded")) {
        const char *title = added_title(m);
        size_t tag = strlen(run_tag);
        if (title && strncmp(title, run_tag, tag) == 0 && title[tag] == ' ') {
            added++;
            if (strcmp(title, final_title) == 0) final_seen = 1;
        }
        return DBUS_HANDLER_RESULT_HANDLED;
    }
    return DBUS_HANDLER_RESULT_NOT_YET_HANDLED;
}

static void pump(DBusConnection *c, int timeout_ms) {
    dbus_connection_read_write(c, timeout_ms);
    while (dbus_connection_dispatch(c) == DBUS_DISPATCH_DATA_REMAINS) {}
}

int main(int argc, char **argv) {
    const char *name = "org.mpris.MediaPlayer2.flood", *follower = NULL;
    int follower_pid = 0, expect_added = 0, grace_ms = 0;
    long signals = 20000, every = 20;
    static struct option options[] = {
        {"follower", required_argument, 0, 'f'}, {"follower-pid", required_argument, 0, 'p'},
        {"signals", required_argument, 0, 'n'}, {"every", required_argument, 0, 'e'},
        {"run", required_argument, 0, 'r'}, {"expect-added", no_argument, 0, 'a'},
        {"name", required_argument, 0, 'N'}, {"grace-ms", required_argument, 0, 'g'}, {"no-art", no_argument, 0, 'A'},
        {0, 0, 0, 0}};
    int opt;
    while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
        switch (opt) {
        case 'f': follower = optarg; break;
        case 'p': follower_pid = atoi(optarg); break;
        case 'n': signals = atol(optarg); break;
        case 'e': every = atol(optarg); break;
        case 'r': run_tag = optarg; break;
        case 'a': expect_added = 1; break;
        case 'N': name = optarg; break;
        case 'g': grace_ms = atoi(optarg); break;
        case 'A': with_art = 0; break;
        default: return 64;
        }
    }
    if (!follower || follower_pid <= 0 || signals < 2 || every < 1) {
        fprintf(stderr, "usage: flood --follower BUSNAME --follower-pid PID --signals N [--every K] [--run TAG] [--expect-added]\n");
        return 64;
    }
    long tracks_before_sentinel = 1 + (signals - 1) / every;
    title_of(final_title, sizeof final_title, tracks_before_sentinel - 1);

    DBusConnection *c = session_connection();
    dbus_connection_add_filter(c, filter, NULL, NULL);
    DBusError error;
    dbus_error_init(&error);
    if (expect_added) {
        dbus_bus_add_match(c, "type='signal',interface='org.mediabroker.MediaBroker1',member='MediaAdded'", &error);
        die_on(&error, "AddMatch");
    }
    for (int i = 0; !dbus_bus_name_has_owner(c, follower, &error) && i < 3000; i++) { /* the follower may still be starting */
        die_on(&error, "NameHasOwner");
        struct timespec nap = {0, 10 * 1000000};
        nanosleep(&nap, NULL);
    }
    DBusMessage *ask = dbus_message_new_method_call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetNameOwner");
    dbus_message_append_args(ask, DBUS_TYPE_STRING, &follower, DBUS_TYPE_INVALID);
    DBusMessage *owner = dbus_connection_send_with_reply_and_block(c, ask, 5000, &error);
    die_on(&error, "GetNameOwner of the follower");
    const char *unique = "";
    dbus_message_get_args(owner, NULL, DBUS_TYPE_STRING, &unique, DBUS_TYPE_INVALID);
    snprintf(follower_unique, sizeof follower_unique, "%s", unique);
    dbus_message_unref(owner);
    dbus_message_unref(ask);
    /* Since its interface version 3 the broker sends MediaAdded to subscribers only; an older one
     * (UnknownMethod) broadcasts it. */
    if (expect_added && !strcmp(follower, "org.mediabroker.MediaBroker1")) {
        DBusMessage *subscribe = dbus_message_new_method_call(follower, "/org/mediabroker/MediaBroker1", follower, "Subscribe");
        DBusMessage *done = dbus_connection_send_with_reply_and_block(c, subscribe, 5000, &error);
        if (!done && strcmp(error.name, DBUS_ERROR_UNKNOWN_METHOD)) die_on(&error, "Subscribe");
        dbus_error_free(&error);
        if (done) dbus_message_unref(done);
        dbus_message_unref(subscribe);
    }
    own_name(c, name);

    /* A follower that never reads properties (playerctld may not) gets GRACE ms to notice the name. */
    int64_t deadline = now_ns() + 30LL * 1000000000, grace_end = now_ns() + (int64_t)grace_ms * 1000000;
    while (!getall_player_seen && !(grace_ms > 0 && now_ns() >= grace_end)) {
        if (now_ns() > deadline) { fprintf(stderr, "flood: nobody read the Player properties within 30 s\n"); return 1; }
        pump(c, 100);
    }
    pump(c, 0);
    dbus_connection_flush(c);

    DBusMessage *probe = properties_changed(0);
    char *bytes = NULL;
    int size = 0;
    dbus_message_marshal(probe, &bytes, &size);
    dbus_free(bytes);
    dbus_message_unref(probe);

    int64_t c0 = cpu_ns_of(follower_pid), t0 = now_ns();
    for (long i = 1; i <= signals; i++) {
        if (i == signals) current_track = -1;
        else if (i % every == 0) current_track++;
        DBusMessage *m = properties_changed(current_track);
        dbus_connection_send(c, m, NULL);
        dbus_message_unref(m);
        if (i % 64 == 0) {
            dbus_connection_flush(c); /* as fast as the bus takes them: block until written */
            pump(c, 0);
        }
    }
    dbus_connection_flush(c);
    int64_t t_sent = now_ns();
    DBusMessage *ping = dbus_message_new_method_call(follower, "/", "org.freedesktop.DBus.Peer", "Ping");
    DBusMessage *pong = dbus_connection_send_with_reply_and_block(c, ping, 120000, &error);
    die_on(&error, "Ping the follower");
    dbus_message_unref(ping);
    dbus_message_unref(pong);
    int64_t t1 = now_ns(), c1 = cpu_ns_of(follower_pid);

    int64_t t_added = t1;
    if (expect_added) {
        deadline = now_ns() + 300LL * 1000000000;
        while (!final_seen && now_ns() < deadline) pump(c, 100);
        t_added = now_ns();
    }
    int64_t c2 = cpu_settled(follower_pid, 300, 20000);
    double seconds = (t1 - t0) / 1e9;
    printf("{\"signals\":%ld,\"every\":%ld,\"message_bytes\":%d,\"track_changes\":%ld,\"seconds\":%.6f,"
           "\"send_seconds\":%.6f,\"rate\":%.1f,\"cpu_ns_at_ping\":%lld,\"cpu_ns\":%lld,"
           "\"added\":%ld,\"expected_added\":%ld,\"final_seen\":%s,\"seconds_to_last_added\":%.6f}\n",
           signals, every, size, tracks_before_sentinel, seconds, (t_sent - t0) / 1e9, signals / seconds,
           (long long)(c1 - c0), (long long)(c2 - c0), added, expect_added ? tracks_before_sentinel : 0,
           final_seen ? "true" : "false", (t_added - t0) / 1e9);
    dbus_connection_close(c);
    dbus_connection_unref(c);
    return 0;
}
