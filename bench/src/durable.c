/* durable — the C floor of recording one track change on its own: what the broker's store does
 * when a change arrives alone (as in the ingest flood, one change in 20 signals), with nothing of
 * the broker around it. In one `synchronous=FULL` WAL transaction, as the broker commits: insert
 * the finished asset, delete its open listen, insert the next open listen; then COMMIT, which
 * syncs the WAL. Prints the CPU (user + system, getrusage) and wall time per change.
 *
 *   durable DATABASE CHANGES [full|normal]
 *     DATABASE must have the broker's schema (bench/run passes a copy of a store the broker
 *     made). `normal` (synchronous=NORMAL: no sync at COMMIT, safe against a crash of the
 *     process but not of the machine) shows what the sync costs. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static double cpu_us(void) {
    struct rusage r;
    getrusage(RUSAGE_SELF, &r);
    return (double)(r.ru_utime.tv_sec + r.ru_stime.tv_sec) * 1e6 + (double)(r.ru_utime.tv_usec + r.ru_stime.tv_usec);
}

static double wall_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static void check(sqlite3 *db, int rc, const char *what) {
    if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW) {
        fprintf(stderr, "durable: %s: %s\n", what, sqlite3_errmsg(db));
        exit(1);
    }
}

/* Binds the text columns every row shares, from `first` on. */
static void bind_track(sqlite3_stmt *s, int first, const char *title) {
    sqlite3_bind_text(s, first, title, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, first + 1, "Nils Frahm", -1, SQLITE_STATIC);
    sqlite3_bind_text(s, first + 2, "All Melody", -1, SQLITE_STATIC);
    sqlite3_bind_text(s, first + 3, "flood", -1, SQLITE_STATIC);
    sqlite3_bind_text(s, first + 4, "Flood", -1, SQLITE_STATIC);
    sqlite3_bind_null(s, first + 5);
    sqlite3_bind_text(s, first + 6, "music", -1, SQLITE_STATIC);
    sqlite3_bind_text(s, first + 7, "mpris", -1, SQLITE_STATIC);
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: durable DATABASE CHANGES [full|normal]\n"); return 64; }
    int n = atoi(argv[2]);
    const char *sync = argc > 3 && !strcmp(argv[3], "normal") ? "NORMAL" : "FULL";
    sqlite3 *db = NULL;
    int rc = sqlite3_open(argv[1], &db);
    check(db, rc, "open");
    char pragmas[96];
    snprintf(pragmas, sizeof pragmas, "PRAGMA journal_mode=WAL; PRAGMA synchronous=%s;", sync);
    check(db, sqlite3_exec(db, pragmas, 0, 0, 0), "pragmas");
    sqlite3_stmt *insert, *drop, *open;
    check(db, sqlite3_prepare_v2(db, "INSERT INTO assets(started, ended, listened, length, title, artists, album, app_id, app_name, "
                                     "app_icon, kind, source) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", -1, &insert, 0), "prepare");
    check(db, sqlite3_prepare_v2(db, "DELETE FROM open_listens WHERE key = ?", -1, &drop, 0), "prepare");
    check(db, sqlite3_prepare_v2(db, "INSERT INTO open_listens(key, started, ended, listened, length, title, artists, album, app_id, "
                                     "app_name, app_icon, kind, source, checkpointed) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", -1, &open, 0), "prepare");
    /* Now (µs since the epoch), so that runs on the same file never collide on an asset's identity. */
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    long long t = (long long)now.tv_sec * 1000000LL + now.tv_nsec / 1000;
    char key[64], next[64], title[64];
    double c0 = cpu_us(), w0 = wall_us();
    for (int i = 0; i < n; i++) {
        long long started = t + (long long)i * 1000;
        snprintf(title, sizeof title, "durable Track %d, evening session", i);
        snprintf(key, sizeof key, ":1.5-%lld-%d", started, i);
        snprintf(next, sizeof next, ":1.5-%lld-%d", started + 1000, i + 1);
        check(db, sqlite3_exec(db, "BEGIN", 0, 0, 0), "BEGIN");
        sqlite3_bind_int64(insert, 1, started);
        sqlite3_bind_int64(insert, 2, started + 500);
        sqlite3_bind_int64(insert, 3, 500);
        sqlite3_bind_int64(insert, 4, 240000000);
        bind_track(insert, 5, title);
        check(db, sqlite3_step(insert), "insert");
        sqlite3_reset(insert);
        sqlite3_bind_text(drop, 1, key, -1, SQLITE_STATIC);
        check(db, sqlite3_step(drop), "delete");
        sqlite3_reset(drop);
        sqlite3_bind_text(open, 1, next, -1, SQLITE_STATIC);
        sqlite3_bind_int64(open, 2, started + 1000);
        sqlite3_bind_int64(open, 3, started + 1000);
        sqlite3_bind_int64(open, 4, 0);
        sqlite3_bind_int64(open, 5, 240000000);
        bind_track(open, 6, title);
        sqlite3_bind_int64(open, 14, started + 1000);
        check(db, sqlite3_step(open), "open listen");
        sqlite3_reset(open);
        check(db, sqlite3_exec(db, "COMMIT", 0, 0, 0), "COMMIT");
    }
    printf("{\"changes\":%d,\"synchronous\":\"%s\",\"cpu_us_per_change\":%.1f,\"wall_us_per_change\":%.1f}\n", n, sync,
           (cpu_us() - c0) / n, (wall_us() - w0) / n);
    sqlite3_finalize(insert);
    sqlite3_finalize(drop);
    sqlite3_finalize(open);
    return sqlite3_close(db) == SQLITE_OK ? 0 : 1;
}
