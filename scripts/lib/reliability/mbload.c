/* Load generator for scripts/reliability (issue 6 §3): talks to a broker on the session bus named
 * by DBUS_SESSION_BUS_ADDRESS. Plain libdbus, so it is as fast as the bus and needs no Swift.
 *
 *   mbload flood RATE SECONDS TRACK_SECONDS
 *       one MPRIS player (org.mpris.MediaPlayer2.flood) sending RATE PropertiesChanged a second for
 *       SECONDS: identical Metadata and status repeats and Volume changes, the floods real players
 *       send (quirk 8) — and a real new track every TRACK_SECONDS. It answers Get/GetAll. Prints
 *       "sent N signals (R/s), real listens L" and the titles of the real listens, one per line
 *       prefixed "listen: ".
 *   mbload storm PLAYERS CHANGES WAVES
 *       issue 16's flood: CHANGES distinct track changes in all, as fast as the bus takes them, with
 *       realistic metadata (8 keys, ~650 bytes), none of which can become a listen (each track plays
 *       for microseconds). WAVES waves of PLAYERS players (org.mpris.MediaPlayer2.stormW_K): each
 *       wave's players appear, flood their share round-robin, and vanish. Prints "sent N distinct
 *       track changes from P players in W waves in S s (R/s)".
 *   mbload churn PLAYERS WAVE LISTEN_MS
 *       PLAYERS players (org.mpris.MediaPlayer2.churnK) in waves of WAVE at once: each appears, plays
 *       one track for LISTEN_MS, stops and vanishes. Prints the titles like flood.
 *   mbload clients CLIENTS SECONDS
 *       CLIENTS connections calling RecentMedia({limit: 50}) in a loop for SECONDS, each with one
 *       call outstanding at a time. Prints "calls N failures F p50 A ms p99 B ms max C ms".
 *   mbload huge SECONDS
 *       a hostile app (issue 32, item 8): for SECONDS, RecentMedia with an `app_id` filter of
 *       4,000,000 strings, then Donate with 4,000,000 artists, again and again, each sent when the
 *       last is answered. Prints "huge calls N (B MB each): refused R with ERROR, answered A,
 *       failed F; slowest answer S ms".
 *
 * Every loop is bounded in count and time, and the tool only ever talks to the bus it is given.
 */
#include <dbus/dbus.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sv_entry.h"

static double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static DBusConnection *connect_bus(void) {
    DBusError error;
    dbus_error_init(&error);
    const char *address = getenv("DBUS_SESSION_BUS_ADDRESS");
    if (!address) { fprintf(stderr, "mbload: DBUS_SESSION_BUS_ADDRESS is not set\n"); exit(2); }
    DBusConnection *c = dbus_connection_open_private(address, &error);
    if (!c || !dbus_bus_register(c, &error)) {
        fprintf(stderr, "mbload: cannot connect: %s\n", error.message ? error.message : "?");
        exit(1);
    }
    dbus_connection_set_exit_on_disconnect(c, FALSE);
    return c;
}

static void own(DBusConnection *c, const char *name) {
    DBusError error;
    dbus_error_init(&error);
    int r = dbus_bus_request_name(c, name, DBUS_NAME_FLAG_DO_NOT_QUEUE, &error);
    if (r != DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER) {
        fprintf(stderr, "mbload: cannot own %s: %s\n", name, error.message ? error.message : "?");
        exit(1);
    }
}

/* --- Building MPRIS values --------------------------------------------------------------- */

static void entry_string(DBusMessageIter *dict, const char *key, const char *value) {
    entry_basic(dict, key, DBUS_TYPE_STRING, "s", &value);
}

static void entry_double(DBusMessageIter *dict, const char *key, double value) {
    entry_basic(dict, key, DBUS_TYPE_DOUBLE, "d", &value);
}

