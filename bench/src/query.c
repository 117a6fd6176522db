/* query — blocking round trips to the broker from one C libdbus client.
 *
 *   query recent --calls N [--first-ms T0 --last-ms T1 --apps a,b,c --seed S]
 *     alternates org.freedesktop.DBus.Peer.Ping and RecentMedia({limit: 50, random since/until
 *     window inside [T0, T1], random app_id}) to org.mediabroker.MediaBroker1 and prints p50, p99,
 *     min and max in µs of each, and the mean number of assets and of bytes (the marshalled reply)
 *     returned.
 *   query moments --calls N --days D --first-ms T0 --last-ms T1 [--seed S]
 *     the same with Moments({limit: 20, since: until − D days, until}), until uniform over
 *     [T0, T1]; prints the mean number of moments per reply as mean_moments.
 *   query once [--limit N] [--bytes]
 *     what a CLI making one RecentMedia call does, as a floor for broker-ctl: connects, calls
 *     RecentMedia({limit: N}) (default 50), decodes every value of the reply and prints the assets
 *     as a table like `broker-ctl recent` (WHEN TITLE ARTIST ALBUM APP); exits non-zero on an
 *     error. With --bytes it prints {"assets":…,"bytes":…} (the reply's marshalled size) instead.
 *   query startup --name NAME [--recent] -- PROGRAM ARGS…
 *     subscribes to NameOwnerChanged for NAME, then forks and execs PROGRAM; prints the µs from
 *     just before fork to the signal that NAME has an owner, and with --recent to the first
 *     answered RecentMedia (retried until the broker answers); then SIGTERMs the child.
 *   query repeat --runs N -- PROGRAM ARGS…
 *     runs PROGRAM N times (stdout to /dev/null) and prints wall-time p50/min/max in µs; fails
 *     when a run exits non-zero. */
#include "common.h"
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *BROKER = "org.mediabroker.MediaBroker1", *PATH = "/org/mediabroker/MediaBroker1";

static DBusMessage *recent_call(const char *app, int64_t since, int64_t until) {
    DBusMessage *m = dbus_message_new_method_call(BROKER, PATH, BROKER, "RecentMedia");
    DBusMessageIter iter, dict;
    dbus_uint32_t limit = 50;
    dbus_message_iter_init_append(m, &iter);
    dbus_message_iter_open_container(&iter, DBUS_TYPE_ARRAY, "{sv}", &dict);
    dict_entry(&dict, "limit", DBUS_TYPE_UINT32, &limit);
    if (app) dict_entry(&dict, "app_id", DBUS_TYPE_STRING, &app);
    if (since >= 0) { dbus_int64_t v = since; dict_entry(&dict, "since", DBUS_TYPE_INT64, &v); }
    if (until >= 0) { dbus_int64_t v = until; dict_entry(&dict, "until", DBUS_TYPE_INT64, &v); }
    dbus_message_iter_close_container(&iter, &dict);
    return m;
}

/* Moments({limit: 20, since: until − span, until}). */
static DBusMessage *moments_call(int64_t since, int64_t until) {
    DBusMessage *m = dbus_message_new_method_call(BROKER, PATH, BROKER, "Moments");
    DBusMessageIter iter, dict;
    dbus_uint32_t limit = 20;
    dbus_int64_t s = since, u = until;
    dbus_message_iter_init_append(m, &iter);
    dbus_message_iter_open_container(&iter, DBUS_TYPE_ARRAY, "{sv}", &dict);
    dict_entry(&dict, "limit", DBUS_TYPE_UINT32, &limit);
    dict_entry(&dict, "since", DBUS_TYPE_INT64, &s);
    dict_entry(&dict, "until", DBUS_TYPE_INT64, &u);
    dbus_message_iter_close_container(&iter, &dict);
    return m;
}

