/* follower — the floor for a track change: the least a listen-recording MPRIS follower written in C
 * does per change, so bench/run can set the broker's CPU per change beside it, in the same run.
 *
 * It owns NAME (the flood pings it), subscribes to PropertiesChanged on /org/mpris/MediaPlayer2,
 * reads PLAYER's root properties (Identity, DesktopEntry: the app's name and id) and then its Player
 * properties once (GetAll, which starts the flood). Each PropertiesChanged of PLAYER whose metadata
 * differs from the previous one (title, artists, album, length, trackid, url, decoded with libdbus's
 * iterators) is a track change: the listen that was playing is finished — its asset inserted into
 * `assets` and its row deleted from `open_listens` — and the new track's listen is opened (a row
 * in `open_listens`). A finished listen is announced with a MediaAdded signal carrying the a{sv}
 * the broker sends, once its row is committed.
 *
 * The store is the broker's own (bench/run passes a copy of an empty store the broker created):
 * its tables, the broker's statements (HistoryDatabase+Assets.swift, +OpenListens.swift) prepared
 * once, its pragmas (WAL, synchronous=FULL, secure_delete, defensive mode).
 *
 * Group commit as the broker's store thread does it (StoreThread.swift, `runJobs`), in one thread:
 * changes go into an open transaction (BEGIN IMMEDIATE at the first one); it is committed as soon as
 * WINDOW ms (default 25, the broker's) have passed since the previous commit ended — checked after each message, and while
 * nothing is left to read the follower waits for the socket at most until then. A change after a
 * quiet spell is so committed at once; changes arriving within the window share the next commit.
 * The MediaAdded signals built meanwhile are sent only after their COMMIT.
 *
 * What it leaves out of the broker's work: cleaning and bounding texts, the listen rule (every
 * finished listen counts, as with the broker's --min-listen 0), checkpoints, seeking, rate, the
 * twin rule, privacy settings, other players.
 *
 * usage: follower --database PATH [--name NAME] [--player BUSNAME] [--window-ms MS] */
#include "common.h"
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <sqlite3.h>

#define MAX_ARTISTS 64

/* One track's metadata. Decoded from a message, the texts point into it; as `current`, into `text`. */
struct metadata {
    const char *trackid, *title, *album, *url;
    const char *artists[MAX_ARTISTS];
    int artist_count, has_length;
    dbus_int64_t length;
    char *text;   /* the current track's copies of the texts, one block */
    char *joined; /* room in that block for its artists joined (see `joined_artists`) */
    size_t capacity;
};

static sqlite3 *db;
static sqlite3_stmt *begin_tx, *commit_tx, *insert_asset, *existing_id, *delete_open, *save_open;
static DBusConnection *bus;
static DBusMessage *added_template;
static const char *player_unique = "";
static char app_id[256] = "", app_name[256] = "";

/* The listen in progress. */
static struct metadata current;
static int listening = 0, playing = 1;
static char listen_key[320];
static dbus_int64_t started, listened, clock_since; /* µs since the epoch; `listened` counts to `clock_since` */
static unsigned long long serial = 0;

/* The transaction and what waits for its COMMIT. */
static int in_transaction = 0;
static int64_t window_closes = 0; /* monotonic ns */
static int64_t window_ns = 25 * 1000000LL;
static DBusMessage **pending;
static int pending_count = 0, pending_capacity = 0;

static void fail(const char *what) {
    fprintf(stderr, "follower: %s\n", what);
    exit(1);
}

static void check_sql(int rc, const char *what) {
    if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW) {
        fprintf(stderr, "follower: %s: %s (%d)\n", what, sqlite3_errmsg(db), sqlite3_extended_errcode(db));
        exit(1);
    }
}

/* Runs a prepared statement that returns no row, then resets it and clears its bindings. */
static void run(sqlite3_stmt *statement, const char *what) {
    check_sql(sqlite3_step(statement), what);
    check_sql(sqlite3_reset(statement), what);
    check_sql(sqlite3_clear_bindings(statement), what);
}