/* KEY: a list of one string (as), as players send xesam:artist. */
static void entry_one_string_list(DBusMessageIter *dict, const char *key, const char *value) {
    DBusMessageIter e, v, list;
    dbus_message_iter_open_container(dict, DBUS_TYPE_DICT_ENTRY, NULL, &e);
    dbus_message_iter_append_basic(&e, DBUS_TYPE_STRING, &key);
    dbus_message_iter_open_container(&e, DBUS_TYPE_VARIANT, "as", &v);
    dbus_message_iter_open_container(&v, DBUS_TYPE_ARRAY, "s", &list);
    dbus_message_iter_append_basic(&list, DBUS_TYPE_STRING, &value);
    dbus_message_iter_close_container(&v, &list);
    dbus_message_iter_close_container(&e, &v);
    dbus_message_iter_close_container(dict, &e);
}

/* "Metadata": a{sv} with title, artist list, album, length and trackid. */
static void entry_metadata(DBusMessageIter *dict, const char *title) {
    DBusMessageIter e, v, m;
    const char *key = "Metadata";
    dbus_message_iter_open_container(dict, DBUS_TYPE_DICT_ENTRY, NULL, &e);
    dbus_message_iter_append_basic(&e, DBUS_TYPE_STRING, &key);
    dbus_message_iter_open_container(&e, DBUS_TYPE_VARIANT, "a{sv}", &v);
    dbus_message_iter_open_container(&v, DBUS_TYPE_ARRAY, "{sv}", &m);
    entry_string(&m, "xesam:title", title);
    entry_string(&m, "xesam:album", "Storm");
    entry_one_string_list(&m, "xesam:artist", "Load Generator");
    dbus_int64_t length = 600000000;
    entry_basic(&m, "mpris:length", DBUS_TYPE_INT64, "x", &length);
    dbus_message_iter_close_container(&v, &m);
    dbus_message_iter_close_container(&e, &v);
    dbus_message_iter_close_container(dict, &e);
}

/* Metadata as a local-file player sends it: trackid, title, artist list, album, url, art, length
 * and track number — about 650 bytes with the signal around it. */
static void entry_rich_metadata(DBusMessageIter *dict, const char *title, long n) {
    DBusMessageIter e, v, m;
    char trackid[96], url[256], art[160];
    snprintf(trackid, sizeof trackid, "/org/mpris/MediaPlayer2/Track/%ld", n);
    snprintf(url, sizeof url, "file:///home/listener/Music/Load%%20Generator/Storm%%20Sessions/%03ld%%20%s.flac", n % 1000, "Track");
    snprintf(art, sizeof art, "file:///home/listener/.cache/covers/%016lx.jpg", (unsigned long)n * 2654435761u);
    const char *key = "Metadata";
    dbus_message_iter_open_container(dict, DBUS_TYPE_DICT_ENTRY, NULL, &e);
    dbus_message_iter_append_basic(&e, DBUS_TYPE_STRING, &key);
    dbus_message_iter_open_container(&e, DBUS_TYPE_VARIANT, "a{sv}", &v);
    dbus_message_iter_open_container(&v, DBUS_TYPE_ARRAY, "{sv}", &m);
    const char *path = trackid;
    entry_basic(&m, "mpris:trackid", DBUS_TYPE_OBJECT_PATH, "o", &path);
    entry_string(&m, "xesam:title", title);
    entry_one_string_list(&m, "xesam:artist", "The Load Generator Ensemble");
    entry_string(&m, "xesam:album", "Storm Sessions, Recorded Live at the Bus Daemon");
    entry_string(&m, "xesam:url", url);
    entry_string(&m, "mpris:artUrl", art);
    dbus_int64_t length = 180000000 + (n % 7) * 23000000;
    entry_basic(&m, "mpris:length", DBUS_TYPE_INT64, "x", &length);
    dbus_int32_t number = (dbus_int32_t)(n % 20 + 1);
    entry_basic(&m, "xesam:trackNumber", DBUS_TYPE_INT32, "i", &number);
    dbus_message_iter_close_container(&v, &m);
    dbus_message_iter_close_container(&e, &v);
    dbus_message_iter_close_container(dict, &e);
}