static int count_assets(DBusMessage *reply) {
    DBusMessageIter iter, array;
    if (!dbus_message_iter_init(reply, &iter) || dbus_message_iter_get_arg_type(&iter) != DBUS_TYPE_ARRAY) return -1;
    dbus_message_iter_recurse(&iter, &array);
    int n = 0;
    while (dbus_message_iter_get_arg_type(&array) != DBUS_TYPE_INVALID) { n++; dbus_message_iter_next(&array); }
    return n;
}

/* The reply's size on the wire (header and body), measured after the clock has stopped. */
static int wire_bytes(DBusMessage *reply) {
    char *bytes = NULL;
    int len = 0;
    if (!dbus_message_marshal(reply, &bytes, &len)) return -1;
    dbus_free(bytes);
    return len;
}

/* Sends `m` and blocks for the reply; returns the µs taken, -1 on an error reply. With `assets`,
 * counts the assets of the reply and its bytes (into `bytes`, when given). */
static int64_t round_trip_sized(DBusConnection *c, DBusMessage *m, int *assets, int *bytes) {
    DBusError error;
    dbus_error_init(&error);
    int64_t t0 = now_ns();
    DBusMessage *reply = dbus_connection_send_with_reply_and_block(c, m, 30000, &error);
    int64_t t1 = now_ns();
    if (!reply) {
        fprintf(stderr, "query: %s: %s\n", error.name, error.message);
        dbus_error_free(&error);
        return -1;
    }
    if (assets) *assets = count_assets(reply);
    if (bytes) *bytes = wire_bytes(reply);
    dbus_message_unref(reply);
    return (t1 - t0) / 1000;
}

static int64_t round_trip(DBusConnection *c, DBusMessage *m, int *assets) { return round_trip_sized(c, m, assets, NULL); }

static void print_stats(const char *name, int64_t *v, int n) {
    qsort(v, (size_t)n, sizeof *v, compare_i64);
    printf("\"%s\":{\"n\":%d,\"p50_us\":%lld,\"p99_us\":%lld,\"min_us\":%lld,\"max_us\":%lld}", name, n,
           (long long)quantile(v, n, 0.5), (long long)quantile(v, n, 0.99), (long long)v[0], (long long)v[n - 1]);
}

/* `query recent` and `query moments`: CALLS round trips of each kind, each beside a Ping. */
static int calls_beside_ping(int moments, int argc, char **argv) {
    int calls = 1000, days = 1;
    long long first_ms = 0, last_ms = 0;
    unsigned seed = 7;
    char *apps[32];
    int napps = 0;
    for (int i = 0; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--calls")) calls = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--days")) days = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--first-ms")) first_ms = atoll(argv[i + 1]);
        else if (!strcmp(argv[i], "--last-ms")) last_ms = atoll(argv[i + 1]);
        else if (!strcmp(argv[i], "--seed")) seed = (unsigned)atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--apps")) {
            for (char *s = strtok(argv[i + 1], ","); s && napps < 32; s = strtok(NULL, ",")) apps[napps++] = s;
        }
    }
    if (calls < 1 || days < 1 || (moments && last_ms <= first_ms)) {
        fprintf(stderr, "usage: query recent|moments --calls N [--days D] [--first-ms T0 --last-ms T1] [--apps a,b] [--seed S]\n");
        return 64;
    }
    srand(seed);
    DBusConnection *c = session_connection();
    int64_t *ping = calloc((size_t)calls, sizeof *ping), *call = calloc((size_t)calls, sizeof *call);
    long total_items = 0, total_bytes = 0;
    for (int i = 0; i < calls; i++) {
        DBusMessage *p = dbus_message_new_method_call(BROKER, "/", "org.freedesktop.DBus.Peer", "Ping");
        ping[i] = round_trip(c, p, NULL);
        dbus_message_unref(p);
        DBusMessage *m;
        if (moments) {
            int64_t until = (first_ms + (int64_t)((double)rand() / RAND_MAX * (double)(last_ms - first_ms))) * 1000;
            m = moments_call(until - (int64_t)days * 86400000000LL, until);
        } else {
            /* Half the calls filter by app; until is uniform over the history (a quarter leave it
             * out: "the newest"); half bound since to 1–60 days before until. */
            const char *app = (napps && rand() % 2) ? apps[rand() % napps] : NULL;
            int64_t until = -1, since = -1;
            if (last_ms > first_ms && rand() % 4) {
                until = (first_ms + (int64_t)((double)rand() / RAND_MAX * (double)(last_ms - first_ms))) * 1000;
            }
            if (rand() % 2) {
                int64_t top = until >= 0 ? until : last_ms * 1000;
                since = top - (int64_t)(1 + rand() % 60) * 86400000000LL;
                if (since < 0) since = 0;
            }
            m = recent_call(app, since, until);
        }
        int n = 0, bytes = 0;
        call[i] = round_trip_sized(c, m, &n, &bytes);
        dbus_message_unref(m);
        if (ping[i] < 0 || call[i] < 0) return 1;
        total_items += n;
        total_bytes += bytes;
    }
    printf("{");
    print_stats("ping", ping, calls);
    printf(",");
    print_stats(moments ? "moments" : "recent", call, calls);
    printf(",\"mean_%s\":%.1f,\"mean_bytes\":%.0f}\n", moments ? "moments" : "assets", (double)total_items / calls,
           (double)total_bytes / calls);
    return 0;
}

