/* page — the transport floor for RecentMedia: a C libdbus service that owns the broker's name and
 * answers every RecentMedia call (whatever its arguments) with a page of generated assets shaped
 * like the broker's, so bench/run can run the same client against it as against the broker.
 *
 *   page [--mode copy|build] [--assets N]
 *     serves until killed. copy (default): the page is built once and each reply is a
 *     dbus_message_copy of it with the reply serial and destination set — no per-call work, so
 *     what remains is libdbus and dbus-daemon carrying the bytes. build: each reply is built with
 *     libdbus's iterators, what a C broker holding the page in memory would do. libdbus answers
 *     org.freedesktop.DBus.Peer.Ping by itself.
 *   page demarshal [--assets N] [--runs R]
 *     marshals one such reply (with the header fields a reply from the bus carries) and prints its
 *     size and the p50/min µs of dbus_message_demarshal of those bytes — the validation that
 *     dbus-daemon and the receiving client each run on every message — and of building the page
 *     with the iterators and of dbus_message_copy.
 *
 * The assets have the shape of what the broker returns for the history bench/gen.sql generates:
 * the same 13 keys in the broker's order (sorted; app_icon is NULL there, so absent), the same
 * types (x for id and the times, s, as for artists) and strings of the same lengths (gen.sql's
 * patterns, its app ids and names: one draw per row for the song, the app and the times, as gen.sql
 * materializes them).
 * How it was checked: on a private bus, the release broker on a 2,000-asset store from gen.sql,
 * `busctl --user call … RecentMedia 'a{sv}' 1 limit u 50 --json=pretty` against this service
 * gives the same keys, order and types (dbus-send cannot write the a{sv} argument). The size of the
 * reply as the client receives it (`query once --bytes`), on a 100k store from gen.sql: 21,179
 * bytes for the broker's newest 50 assets and 21,235 for `page --assets 50` (+0.3%), 19,059 and
 * 19,075 for 45 (+0.1%). bench/run records the broker's mean and the page's size (query_1m
 * reply_bytes) in every run. */
#include "common.h"

struct asset {
    dbus_int64_t id, started, ended, listened, length;
    char title[32], first[16], guest[16], artist[40], album[16];
    const char *app_id, *app_name;
};

static const char *BROKER = "org.mediabroker.MediaBroker1";
static struct asset *assets;
static int nassets = 45;

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
static uint64_t rng(void) { /* xorshift64*: a fixed page for a given N */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545f4914f6cdd1dULL;
}
static int pick(int n) { return (int)(rng() % (uint64_t)n); }

/* gen.sql's CASE on `pick`: the app whose share `pick` (0–99) falls in. */
static int app_of(int pick_value) {
    static const int below[] = {35, 55, 70, 80, 88, 94, 98};
    for (int i = 0; i < 7; i++)
        if (pick_value < below[i]) return i;
    return 7;
}

static void generate(void) {
    static const char *const ids[] = {"spotify", "org.mozilla.firefox", "mpv", "org.gnome.Rhythmbox3", "vlc",
                                      "org.strawberrymusicplayer.strawberry", "chromium", "io.bassi.Amberol"};
    static const char *const names[] = {"Spotify", "Firefox", "mpv", "Rhythmbox", "VLC media player",
                                        "Strawberry", "Chromium", "Amberol"};
    assets = calloc((size_t)nassets, sizeof *assets);
    dbus_int64_t now = 1764000000000000LL, step = 31536000000000LL / 1000000; /* 1M listens a year */
    for (int i = 0; i < nassets; i++) {
        struct asset *a = &assets[i];
        a->id = 1000000 - i;
        a->length = 150000000 + pick(240000000);
        a->started = now - (dbus_int64_t)i * step - pick(60000000);
        a->ended = a->started + a->length;
        a->listened = a->length * 9 / 10;
        int song = pick(5000), app = app_of(pick(100));
        snprintf(a->title, sizeof a->title, "Song %d (%d remaster)", song, song % 7);
        snprintf(a->first, sizeof a->first, "Artist %d", song % 400);
        snprintf(a->guest, sizeof a->guest, "Guest %d", song % 37);
        snprintf(a->artist, sizeof a->artist, "%s, %s", a->first, a->guest);
        snprintf(a->album, sizeof a->album, "Album %d", song % 900);
        a->app_id = ids[app];
        a->app_name = names[app];
    }
}

/* One asset's a{sv}, as the broker writes it. */
static void append_asset(DBusMessageIter *array, const struct asset *a) {
    const char *names[] = {a->first, a->guest};
    struct asset_fields fields = {
        .album = a->album, .app_id = a->app_id, .app_name = a->app_name, .artist = a->artist, .kind = "music",
        .source = "mpris", .title = a->title, .artists = names, .artist_count = 2, .has_id = 1, .has_length = 1,
        .ended = a->ended, .id = a->id, .length = a->length, .listened = a->listened, .started = a->started};
    if (!append_asset_fields(array, &fields)) { fprintf(stderr, "page: out of memory\n"); exit(1); }
}