struct player_state {
    char title[128];
    const char *status;
    double volume;
    /* The storm's players send a local-file player's full metadata for track number `track`. */
    int rich;
    long track;
};

static void append_properties(DBusMessageIter *dict, const struct player_state *s, int metadata, int status, int volume) {
    if (metadata && s->rich) entry_rich_metadata(dict, s->title, s->track);
    else if (metadata) entry_metadata(dict, s->title);
    if (status) entry_string(dict, "PlaybackStatus", s->status);
    if (volume) entry_double(dict, "Volume", s->volume);
}

static void send_changed(DBusConnection *c, const struct player_state *s, int metadata, int status, int volume) {
    DBusMessage *m = dbus_message_new_signal("/org/mpris/MediaPlayer2", "org.freedesktop.DBus.Properties", "PropertiesChanged");
    DBusMessageIter it, dict, inv;
    const char *interface = "org.mpris.MediaPlayer2.Player";
    dbus_message_iter_init_append(m, &it);
    dbus_message_iter_append_basic(&it, DBUS_TYPE_STRING, &interface);
    dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "{sv}", &dict);
    append_properties(&dict, s, metadata, status, volume);
    dbus_message_iter_close_container(&it, &dict);
    dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "s", &inv);
    dbus_message_iter_close_container(&it, &inv);
    dbus_connection_send(c, m, NULL);
    dbus_message_unref(m);
}

/* Answers Get/GetAll of the Player interface (the broker reads them on discovery); any other call
 * gets UnknownMethod. Non-blocking: handles what has arrived. */
static void answer_calls(DBusConnection *c, const struct player_state *s) {
    dbus_connection_read_write(c, 0);
    DBusMessage *m;
    while ((m = dbus_connection_pop_message(c))) {
        if (dbus_message_get_type(m) == DBUS_MESSAGE_TYPE_METHOD_CALL) {
            DBusMessage *reply;
            if (dbus_message_is_method_call(m, "org.freedesktop.DBus.Properties", "GetAll")) {
                reply = dbus_message_new_method_return(m);
                DBusMessageIter it, dict;
                dbus_message_iter_init_append(reply, &it);
                dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "{sv}", &dict);
                const char *wanted = "";
                dbus_message_get_args(m, NULL, DBUS_TYPE_STRING, &wanted, DBUS_TYPE_INVALID);
                if (strcmp(wanted, "org.mpris.MediaPlayer2.Player") == 0) {
                    append_properties(&dict, s, 1, 1, 1);
                    entry_double(&dict, "Rate", 1.0);
                } else {
                    entry_string(&dict, "Identity", "mbload");
                }
                dbus_message_iter_close_container(&it, &dict);
            } else {
                reply = dbus_message_new_error(m, DBUS_ERROR_UNKNOWN_METHOD, "mbload answers GetAll only");
            }
            dbus_connection_send(c, reply, NULL);
            dbus_message_unref(reply);
        }
        dbus_message_unref(m);
    }
}

/* --- flood ------------------------------------------------------------------------------- */