static volatile int owned = 0;

static DBusHandlerResult owner_filter(DBusConnection *c, DBusMessage *m, void *data) {
    (void)c;
    const char *want = data, *name, *old, *new_;
    if (dbus_message_is_signal(m, "org.freedesktop.DBus", "NameOwnerChanged") &&
        dbus_message_get_args(m, NULL, DBUS_TYPE_STRING, &name, DBUS_TYPE_STRING, &old, DBUS_TYPE_STRING, &new_, DBUS_TYPE_INVALID) &&
        !strcmp(name, want) && new_[0]) owned = 1;
    return DBUS_HANDLER_RESULT_NOT_YET_HANDLED;
}

static int startup(int argc, char **argv) {
    const char *name = NULL;
    int want_recent = 0, i = 0;
    for (; i < argc && strcmp(argv[i], "--"); i++) {
        if (!strcmp(argv[i], "--name") && i + 1 < argc) name = argv[++i];
        else if (!strcmp(argv[i], "--recent")) want_recent = 1;
    }
    if (!name || i + 1 >= argc) { fprintf(stderr, "usage: query startup --name NAME [--recent] -- PROGRAM ARGS…\n"); return 64; }
    char **program = argv + i + 1;
    DBusConnection *c = session_connection();
    DBusError error;
    dbus_error_init(&error);
    char rule[512];
    snprintf(rule, sizeof rule, "type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged',arg0='%s'", name);
    dbus_bus_add_match(c, rule, &error);
    die_on(&error, "AddMatch");
    dbus_connection_add_filter(c, owner_filter, (void *)name, NULL);
    if (dbus_bus_name_has_owner(c, name, &error)) { fprintf(stderr, "query: %s already has an owner\n", name); return 1; }
    int64_t t0 = now_ns();
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 1);
        dup2(null, 2);
        execvp(program[0], program);
        _exit(127);
    }
    int64_t deadline = t0 + 60LL * 1000000000;
    while (!owned && now_ns() < deadline) dbus_connection_read_write_dispatch(c, 50);
    int64_t t_name = now_ns(), t_recent = 0;
    if (owned && want_recent) {
        for (;;) {
            DBusMessage *r = recent_call(NULL, -1, -1);
            int n;
            int64_t rt = round_trip(c, r, &n);
            dbus_message_unref(r);
            if (rt >= 0 || now_ns() > deadline) break;
        }
        t_recent = now_ns();
    }
    kill(pid, SIGTERM);
    int status = 0;
    waitpid(pid, &status, 0);
    if (!owned) { fprintf(stderr, "query: %s never appeared\n", name); return 1; }
    printf("{\"name_us\":%lld", (long long)((t_name - t0) / 1000));
    if (want_recent) printf(",\"recent_us\":%lld", (long long)((t_recent - t0) / 1000));
    printf("}\n");
    return 0;
}