static sqlite3_stmt *prepare(const char *sql) {
    sqlite3_stmt *statement = NULL;
    check_sql(sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &statement, NULL), sql);
    return statement;
}

static dbus_int64_t wall_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (dbus_int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static int same_text(const char *a, const char *b) { return a == b || (a && b && strcmp(a, b) == 0); }

static int same_track(const struct metadata *a, const struct metadata *b) {
    if (a->artist_count != b->artist_count || a->has_length != b->has_length || (a->has_length && a->length != b->length))
        return 0;
    for (int i = 0; i < a->artist_count; i++)
        if (strcmp(a->artists[i], b->artists[i]) != 0) return 0;
    return same_text(a->title, b->title) && same_text(a->trackid, b->trackid) && same_text(a->album, b->album)
        && same_text(a->url, b->url);
}

/* Copies `text` into `*cursor` and returns where it now is. */
static const char *keep(char **cursor, const char *text) {
    if (!text) return NULL;
    size_t n = strlen(text) + 1;
    memcpy(*cursor, text, n);
    const char *kept = *cursor;
    *cursor += n;
    return kept;
}

/* Makes `current` a copy of `m`, whose texts belong to a message about to be freed. */
static void take(const struct metadata *m) {
    const char *texts[] = {m->trackid, m->title, m->album, m->url};
    size_t need = 0;
    for (int i = 0; i < 4; i++) need += texts[i] ? strlen(texts[i]) + 1 : 0;
    size_t names = 0;
    for (int i = 0; i < m->artist_count; i++) names += strlen(m->artists[i]) + 1;
    /* The names, then room for them joined with a separator of up to two bytes. */
    need += names + names + (size_t)m->artist_count + 1;
    if (need > current.capacity) {
        char *grown = realloc(current.text, need);
        if (!grown) fail("out of memory");
        current.text = grown;
        current.capacity = need;
    }
    char *cursor = current.text;
    current.trackid = keep(&cursor, m->trackid);
    current.title = keep(&cursor, m->title);
    current.album = keep(&cursor, m->album);
    current.url = keep(&cursor, m->url);
    current.artist_count = m->artist_count;
    for (int i = 0; i < m->artist_count; i++) current.artists[i] = keep(&cursor, m->artists[i]);
    current.joined = cursor;
    current.has_length = m->has_length;
    current.length = m->length;
}

/* The current track's artists joined with `separator` (at most two bytes), in `current.joined`:
 * valid until the next call. NULL without artists. */
static const char *joined_artists(const char *separator) {
    if (current.artist_count == 0) return NULL;
    char *cursor = current.joined;
    for (int i = 0; i < current.artist_count; i++) {
        if (i) cursor = stpcpy(cursor, separator);
        cursor = stpcpy(cursor, current.artists[i]);
    }
    return current.joined;
}

/* The kind the URL tells (a subset of TrackMetadata's `kind`: the file extension), or NULL. */
static const char *kind_of(const char *url) {
    static const char *const audio[] = {"mp3", "flac", "ogg", "oga", "opus", "m4a", "wav", "aac", "wma", "ape", "wv",
                                        "aiff", "aif", "alac", "dsf", "mka"};
    static const char *const video[] = {"mkv", "mp4", "m4v", "avi", "mov", "wmv", "flv", "mpg", "mpeg", "ogv", "m2ts",
                                        "mts", "3gp"};
    if (!url) return NULL;
    const char *dot = strrchr(url, '.');
    if (!dot || strchr(dot, '/')) return NULL;
    const char *extension = dot + 1;
    if (strcasecmp(extension, "m4b") == 0) return "audiobook";
    for (size_t i = 0; i < sizeof video / sizeof *video; i++)
        if (strcasecmp(extension, video[i]) == 0) return "video";
    int local = strncmp(url, "file://", 7) == 0 || url[0] == '/';
    for (size_t i = 0; local && i < sizeof audio / sizeof *audio; i++)
        if (strcasecmp(extension, audio[i]) == 0) return "music";
    return NULL;
}

/* Binds the asset columns (AssetColumns.names) from parameter `first` on. */
static void bind_asset(sqlite3_stmt *s, int first, dbus_int64_t ended, const char *artists, const char *kind) {
    int rc = sqlite3_bind_int64(s, first, started);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int64(s, first + 1, ended);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int64(s, first + 2, listened);
    if (rc == SQLITE_OK) rc = current.has_length ? sqlite3_bind_int64(s, first + 3, current.length) : sqlite3_bind_null(s, first + 3);
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(s, first + 4, current.title, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(s, first + 5, artists, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(s, first + 6, current.album, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(s, first + 7, app_id, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(s, first + 8, app_name[0] ? app_name : NULL, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = sqlite3_bind_null(s, first + 9);
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(s, first + 10, kind, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(s, first + 11, "mpris", -1, SQLITE_STATIC);
    check_sql(rc, "bind");
}

static void begin_if_needed(void) {
    if (in_transaction) return;
    run(begin_tx, "BEGIN IMMEDIATE");
    in_transaction = 1;
}

/* Ends the listen in progress at `now`: its asset in, its open listen out, its MediaAdded queued. */
static void finish(dbus_int64_t now) {
    if (playing) listened += now - clock_since;
    clock_since = now;
    begin_if_needed();
    const char *stored = joined_artists("\x1f");
    const char *kind = kind_of(current.url);
    bind_asset(insert_asset, 1, now, stored, kind);
    check_sql(sqlite3_step(insert_asset), "insert asset");
    check_sql(sqlite3_reset(insert_asset), "insert asset");
    dbus_int64_t id;
    if (sqlite3_changes(db) == 1) {
        id = sqlite3_last_insert_rowid(db);
    } else { /* the same listen was already recorded: ON CONFLICT DO NOTHING kept the first */
        check_sql(sqlite3_bind_text(existing_id, 1, app_id, -1, SQLITE_STATIC), "bind");
        check_sql(sqlite3_bind_int64(existing_id, 2, started), "bind");
        check_sql(sqlite3_bind_text(existing_id, 3, current.title, -1, SQLITE_STATIC), "bind");
        if (sqlite3_step(existing_id) != SQLITE_ROW) fail("assets_identity names a missing row");
        id = sqlite3_column_int64(existing_id, 0);
        check_sql(sqlite3_reset(existing_id), "existing id");
    }
    check_sql(sqlite3_clear_bindings(insert_asset), "insert asset");
    check_sql(sqlite3_bind_text(delete_open, 1, listen_key, -1, SQLITE_STATIC), "bind");
    run(delete_open, "delete open listen");

    /* Built now, sent after the COMMIT. */
    DBusMessage *signal = dbus_message_copy(added_template);
    if (!signal) fail("out of memory");
    const char *artist = joined_artists(", "); /* the asset's row is written: its binding is done with */
    struct asset_fields fields = {
        .album = current.album, .app_id = app_id, .app_name = app_name[0] ? app_name : NULL, .artist = artist,
        .kind = kind, .source = "mpris", .title = current.title, .artists = current.artists,
        .artist_count = current.artist_count, .has_id = 1, .has_length = current.has_length,
        .ended = now, .id = id, .length = current.length, .listened = listened, .started = started};
    DBusMessageIter iter;
    dbus_message_iter_init_append(signal, &iter);
    if (!append_asset_fields(&iter, &fields)) fail("out of memory");
    if (pending_count == pending_capacity) {
        pending_capacity = pending_capacity ? 2 * pending_capacity : 64;
        DBusMessage **grown = realloc(pending, (size_t)pending_capacity * sizeof *grown);
        if (!grown) fail("out of memory");
        pending = grown;
    }
    pending[pending_count++] = signal;
    listening = 0;
}

/* Opens a listen of `m` at `now`: its row in open_listens, checkpointed now. */
static void open_listen(const struct metadata *m, dbus_int64_t now) {
    take(m);
    started = clock_since = now;
    listened = 0;
    listening = current.title != NULL && current.title[0] != 0; /* no title, no asset */
    if (!listening) return;
    snprintf(listen_key, sizeof listen_key, "%s %lld-%llu", player_unique, (long long)now, ++serial);
    begin_if_needed();
    const char *stored = joined_artists("\x1f");
    check_sql(sqlite3_bind_text(save_open, 1, listen_key, -1, SQLITE_STATIC), "bind");
    bind_asset(save_open, 2, now, stored, kind_of(current.url));
    check_sql(sqlite3_bind_int64(save_open, 14, now), "bind");
    run(save_open, "save open listen");
}

static void commit_and_announce(void) {
    run(commit_tx, "COMMIT");
    in_transaction = 0;
    window_closes = now_ns() + window_ns;
    for (int i = 0; i < pending_count; i++) {
        if (!dbus_connection_send(bus, pending[i], NULL)) fail("out of memory");
        dbus_message_unref(pending[i]);
    }
    pending_count = 0;
}

/* The string or object path in a variant, or NULL for another type. */
static const char *variant_text(DBusMessageIter *variant) {
    int type = dbus_message_iter_get_arg_type(variant);
    if (type != DBUS_TYPE_STRING && type != DBUS_TYPE_OBJECT_PATH) return NULL;
    const char *text;
    dbus_message_iter_get_basic(variant, &text);
    return text;
}

/* Reads the Metadata a{sv} inside `variant` into `m` (texts borrowed from the message). */
static void decode_metadata(DBusMessageIter *variant, struct metadata *m) {
    memset(m, 0, sizeof *m);
    if (dbus_message_iter_get_arg_type(variant) != DBUS_TYPE_ARRAY) return;
    DBusMessageIter dict;
    dbus_message_iter_recurse(variant, &dict);
    for (; dbus_message_iter_get_arg_type(&dict) == DBUS_TYPE_DICT_ENTRY; dbus_message_iter_next(&dict)) {
        DBusMessageIter entry, value;
        const char *key;
        dbus_message_iter_recurse(&dict, &entry);
        if (dbus_message_iter_get_arg_type(&entry) != DBUS_TYPE_STRING) continue;
        dbus_message_iter_get_basic(&entry, &key);
        dbus_message_iter_next(&entry);
        if (dbus_message_iter_get_arg_type(&entry) != DBUS_TYPE_VARIANT) continue;
        dbus_message_iter_recurse(&entry, &value);
        int type = dbus_message_iter_get_arg_type(&value);
        if (strcmp(key, "xesam:title") == 0) m->title = variant_text(&value);
        else if (strcmp(key, "xesam:album") == 0) m->album = variant_text(&value);
        else if (strcmp(key, "xesam:url") == 0) m->url = variant_text(&value);
        else if (strcmp(key, "mpris:trackid") == 0) m->trackid = variant_text(&value);
        else if (strcmp(key, "mpris:length") == 0 && (type == DBUS_TYPE_INT64 || type == DBUS_TYPE_UINT64)) {
            dbus_message_iter_get_basic(&value, &m->length);
            m->has_length = m->length > 0;
        } else if (strcmp(key, "xesam:artist") == 0) {
            if (type == DBUS_TYPE_STRING) {
                dbus_message_iter_get_basic(&value, &m->artists[0]);
                m->artist_count = m->artists[0][0] != 0;
            } else if (type == DBUS_TYPE_ARRAY && dbus_message_iter_get_element_type(&value) == DBUS_TYPE_STRING) {
                DBusMessageIter names;
                dbus_message_iter_recurse(&value, &names);
                for (; dbus_message_iter_get_arg_type(&names) == DBUS_TYPE_STRING && m->artist_count < MAX_ARTISTS;
                     dbus_message_iter_next(&names)) {
                    dbus_message_iter_get_basic(&names, &m->artists[m->artist_count]);
                    if (m->artists[m->artist_count][0]) m->artist_count++;
                }
            }
        }
    }
}

/* The key and the variant's content of the {sv} entry at `dict`; 0 when the entry is not a string
 * key with a variant (a player's data is not trusted to have the types it should). */
static int sv_entry(DBusMessageIter *dict, const char **key, DBusMessageIter *value) {
    DBusMessageIter entry;
    dbus_message_iter_recurse(dict, &entry);
    if (dbus_message_iter_get_arg_type(&entry) != DBUS_TYPE_STRING) return 0;
    dbus_message_iter_get_basic(&entry, key);
    if (!dbus_message_iter_next(&entry) || dbus_message_iter_get_arg_type(&entry) != DBUS_TYPE_VARIANT) return 0;
    dbus_message_iter_recurse(&entry, value);
    return 1;
}

/* Applies the Player properties in the a{sv} at `dict` (from GetAll or PropertiesChanged). */
static void apply_player_properties(DBusMessageIter *dict) {
    struct metadata m;
    int has_metadata = 0;
    const char *status = NULL;
    for (; dbus_message_iter_get_arg_type(dict) == DBUS_TYPE_DICT_ENTRY; dbus_message_iter_next(dict)) {
        DBusMessageIter value;
        const char *key;
        if (!sv_entry(dict, &key, &value)) continue;
        if (strcmp(key, "Metadata") == 0) {
            decode_metadata(&value, &m);
            has_metadata = 1;
        } else if (strcmp(key, "PlaybackStatus") == 0) {
            status = variant_text(&value);
        }
    }
    dbus_int64_t now = wall_us();
    if (status) {
        int now_playing = strcmp(status, "Playing") == 0;
        if (playing && !now_playing) listened += now - clock_since;
        if (now_playing != playing) clock_since = now;
        playing = now_playing;
    }
    if (!has_metadata || (current.text && same_track(&m, &current))) return;
    if (listening) finish(now);
    open_listen(&m, now);
}

static DBusHandlerResult on_message(DBusConnection *c, DBusMessage *m, void *data) {
    (void)c;
    (void)data;
    if (!dbus_message_is_signal(m, "org.freedesktop.DBus.Properties", "PropertiesChanged")) return DBUS_HANDLER_RESULT_NOT_YET_HANDLED;
    const char *sender = dbus_message_get_sender(m), *interface;
    DBusMessageIter iter, dict;
    if (!sender || strcmp(sender, player_unique) != 0 || !dbus_message_iter_init(m, &iter)
        || dbus_message_iter_get_arg_type(&iter) != DBUS_TYPE_STRING)
        return DBUS_HANDLER_RESULT_HANDLED;
    dbus_message_iter_get_basic(&iter, &interface);
    if (strcmp(interface, "org.mpris.MediaPlayer2.Player") != 0 || !dbus_message_iter_next(&iter)
        || dbus_message_iter_get_arg_type(&iter) != DBUS_TYPE_ARRAY)
        return DBUS_HANDLER_RESULT_HANDLED;
    dbus_message_iter_recurse(&iter, &dict);
    apply_player_properties(&dict);
    if (in_transaction && now_ns() >= window_closes) commit_and_announce();
    return DBUS_HANDLER_RESULT_HANDLED;
}

/* GetAll of `interface` on the player; the reply (to unref) with `dict` at its a{sv}. */
static DBusMessage *get_all(const char *player, const char *interface, DBusMessageIter *dict) {
    DBusError error;
    dbus_error_init(&error);
    DBusMessage *call = dbus_message_new_method_call(player, "/org/mpris/MediaPlayer2", "org.freedesktop.DBus.Properties", "GetAll");
    if (!call || !dbus_message_append_args(call, DBUS_TYPE_STRING, &interface, DBUS_TYPE_INVALID)) fail("out of memory");
    DBusMessage *reply = dbus_connection_send_with_reply_and_block(bus, call, 10000, &error);
    die_on(&error, "GetAll");
    dbus_message_unref(call);
    DBusMessageIter iter;
    if (!dbus_message_iter_init(reply, &iter) || dbus_message_iter_get_arg_type(&iter) != DBUS_TYPE_ARRAY) fail("GetAll: not an a{sv}");
    dbus_message_iter_recurse(&iter, dict);
    return reply;
}

static void read_app(const char *player) {
    DBusMessageIter dict;
    DBusMessage *reply = get_all(player, "org.mpris.MediaPlayer2", &dict);
    for (; dbus_message_iter_get_arg_type(&dict) == DBUS_TYPE_DICT_ENTRY; dbus_message_iter_next(&dict)) {
        DBusMessageIter value;
        const char *key, *text;
        if (!sv_entry(&dict, &key, &value) || !(text = variant_text(&value))) continue;
        if (strcmp(key, "DesktopEntry") == 0) snprintf(app_id, sizeof app_id, "%s", text);
        else if (strcmp(key, "Identity") == 0) snprintf(app_name, sizeof app_name, "%s", text);
    }
    dbus_message_unref(reply);
    if (!app_id[0]) snprintf(app_id, sizeof app_id, "%s", player + strlen("org.mpris.MediaPlayer2."));
}

static void open_store(const char *path) {
    check_sql(sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL), path);
    check_sql(sqlite3_extended_result_codes(db, 1), "extended result codes");
    check_sql(sqlite3_busy_timeout(db, 5000), "busy timeout");
    sqlite3_stmt *wal = prepare("PRAGMA journal_mode = WAL");
    if (sqlite3_step(wal) != SQLITE_ROW || strcmp((const char *)sqlite3_column_text(wal, 0), "wal") != 0) fail("journal_mode WAL refused");
    check_sql(sqlite3_finalize(wal), "journal_mode");
    check_sql(sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL), "defensive");
    check_sql(sqlite3_exec(db, "PRAGMA journal_size_limit = 4194304; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; "
                               "PRAGMA secure_delete = ON; PRAGMA trusted_schema = OFF; PRAGMA cache_size = -512;",
                           NULL, NULL, NULL), "pragmas");
    begin_tx = prepare("BEGIN IMMEDIATE");
    commit_tx = prepare("COMMIT");
    insert_asset = prepare("INSERT INTO assets(started, ended, listened, length, title, artists, album, app_id, app_name, "
                           "app_icon, kind, source) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                           "ON CONFLICT(app_id, started, title) DO NOTHING");
    existing_id = prepare("SELECT id FROM assets WHERE app_id = ?1 AND started = ?2 AND title = ?3");
    delete_open = prepare("DELETE FROM open_listens WHERE key = ?1");
    save_open = prepare("INSERT INTO open_listens(key, started, ended, listened, length, title, artists, album, app_id, "
                        "app_name, app_icon, kind, source, checkpointed) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                        "ON CONFLICT(key) DO UPDATE SET started = excluded.started, ended = excluded.ended, "
                        "listened = excluded.listened, length = excluded.length, title = excluded.title, "
                        "artists = excluded.artists, album = excluded.album, app_id = excluded.app_id, "
                        "app_name = excluded.app_name, app_icon = excluded.app_icon, kind = excluded.kind, "
                        "source = excluded.source, checkpointed = excluded.checkpointed");
}

/* Waits until the connection can be read (or written, when it has bytes to send), at most
 * `timeout_ns` (-1: no limit). */
static void wait_for_socket(int64_t timeout_ns) {
    int fd;
    if (!dbus_connection_get_unix_fd(bus, &fd)) fail("no socket");
    struct pollfd p = {fd, (short)(POLLIN | (dbus_connection_has_messages_to_send(bus) ? POLLOUT : 0)), 0};
    struct timespec limit = {timeout_ns / 1000000000, timeout_ns % 1000000000};
    while (ppoll(&p, 1, timeout_ns < 0 ? NULL : &limit, NULL) < 0)
        if (errno != EINTR) fail("poll");
}

int main(int argc, char **argv) {
    const char *name = "org.mediabroker.bench.Follower", *player = "org.mpris.MediaPlayer2.flood", *path = NULL;
    static struct option options[] = {{"database", required_argument, 0, 'd'}, {"name", required_argument, 0, 'n'},
                                      {"player", required_argument, 0, 'p'}, {"window-ms", required_argument, 0, 'w'},
                                      {0, 0, 0, 0}};
    int opt;
    while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
        switch (opt) {
        case 'd': path = optarg; break;
        case 'n': name = optarg; break;
        case 'p': player = optarg; break;
        case 'w': window_ns = (int64_t)(atof(optarg) * 1e6); break;
        default: return 64;
        }
    }
    if (!path || window_ns < 0 || strncmp(player, "org.mpris.MediaPlayer2.", 23) != 0) {
        fprintf(stderr, "usage: follower --database PATH [--name NAME] [--player org.mpris.MediaPlayer2.X] [--window-ms MS]\n");
        return 64;
    }
    open_store(path);
    bus = session_connection();
    added_template = dbus_message_new_signal("/org/mediabroker/MediaBroker1", "org.mediabroker.MediaBroker1", "MediaAdded");
    if (!added_template) fail("out of memory");
    DBusError error;
    dbus_error_init(&error);
    dbus_bus_add_match(bus, "type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',"
                            "path='/org/mpris/MediaPlayer2'", &error);
    die_on(&error, "AddMatch");
    if (!dbus_connection_add_filter(bus, on_message, NULL, NULL)) fail("out of memory");
    own_name(bus, name);
    while (!dbus_bus_name_has_owner(bus, player, &error)) {
        die_on(&error, "NameHasOwner");
        struct timespec nap = {0, 10 * 1000000};
        nanosleep(&nap, NULL);
    }
    read_app(player);
    DBusMessageIter dict;
    DBusMessage *reply = get_all(player, "org.mpris.MediaPlayer2.Player", &dict);
    static char unique[256];
    snprintf(unique, sizeof unique, "%s", dbus_message_get_sender(reply));
    player_unique = unique;
    apply_player_properties(&dict);
    dbus_message_unref(reply);

    for (;;) {
        DBusDispatchStatus status;
        while ((status = dbus_connection_get_dispatch_status(bus)) == DBUS_DISPATCH_DATA_REMAINS) dbus_connection_dispatch(bus);
        if (status == DBUS_DISPATCH_NEED_MEMORY) fail("out of memory");
        if (!dbus_connection_read_write(bus, 0)) break; /* disconnected */
        if (dbus_connection_get_dispatch_status(bus) != DBUS_DISPATCH_COMPLETE) continue;
        /* Nothing left to read: commit once the window closes, or sleep until something arrives. */
        int64_t wait = -1;
        if (in_transaction) {
            wait = window_closes - now_ns();
            if (wait <= 0) {
                commit_and_announce();
                continue;
            }
        }
        wait_for_socket(wait);
    }
    if (in_transaction) commit_and_announce();
    sqlite3_stmt *statements[] = {begin_tx, commit_tx, insert_asset, existing_id, delete_open, save_open};
    for (size_t i = 0; i < sizeof statements / sizeof *statements; i++) sqlite3_finalize(statements[i]);
    dbus_message_unref(added_template);
    free(current.text);
    free(pending);
    dbus_connection_close(bus);
    dbus_connection_unref(bus);
    return sqlite3_close(db) == SQLITE_OK ? 0 : 1;
}