static int flood(int rate, int seconds, double track_seconds) {
    DBusConnection *c = connect_bus();
    struct player_state s = {.status = "Stopped", .volume = 0.5};
    snprintf(s.title, sizeof s.title, "nothing yet");
    own(c, "org.mpris.MediaPlayer2.flood");
    answer_calls(c, &s);
    usleep(200000);  /* let the broker read the player before the storm */
    double start = now_seconds(), next_track = start;
    long sent = 0;
    int listens = 0;
    char titles[4096][64];
    while (now_seconds() - start < seconds) {
        double t = now_seconds();
        if (t >= next_track && listens < 4096) {
            snprintf(s.title, sizeof s.title, "storm %d", listens);
            snprintf(titles[listens], sizeof titles[0], "%.63s", s.title);
            listens++;
            s.status = "Playing";
            send_changed(c, &s, 1, 1, 0);
            sent++;
            next_track += track_seconds;
        }
        /* The flood itself: due = rate × elapsed; send what is due in this millisecond. */
        long due = (long)((t - start) * rate);
        for (int burst = 0; sent < due && burst < 200; burst++, sent++) {
            switch (sent % 3) {
            case 0: send_changed(c, &s, 1, 1, 0); break;     /* an identical repeat */
            case 1: s.volume = (sent % 100) / 100.0; send_changed(c, &s, 0, 0, 1); break;
            default: send_changed(c, &s, 0, 1, 0); break;    /* status again */
            }
        }
        answer_calls(c, &s);
        dbus_connection_flush(c);
        usleep(1000);
    }
    double elapsed = now_seconds() - start;
    /* The last track is heard for a full TRACK_SECONDS too, then the player stops and leaves. */
    while (now_seconds() < next_track) { answer_calls(c, &s); usleep(10000); }
    s.status = "Stopped";
    send_changed(c, &s, 0, 1, 0);
    dbus_connection_flush(c);
    usleep(300000);
    printf("sent %ld signals in %.1f s (%.0f/s), real listens %d\n", sent, elapsed, sent / elapsed, listens);
    for (int i = 0; i < listens; i++) printf("listen: %s\n", titles[i]);
    dbus_connection_close(c);
    dbus_connection_unref(c);
    return 0;
}

/* --- storm ------------------------------------------------------------------------------- */

static int storm(int players, long changes, int waves) {
    if (players < 1 || players > 256 || waves < 1 || changes < 1) { fprintf(stderr, "mbload: storm needs 1-256 players, waves >= 1\n"); return 64; }
    long per_wave = changes / waves, sent = 0;
    double start = now_seconds();
    for (int w = 0; w < waves; w++) {
        DBusConnection *c[players];
        struct player_state s[players];
        for (int i = 0; i < players; i++) {
            char name[128];
            c[i] = connect_bus();
            s[i] = (struct player_state){.status = "Playing", .volume = 1, .rich = 1};
            snprintf(s[i].title, sizeof s[i].title, "storm %d/%d", w, i);
            snprintf(name, sizeof name, "org.mpris.MediaPlayer2.storm%d_%d", w, i);
            own(c[i], name);
        }
        long wave_end = w == waves - 1 ? changes : sent + per_wave;
        for (long k = 0; sent < wave_end; k++, sent++) {
            int i = (int)(k % players);
            snprintf(s[i].title, sizeof s[i].title, "storm %d/%d track %ld", w, i, k / players);
            s[i].track = sent;
            send_changed(c[i], &s[i], 1, 1, 0);
            if (k % 64 == 63) {
                for (int j = 0; j < players; j++) { dbus_connection_flush(c[j]); answer_calls(c[j], &s[j]); }
            }
        }
        for (int i = 0; i < players; i++) {
            dbus_connection_flush(c[i]);
            dbus_connection_close(c[i]);
            dbus_connection_unref(c[i]);
        }
    }
    double elapsed = now_seconds() - start;
    printf("sent %ld distinct track changes from %d players in %d waves in %.1f s (%.0f/s)\n", sent, players, waves, elapsed, sent / elapsed);
    return 0;
}

/* --- churn ------------------------------------------------------------------------------- */