static int repeat(int argc, char **argv) {
    int runs = 20, i = 0;
    for (; i < argc && strcmp(argv[i], "--"); i++) {
        if (!strcmp(argv[i], "--runs") && i + 1 < argc) runs = atoi(argv[++i]);
    }
    if (i + 1 >= argc) { fprintf(stderr, "usage: query repeat --runs N -- PROGRAM ARGS…\n"); return 64; }
    char **program = argv + i + 1;
    int64_t *wall = calloc((size_t)runs, sizeof *wall);
    for (int r = 0; r < runs; r++) {
        int64_t t0 = now_ns();
        pid_t pid = fork();
        if (pid == 0) {
            int null = open("/dev/null", O_WRONLY);
            dup2(null, 1);
            execvp(program[0], program);
            _exit(127);
        }
        int status = 0;
        waitpid(pid, &status, 0);
        wall[r] = (now_ns() - t0) / 1000;
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            fprintf(stderr, "query: %s failed (status %d)\n", program[0], status);
            return 1;
        }
    }
    qsort(wall, (size_t)runs, sizeof *wall, compare_i64);
    printf("{\"runs\":%d,\"p50_us\":%lld,\"min_us\":%lld,\"max_us\":%lld}\n", runs, (long long)quantile(wall, runs, 0.5),
           (long long)wall[0], (long long)wall[runs - 1]);
    return 0;
}

/* One asset of a reply, as `once` prints it: the strings point into the reply. */
struct row {
    int64_t started;
    const char *title, *artist, *album, *app;
};

/* Decodes one a{sv} (every value, as a client must to use it) into `row`; 0 on a malformed one. */
static int decode_asset(DBusMessageIter *asset, struct row *row) {
    DBusMessageIter dict, entry, variant, names;
    if (dbus_message_iter_get_arg_type(asset) != DBUS_TYPE_ARRAY) return 0;
    memset(row, 0, sizeof *row);
    row->title = row->artist = row->album = row->app = "";
    dbus_message_iter_recurse(asset, &dict);
    for (; dbus_message_iter_get_arg_type(&dict) == DBUS_TYPE_DICT_ENTRY; dbus_message_iter_next(&dict)) {
        const char *key;
        dbus_message_iter_recurse(&dict, &entry);
        if (dbus_message_iter_get_arg_type(&entry) != DBUS_TYPE_STRING) return 0;
        dbus_message_iter_get_basic(&entry, &key);
        dbus_message_iter_next(&entry);
        if (dbus_message_iter_get_arg_type(&entry) != DBUS_TYPE_VARIANT) return 0;
        dbus_message_iter_recurse(&entry, &variant);
        switch (dbus_message_iter_get_arg_type(&variant)) {
        case DBUS_TYPE_STRING: {
            const char *text;
            dbus_message_iter_get_basic(&variant, &text);
            if (!strcmp(key, "title")) row->title = text;
            else if (!strcmp(key, "artist")) row->artist = text;
            else if (!strcmp(key, "album")) row->album = text;
            else if (!strcmp(key, "app_id")) row->app = text;
            break;
        }
        case DBUS_TYPE_INT64: {
            dbus_int64_t value;
            dbus_message_iter_get_basic(&variant, &value);
            if (!strcmp(key, "started")) row->started = value;
            break;
        }
        case DBUS_TYPE_ARRAY: /* artists: read each name (`artist` already joins them) */
            dbus_message_iter_recurse(&variant, &names);
            for (; dbus_message_iter_get_arg_type(&names) == DBUS_TYPE_STRING; dbus_message_iter_next(&names)) {
                const char *name;
                dbus_message_iter_get_basic(&names, &name);
            }
            break;
        default: break;
        }
    }
    return 1;
}

static int width(const char *s) { /* columns of a UTF-8 string: its code points */
    int n = 0;
    for (; *s; s++) n += ((unsigned char)*s & 0xc0) != 0x80;
    return n;
}

