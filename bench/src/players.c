/* players — COUNT quiet MPRIS players, one process and one connection each, owning PREFIX0,
 * PREFIX1, … They answer GetAll (root: Identity; Player: STATUS and one track) and Ping, and never
 * signal: "playing but silent" like spotifyd, or a crowd of paused players. Prints "ready" once
 * every name is owned; ends its children when it gets SIGTERM or when its parent dies.
 *
 * usage: players --count N [--prefix org.mpris.MediaPlayer2.p] [--status Playing|Paused] */
#include "common.h"
#include <getopt.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *status = "Paused";
static int index_ = 0;

/* The one track's metadata as a variant holding a{sv}. */
static void metadata_variant(DBusMessageIter *into) {
    char title[64], trackid[64];
    snprintf(title, sizeof title, "Quiet track of player %d", index_);
    snprintf(trackid, sizeof trackid, "/org/mpris/MediaPlayer2/Track/%d", index_);
    const char *t = title, *id = trackid;
    DBusMessageIter variant, meta;
    dbus_message_iter_open_container(into, DBUS_TYPE_VARIANT, "a{sv}", &variant);
    dbus_message_iter_open_container(&variant, DBUS_TYPE_ARRAY, "{sv}", &meta);
    dict_entry(&meta, "mpris:trackid", DBUS_TYPE_OBJECT_PATH, &id);
    dict_entry(&meta, "xesam:title", DBUS_TYPE_STRING, &t);
    dbus_message_iter_close_container(&variant, &meta);
    dbus_message_iter_close_container(into, &variant);
}

static void entry_metadata(DBusMessageIter *dict) {
    DBusMessageIter entry;
    const char *key = "Metadata";
    dbus_message_iter_open_container(dict, DBUS_TYPE_DICT_ENTRY, NULL, &entry);
    dbus_message_iter_append_basic(&entry, DBUS_TYPE_STRING, &key);
    metadata_variant(&entry);
    dbus_message_iter_close_container(dict, &entry);
}

/* Every property of `interface` as a{sv} entries. */
static void properties(DBusMessageIter *dict, const char *interface) {
    if (strcmp(interface, "org.mpris.MediaPlayer2") == 0) {
        char identity[64];
        snprintf(identity, sizeof identity, "Quiet player %d", index_);
        const char *text = identity;
        dict_entry(dict, "Identity", DBUS_TYPE_STRING, &text);
    } else if (strcmp(interface, "org.mpris.MediaPlayer2.Player") == 0) {
        dbus_bool_t yes = TRUE;
        dict_entry(dict, "PlaybackStatus", DBUS_TYPE_STRING, &status);
        /* playerctl reads these from GetAll and skips a player that cannot play or pause. */
        dict_entry(dict, "CanControl", DBUS_TYPE_BOOLEAN, &yes);
        dict_entry(dict, "CanPlay", DBUS_TYPE_BOOLEAN, &yes);
        dict_entry(dict, "CanPause", DBUS_TYPE_BOOLEAN, &yes);
        entry_metadata(dict);
    }
}

static DBusHandlerResult filter(DBusConnection *c, DBusMessage *m, void *data) {
    (void)data;
    int getall = dbus_message_is_method_call(m, "org.freedesktop.DBus.Properties", "GetAll");
    int get = dbus_message_is_method_call(m, "org.freedesktop.DBus.Properties", "Get");
    if (!getall && !get) return DBUS_HANDLER_RESULT_NOT_YET_HANDLED;
    const char *interface = "", *property = "";
    dbus_message_get_args(m, NULL, DBUS_TYPE_STRING, &interface, DBUS_TYPE_STRING, &property, DBUS_TYPE_INVALID);
    DBusMessage *reply = dbus_message_new_method_return(m);
    DBusMessageIter iter, dict;
    dbus_message_iter_init_append(reply, &iter);
    if (getall) {
        dbus_message_iter_open_container(&iter, DBUS_TYPE_ARRAY, "{sv}", &dict);
        properties(&dict, interface);
        dbus_message_iter_close_container(&iter, &dict);
    } else {
        /* Get: the few properties clients ask one by one. */
        DBusMessageIter variant;
        char identity[64];
        snprintf(identity, sizeof identity, "Quiet player %d", index_);
        const char *text = !strcmp(property, "PlaybackStatus") ? status : !strcmp(property, "Identity") ? identity : NULL;
        if (text) {
            dbus_message_iter_open_container(&iter, DBUS_TYPE_VARIANT, "s", &variant);
            dbus_message_iter_append_basic(&variant, DBUS_TYPE_STRING, &text);
            dbus_message_iter_close_container(&iter, &variant);
        } else if (!strncmp(property, "Can", 3)) {
            /* CanControl, CanPlay, …: playerctl asks before it reads anything. */
            dbus_bool_t yes = TRUE;
            dbus_message_iter_open_container(&iter, DBUS_TYPE_VARIANT, "b", &variant);
            dbus_message_iter_append_basic(&variant, DBUS_TYPE_BOOLEAN, &yes);
            dbus_message_iter_close_container(&iter, &variant);
        } else if (!strcmp(property, "Metadata")) {
            metadata_variant(&iter);
        } else {
            dbus_message_unref(reply);
            reply = dbus_message_new_error(m, DBUS_ERROR_UNKNOWN_PROPERTY, property);
        }
    }
    dbus_connection_send(c, reply, NULL);
    dbus_message_unref(reply);
    return DBUS_HANDLER_RESULT_HANDLED;
}

static pid_t *children;
static int count = 1;

static void stop(int sig) {
    (void)sig;
    for (int i = 0; i < count; i++) if (children[i] > 0) kill(children[i], SIGTERM);
    while (wait(NULL) > 0) {}
    _exit(0);
}

int main(int argc, char **argv) {
    const char *prefix = "org.mpris.MediaPlayer2.p";
    static struct option options[] = {{"count", required_argument, 0, 'c'}, {"prefix", required_argument, 0, 'p'},
                                      {"status", required_argument, 0, 's'}, {0, 0, 0, 0}};
    int opt;
    while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
        if (opt == 'c') count = atoi(optarg);
        else if (opt == 'p') prefix = optarg;
        else if (opt == 's') status = optarg;
        else return 64;
    }
    children = calloc((size_t)count, sizeof *children);
    int ready[2];
    if (pipe(ready) != 0) return 1;
    for (int i = 0; i < count; i++) {
        pid_t pid = fork();
        if (pid == 0) {
            prctl(PR_SET_PDEATHSIG, SIGTERM);
            close(ready[0]);
            index_ = i;
            DBusConnection *c = session_connection();
            dbus_connection_add_filter(c, filter, NULL, NULL);
            char name[256];
            snprintf(name, sizeof name, "%s%d", prefix, i);
            own_name(c, name);
            if (write(ready[1], "x", 1) != 1) _exit(1);
            close(ready[1]);
            while (dbus_connection_read_write_dispatch(c, -1)) {}
            _exit(0);
        }
        children[i] = pid;
    }
    close(ready[1]);
    signal(SIGTERM, stop);
    signal(SIGINT, stop);
    char byte;
    int owned = 0;
    while (owned < count && read(ready[0], &byte, 1) == 1) owned++;
    printf(owned == count ? "ready\n" : "failed\n");
    fflush(stdout);
    for (;;) pause();
}