static int churn(int players, int wave, int listen_ms) {
    int made = 0;
    while (made < players) {
        int n = players - made < wave ? players - made : wave;
        DBusConnection *c[n];
        struct player_state s[n];
        for (int i = 0; i < n; i++) {
            char name[128];
            c[i] = connect_bus();
            s[i] = (struct player_state){.status = "Playing", .volume = 1};
            snprintf(s[i].title, sizeof s[i].title, "churn %d", made + i);
            snprintf(name, sizeof name, "org.mpris.MediaPlayer2.churn%d", made + i);
            own(c[i], name);
            send_changed(c[i], &s[i], 1, 1, 0);
            dbus_connection_flush(c[i]);
        }
        double until = now_seconds() + listen_ms / 1000.0;
        while (now_seconds() < until) {
            for (int i = 0; i < n; i++) answer_calls(c[i], &s[i]);
            usleep(5000);
        }
        for (int i = 0; i < n; i++) {
            s[i].status = "Stopped";
            send_changed(c[i], &s[i], 0, 1, 0);
            dbus_connection_flush(c[i]);
            answer_calls(c[i], &s[i]);
            dbus_connection_close(c[i]);
            dbus_connection_unref(c[i]);
            printf("listen: churn %d\n", made + i);
        }
        made += n;
    }
    printf("players %d\n", made);
    return 0;
}

/* --- clients ----------------------------------------------------------------------------- */

/* N clients, each its own connection (its own unique name and socket, as N apps would be), each
 * with one RecentMedia call outstanding at a time: a new call as soon as the last one is answered.
 * One thread drives them all with poll(). With one blocking thread per client, 100 threads on 2
 * cores waited for a CPU after their reply had arrived, so the latency measured included the load
 * generator's own run queue, and their switching took CPU from the broker under test. */
struct client {
    DBusConnection *connection;
    dbus_uint32_t serial;  /* of the call outstanding */
    double sent;
};

struct latencies {
    double *ms;
    long count, capacity;
};

static void record(struct latencies *l, double ms) {
    if (l->count == l->capacity) {
        l->capacity = l->capacity ? l->capacity * 2 : 4096;
        l->ms = realloc(l->ms, l->capacity * sizeof(double));
        if (!l->ms) { fprintf(stderr, "mbload: out of memory\n"); exit(1); }
    }
    l->ms[l->count++] = ms;
}