static int once(int argc, char **argv) {
    dbus_uint32_t limit = 50;
    int bytes_only = 0;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--limit") && i + 1 < argc) limit = (dbus_uint32_t)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--bytes")) bytes_only = 1;
        else { fprintf(stderr, "usage: query once [--limit N] [--bytes]\n"); return 64; }
    }
    DBusConnection *c = session_connection();
    DBusMessage *m = dbus_message_new_method_call(BROKER, PATH, BROKER, "RecentMedia");
    DBusMessageIter iter, dict, array;
    dbus_message_iter_init_append(m, &iter);
    dbus_message_iter_open_container(&iter, DBUS_TYPE_ARRAY, "{sv}", &dict);
    dict_entry(&dict, "limit", DBUS_TYPE_UINT32, &limit);
    dbus_message_iter_close_container(&iter, &dict);
    DBusError error;
    dbus_error_init(&error);
    DBusMessage *reply = dbus_connection_send_with_reply_and_block(c, m, 30000, &error);
    if (!reply) { fprintf(stderr, "query: %s: %s\n", error.name, error.message); return 1; }
    if (!dbus_message_iter_init(reply, &iter) || dbus_message_iter_get_arg_type(&iter) != DBUS_TYPE_ARRAY) {
        fprintf(stderr, "query: the reply is not aa{sv}\n");
        return 1;
    }
    int count = 0, n = 0;
    dbus_message_iter_recurse(&iter, &array);
    for (DBusMessageIter a = array; dbus_message_iter_get_arg_type(&a) != DBUS_TYPE_INVALID; dbus_message_iter_next(&a)) count++;
    struct row *rows = calloc((size_t)count + 1, sizeof *rows);
    for (; dbus_message_iter_get_arg_type(&array) != DBUS_TYPE_INVALID; dbus_message_iter_next(&array)) {
        if (!decode_asset(&array, &rows[n++])) { fprintf(stderr, "query: an asset is not a{sv}\n"); return 1; }
    }
    if (bytes_only) {
        printf("{\"assets\":%d,\"bytes\":%d}\n", n, wire_bytes(reply));
        return 0;
    }
    /* The table `broker-ctl recent` prints: local start time, then the text columns aligned. */
    char (*when)[32] = calloc((size_t)n + 1, sizeof *when);
    int w[4] = {5, 6, 5, 5};
    for (int i = 0; i < n; i++) {
        time_t t = (time_t)(rows[i].started / 1000000);
        struct tm tm;
        localtime_r(&t, &tm);
        strftime(when[i], sizeof when[i], "%Y-%m-%d %H:%M", &tm);
        const char *cols[4] = {rows[i].title, rows[i].artist, rows[i].album, rows[i].app};
        for (int k = 0; k < 4; k++) if (width(cols[k]) > w[k]) w[k] = width(cols[k]);
    }
    printf("%-16s  %-*s  %-*s  %-*s  %s\n", "WHEN", w[0], "TITLE", w[1], "ARTIST", w[2], "ALBUM", "APP");
    for (int i = 0; i < n; i++) {
        const char *cols[3] = {rows[i].title, rows[i].artist, rows[i].album};
        printf("%-16s", when[i]);
        for (int k = 0; k < 3; k++) printf("  %s%*s", cols[k], w[k] - width(cols[k]), "");
        printf("  %s\n", rows[i].app);
    }
    return fflush(stdout) == 0 ? 0 : 1;
}

int main(int argc, char **argv) {
    if (argc >= 2 && !strcmp(argv[1], "recent")) return calls_beside_ping(0, argc - 2, argv + 2);
    if (argc >= 2 && !strcmp(argv[1], "moments")) return calls_beside_ping(1, argc - 2, argv + 2);
    if (argc >= 2 && !strcmp(argv[1], "startup")) return startup(argc - 2, argv + 2);
    if (argc >= 2 && !strcmp(argv[1], "repeat")) return repeat(argc - 2, argv + 2);
    if (argc >= 2 && !strcmp(argv[1], "once")) return once(argc - 2, argv + 2);
    fprintf(stderr, "usage: query recent|moments|startup|repeat|once …\n");
    return 64;
}