static void fill(DBusMessage *m) {
    DBusMessageIter iter, array;
    dbus_message_iter_init_append(m, &iter);
    dbus_message_iter_open_container(&iter, DBUS_TYPE_ARRAY, "a{sv}", &array);
    for (int i = 0; i < nassets; i++) append_asset(&array, &assets[i]);
    dbus_message_iter_close_container(&iter, &array);
}

static DBusMessage *template_reply;
static int mode_build = 0;

static DBusHandlerResult on_message(DBusConnection *c, DBusMessage *m, void *data) {
    (void)data;
    if (!dbus_message_is_method_call(m, BROKER, "RecentMedia")) return DBUS_HANDLER_RESULT_NOT_YET_HANDLED;
    DBusMessage *reply = mode_build ? dbus_message_new_method_return(m) : dbus_message_copy(template_reply);
    if (!reply) { fprintf(stderr, "page: out of memory\n"); exit(1); }
    if (mode_build) {
        fill(reply);
    } else {
        dbus_message_set_reply_serial(reply, dbus_message_get_serial(m));
        dbus_message_set_destination(reply, dbus_message_get_sender(m));
    }
    if (!dbus_connection_send(c, reply, NULL)) { fprintf(stderr, "page: out of memory\n"); exit(1); }
    dbus_message_unref(reply);
    return DBUS_HANDLER_RESULT_HANDLED;
}

static int serve(void) {
    template_reply = dbus_message_new(DBUS_MESSAGE_TYPE_METHOD_RETURN);
    fill(template_reply);
    DBusConnection *c = session_connection();
    dbus_connection_add_filter(c, on_message, NULL, NULL);
    own_name(c, BROKER);
    while (dbus_connection_read_write_dispatch(c, -1)) {}
    return 0;
}

static double p50_us(int64_t *ns, int n) {
    qsort(ns, (size_t)n, sizeof *ns, compare_i64);
    return (double)quantile(ns, n, 0.5) / 1000.0;
}

static int demarshal(int runs) {
    /* A reply as the client receives it: the bus has added the sender. */
    DBusMessage *m = dbus_message_new(DBUS_MESSAGE_TYPE_METHOD_RETURN);
    fill(m);
    dbus_message_set_serial(m, 7);
    dbus_message_set_reply_serial(m, 3);
    dbus_message_set_destination(m, ":1.42");
    dbus_message_set_sender(m, ":1.41");
    char *bytes = NULL;
    int len = 0;
    if (!dbus_message_marshal(m, &bytes, &len)) { fprintf(stderr, "page: marshal failed\n"); return 1; }
    int64_t *dem = calloc((size_t)runs, sizeof *dem), *build = calloc((size_t)runs, sizeof *build),
            *copy = calloc((size_t)runs, sizeof *copy);
    for (int r = 0; r < runs; r++) {
        DBusError error;
        dbus_error_init(&error);
        int64_t t0 = now_ns();
        DBusMessage *back = dbus_message_demarshal(bytes, len, &error);
        int64_t t1 = now_ns();
        die_on(&error, "demarshal");
        dbus_message_unref(back);
        int64_t t2 = now_ns();
        DBusMessage *built = dbus_message_new(DBUS_MESSAGE_TYPE_METHOD_RETURN);
        fill(built);
        int64_t t3 = now_ns();
        dbus_message_unref(built);
        int64_t t4 = now_ns();
        DBusMessage *copied = dbus_message_copy(m);
        int64_t t5 = now_ns();
        dbus_message_unref(copied);
        dem[r] = t1 - t0, build[r] = t3 - t2, copy[r] = t5 - t4;
    }
    int64_t best = dem[0];
    for (int r = 1; r < runs; r++) if (dem[r] < best) best = dem[r];
    printf("{\"assets\":%d,\"bytes\":%d,\"runs\":%d,\"demarshal_p50_us\":%.1f,\"demarshal_min_us\":%.1f,"
           "\"build_p50_us\":%.1f,\"copy_p50_us\":%.1f}\n",
           nassets, len, runs, p50_us(dem, runs), (double)best / 1000.0, p50_us(build, runs), p50_us(copy, runs));
    dbus_free(bytes);
    dbus_message_unref(m);
    return 0;
}

int main(int argc, char **argv) {
    int i = 1, runs = 200, measure = 0;
    if (argc > 1 && !strcmp(argv[1], "demarshal")) measure = 1, i = 2;
    for (; i < argc; i++) {
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(argv[i], "--mode") && value && (!strcmp(value, "copy") || !strcmp(value, "build")))
            mode_build = !strcmp(value, "build");
        else if (!strcmp(argv[i], "--assets") && value && atoi(value) >= 0) nassets = atoi(value);
        else if (!strcmp(argv[i], "--runs") && value && atoi(value) > 0) runs = atoi(value);
        else {
            fprintf(stderr, "usage: page [--mode copy|build] [--assets N] | page demarshal [--assets N] [--runs R]\n");
            return 64;
        }
        i++;
    }
    generate();
    return measure ? demarshal(runs) : serve();
}