static void call_recent(struct client *k) {
    DBusMessage *m = dbus_message_new_method_call("org.mediabroker.MediaBroker1", "/org/mediabroker/MediaBroker1",
                                                  "org.mediabroker.MediaBroker1", "RecentMedia");
    DBusMessageIter it, dict, e, v;
    const char *key = "limit";
    dbus_uint32_t limit = 50;
    dbus_message_iter_init_append(m, &it);
    dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "{sv}", &dict);
    dbus_message_iter_open_container(&dict, DBUS_TYPE_DICT_ENTRY, NULL, &e);
    dbus_message_iter_append_basic(&e, DBUS_TYPE_STRING, &key);
    dbus_message_iter_open_container(&e, DBUS_TYPE_VARIANT, "u", &v);
    dbus_message_iter_append_basic(&v, DBUS_TYPE_UINT32, &limit);
    dbus_message_iter_close_container(&e, &v);
    dbus_message_iter_close_container(&dict, &e);
    dbus_message_iter_close_container(&it, &dict);
    k->sent = now_seconds();
    dbus_connection_send(k->connection, m, &k->serial);
    dbus_message_unref(m);
    dbus_connection_flush(k->connection);
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int clients(int n, double seconds) {
    struct client *k = calloc(n, sizeof *k);
    struct pollfd *fds = calloc(n, sizeof *fds);
    struct latencies answered = {0};
    long failures = 0;
    if (!k || !fds) { fprintf(stderr, "mbload: out of memory\n"); return 1; }
    /* Every connection is made first, one at a time: connecting is not what is measured, and 100
     * connections authenticating at once pass dbus-daemon's default limit of 64 incomplete
     * connections, which drops the oldest. */
    for (int i = 0; i < n; i++) {
        int fd = -1;
        k[i].connection = connect_bus();
        dbus_connection_get_unix_fd(k[i].connection, &fd);
        fds[i] = (struct pollfd){.fd = fd, .events = POLLIN};
    }
    double end = now_seconds() + seconds;
    for (int i = 0; i < n; i++) call_recent(&k[i]);
    int outstanding = n;
    while (outstanding > 0) {
        /* A flush reads as well as writes, so a reply may already wait in a connection's queue
         * with nothing left on its socket for poll to see. */
        int queued = 0;
        for (int i = 0; i < n && !queued; i++)
            queued = dbus_connection_get_dispatch_status(k[i].connection) == DBUS_DISPATCH_DATA_REMAINS;
        /* After the end, wait for the calls still outstanding (their latency counts too). */
        if (poll(fds, n, queued ? 0 : 100) < 0) { perror("mbload: poll"); return 1; }
        double now = now_seconds();
        for (int i = 0; i < n; i++) {
            if (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) dbus_connection_read_write(k[i].connection, 0);
            DBusMessage *m;
            while ((m = dbus_connection_pop_message(k[i].connection))) {
                int type = dbus_message_get_type(m);
                if ((type == DBUS_MESSAGE_TYPE_METHOD_RETURN || type == DBUS_MESSAGE_TYPE_ERROR) &&
                    dbus_message_get_reply_serial(m) == k[i].serial && k[i].serial != 0) {
                    double t = now_seconds();
                    if (type == DBUS_MESSAGE_TYPE_ERROR) failures++;
                    else record(&answered, (t - k[i].sent) * 1000);
                    k[i].serial = 0;
                    if (t < end) call_recent(&k[i]);
                    else { outstanding--; fds[i].events = 0; }
                }
                dbus_message_unref(m);
            }
        }
        /* A call unanswered for 5 s is a failure (as a blocking call's timeout would be). */
        for (int i = 0; i < n; i++) {
            if (k[i].serial != 0 && now - k[i].sent > 5) {
                failures++;
                k[i].serial = 0;
                if (now < end) call_recent(&k[i]);
                else { outstanding--; fds[i].events = 0; }
            }
        }
    }
    for (int i = 0; i < n; i++) {
        dbus_connection_close(k[i].connection);
        dbus_connection_unref(k[i].connection);
    }
    long calls = answered.count;
    qsort(answered.ms, calls, sizeof(double), compare);
    double p50 = calls ? answered.ms[calls / 2] : 0, p99 = calls ? answered.ms[(long)(calls * 0.99)] : 0,
           max = calls ? answered.ms[calls - 1] : 0;
    printf("calls %ld failures %ld p50 %.1f ms p99 %.1f ms max %.1f ms\n", calls, failures, p50, p99, max);
    free(answered.ms);
    free(fds);
    free(k);
    return failures ? 1 : 0;
}

/* --- huge -------------------------------------------------------------------------------- */

/* An a{sv} holding KEY: a list of COUNT one-letter strings (about 8 bytes each on the wire),
 * and the plain strings of `extra` (key, value pairs, NULL-terminated). */
static DBusMessage *huge_call(const char *member, const char *key, long count, const char **extra) {
    DBusMessage *m = dbus_message_new_method_call("org.mediabroker.MediaBroker1", "/org/mediabroker/MediaBroker1",
                                                  "org.mediabroker.MediaBroker1", member);
    DBusMessageIter it, dict, e, v, list;
    const char *letter = "a";
    dbus_bool_t ok = m != NULL;
    if (ok) {
        dbus_message_iter_init_append(m, &it);
        ok = dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "{sv}", &dict);
    }
    for (int i = 0; ok && extra[i]; i += 2) ok = entry_basic(&dict, extra[i], DBUS_TYPE_STRING, "s", &extra[i + 1]);
    ok = ok && dbus_message_iter_open_container(&dict, DBUS_TYPE_DICT_ENTRY, NULL, &e)
        && dbus_message_iter_append_basic(&e, DBUS_TYPE_STRING, &key)
        && dbus_message_iter_open_container(&e, DBUS_TYPE_VARIANT, "as", &v)
        && dbus_message_iter_open_container(&v, DBUS_TYPE_ARRAY, "s", &list);
    for (long i = 0; ok && i < count; i++) ok = dbus_message_iter_append_basic(&list, DBUS_TYPE_STRING, &letter);
    ok = ok && dbus_message_iter_close_container(&v, &list) && dbus_message_iter_close_container(&e, &v)
        && dbus_message_iter_close_container(&dict, &e) && dbus_message_iter_close_container(&it, &dict);
    if (!ok) { fprintf(stderr, "mbload: out of memory building %s\n", member); exit(1); }
    return m;
}

