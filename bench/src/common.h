/* Helpers shared by the benchmark programs: clocks, another process's CPU time, a libdbus error
 * check, one asset's a{sv} as the broker writes it, percentiles. Header-only so each program builds
 * with one `cc` call. */
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H
#define _GNU_SOURCE
#include <dbus/dbus.h>
#include "../../scripts/lib/reliability/sv_entry.h"
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static inline int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* CPU time of every live thread of `pid`, in ns: the first field of /proc/PID/task/TID/schedstat
 * (the scheduler's own runtime, ns resolution, unlike utime/stime's 10 ms ticks). */
static inline int64_t cpu_ns_of(int pid) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task", pid);
    DIR *dir = opendir(path);
    if (!dir) return -1;
    int64_t sum = 0;
    struct dirent *entry;
    while ((entry = readdir(dir))) {
        if (entry->d_name[0] == '.') continue;
        char file[320];
        snprintf(file, sizeof file, "/proc/%d/task/%s/schedstat", pid, entry->d_name);
        FILE *f = fopen(file, "r");
        if (!f) continue;
        long long run = 0;
        if (fscanf(f, "%lld", &run) == 1) sum += run;
        fclose(f);
    }
    closedir(dir);
    return sum;
}

/* Waits until `pid` has used no CPU for `quiet_ms` (sampled every 20 ms), at most `limit_ms`. */
static inline int64_t cpu_settled(int pid, int quiet_ms, int limit_ms) {
    int64_t last = cpu_ns_of(pid), start = now_ns(), quiet_since = now_ns();
    for (;;) {
        struct timespec nap = {0, 20 * 1000000};
        nanosleep(&nap, NULL);
        int64_t cur = cpu_ns_of(pid), t = now_ns();
        if (cur != last) { last = cur; quiet_since = t; }
        if (t - quiet_since >= (int64_t)quiet_ms * 1000000) return last;
        if (t - start >= (int64_t)limit_ms * 1000000) return last;
    }
}

static inline void die_on(DBusError *error, const char *what) {
    if (dbus_error_is_set(error)) {
        fprintf(stderr, "%s: %s: %s\n", what, error->name, error->message);
        exit(1);
    }
}

static inline DBusConnection *session_connection(void) {
    DBusError error;
    dbus_error_init(&error);
    DBusConnection *c = dbus_bus_get_private(DBUS_BUS_SESSION, &error);
    die_on(&error, "connect");
    dbus_connection_set_exit_on_disconnect(c, FALSE);
    return c;
}

static inline void own_name(DBusConnection *c, const char *name) {
    DBusError error;
    dbus_error_init(&error);
    int rc = dbus_bus_request_name(c, name, DBUS_NAME_FLAG_DO_NOT_QUEUE, &error);
    die_on(&error, name);
    if (rc != DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER) { fprintf(stderr, "%s: taken\n", name); exit(1); }
}

/* Appends {key: <value>} to an open a{sv}; `value` points at the value as
 * dbus_message_iter_append_basic takes it (a `const char **` for strings). FALSE when libdbus ran
 * out of memory. */
static inline dbus_bool_t dict_entry(DBusMessageIter *dict, const char *key, int type, const void *value) {
    char sig[2] = {(char)type, 0};
    return entry_basic(dict, key, type, sig, value);
}

/* Appends {key: <as>} with `count` strings to an open a{sv}. */
static inline dbus_bool_t dict_entry_strings(DBusMessageIter *dict, const char *key, const char *const *values, int count) {
    DBusMessageIter entry, variant, array;
    if (!dbus_message_iter_open_container(dict, DBUS_TYPE_DICT_ENTRY, NULL, &entry)
        || !dbus_message_iter_append_basic(&entry, DBUS_TYPE_STRING, &key)
        || !dbus_message_iter_open_container(&entry, DBUS_TYPE_VARIANT, "as", &variant)
        || !dbus_message_iter_open_container(&variant, DBUS_TYPE_ARRAY, "s", &array))
        return FALSE;
    for (int i = 0; i < count; i++)
        if (!dbus_message_iter_append_basic(&array, DBUS_TYPE_STRING, &values[i])) return FALSE;
    return dbus_message_iter_close_container(&variant, &array) && dbus_message_iter_close_container(&entry, &variant)
        && dbus_message_iter_close_container(dict, &entry);
}

/* One asset as the broker writes it into RecentMedia's pages and MediaAdded (AssetFields.swift,
 * `writeFields`): a NULL text, no artists, `has_id` or `has_length` 0 leave the key out. */
struct asset_fields {
    const char *album, *app_icon, *app_id, *app_name, *artist, *kind, *source, *title;
    const char *const *artists;
    int artist_count, has_id, has_length;
    dbus_int64_t ended, id, length, listened, started;
};

/* Appends the asset's a{sv} to `container` (an open aa{sv}, or a message's arguments), keys in the
 * broker's order (sorted). FALSE when libdbus ran out of memory. */
static inline dbus_bool_t append_asset_fields(DBusMessageIter *container, const struct asset_fields *a) {
    DBusMessageIter dict;
    if (!dbus_message_iter_open_container(container, DBUS_TYPE_ARRAY, "{sv}", &dict)) return FALSE;
    dbus_bool_t ok = TRUE;
    if (a->album) ok = ok && dict_entry(&dict, "album", DBUS_TYPE_STRING, &a->album);
    if (a->app_icon) ok = ok && dict_entry(&dict, "app_icon", DBUS_TYPE_STRING, &a->app_icon);
    ok = ok && dict_entry(&dict, "app_id", DBUS_TYPE_STRING, &a->app_id);
    if (a->app_name) ok = ok && dict_entry(&dict, "app_name", DBUS_TYPE_STRING, &a->app_name);
    if (a->artist_count > 0)
        ok = ok && dict_entry(&dict, "artist", DBUS_TYPE_STRING, &a->artist)
            && dict_entry_strings(&dict, "artists", a->artists, a->artist_count);
    ok = ok && dict_entry(&dict, "ended", DBUS_TYPE_INT64, &a->ended);
    if (a->has_id) ok = ok && dict_entry(&dict, "id", DBUS_TYPE_INT64, &a->id);
    if (a->kind) ok = ok && dict_entry(&dict, "kind", DBUS_TYPE_STRING, &a->kind);
    if (a->has_length) ok = ok && dict_entry(&dict, "length", DBUS_TYPE_INT64, &a->length);
    return ok && dict_entry(&dict, "listened", DBUS_TYPE_INT64, &a->listened)
        && dict_entry(&dict, "source", DBUS_TYPE_STRING, &a->source)
        && dict_entry(&dict, "started", DBUS_TYPE_INT64, &a->started)
        && dict_entry(&dict, "title", DBUS_TYPE_STRING, &a->title)
        && dbus_message_iter_close_container(container, &dict);
}

static inline int compare_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* The q-quantile (0..1) of n sorted values, nearest rank. */
static inline int64_t quantile(const int64_t *sorted, int n, double q) {
    if (n == 0) return 0;
    int i = (int)(q * n + 0.999999) - 1;
    if (i < 0) i = 0;
    if (i >= n) i = n - 1;
    return sorted[i];
}
#endif