static int huge(double seconds) {
    const long count = 4000000;
    DBusConnection *c = connect_bus();
    const char *no_extra[] = {NULL};
    const char *donation[] = {"app_id", "org.example.Hostile", "title", "Huge", NULL};
    DBusMessage *calls[2] = {huge_call("RecentMedia", "app_id", count, no_extra), huge_call("Donate", "artists", count, donation)};
    char *wire = NULL;
    int bytes = 0;
    if (!dbus_message_marshal(calls[0], &wire, &bytes)) { fprintf(stderr, "mbload: out of memory\n"); return 1; }
    dbus_free(wire);
    long sent = 0, refused = 0, answered = 0, failed = 0;
    double slowest = 0, end = now_seconds() + seconds;
    char refusal[256] = "nothing";
    while (now_seconds() < end) {
        /* A copy each time: a message sent once keeps its serial. */
        DBusMessage *copy = dbus_message_copy(calls[sent % 2]);
        DBusError error;
        dbus_error_init(&error);
        double t = now_seconds();
        DBusMessage *reply = copy ? dbus_connection_send_with_reply_and_block(c, copy, 60000, &error) : NULL;
        double ms = (now_seconds() - t) * 1000;
        sent++;
        if (ms > slowest) slowest = ms;
        if (reply) {
            answered++;
            dbus_message_unref(reply);
        } else if (dbus_error_is_set(&error) && strcmp(error.name, DBUS_ERROR_NO_REPLY) != 0
                   && strcmp(error.name, DBUS_ERROR_DISCONNECTED) != 0) {
            refused++;
            snprintf(refusal, sizeof refusal, "%s", error.name);
        } else {
            failed++;
        }
        dbus_error_free(&error);
        if (copy) dbus_message_unref(copy);
    }
    printf("huge calls %ld (%.1f MB each): refused %ld with %s, answered %ld, failed %ld; slowest answer %.0f ms\n",
           sent, bytes / 1e6, refused, refusal, answered, failed, slowest);
    dbus_message_unref(calls[0]);
    dbus_message_unref(calls[1]);
    dbus_connection_close(c);
    dbus_connection_unref(c);
    return failed ? 1 : 0;
}

int main(int argc, char **argv) {
    dbus_threads_init_default();
    if (argc == 5 && strcmp(argv[1], "flood") == 0) return flood(atoi(argv[2]), atoi(argv[3]), atof(argv[4]));
    if (argc == 5 && strcmp(argv[1], "storm") == 0) return storm(atoi(argv[2]), atol(argv[3]), atoi(argv[4]));
    if (argc == 5 && strcmp(argv[1], "churn") == 0) return churn(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]));
    if (argc == 4 && strcmp(argv[1], "clients") == 0) return clients(atoi(argv[2]), atof(argv[3]));
    if (argc == 3 && strcmp(argv[1], "huge") == 0) return huge(atof(argv[2]));
    fprintf(stderr, "usage: mbload flood RATE SECONDS TRACK_SECONDS | storm PLAYERS CHANGES WAVES | churn PLAYERS WAVE LISTEN_MS | clients N SECONDS | huge SECONDS\n");
    return 64;
}
