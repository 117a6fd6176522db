/* receiver — the baseline: a minimal C libdbus follower of one MPRIS player.
 *
 * Owns NAME (so the flood can ping it), subscribes to PropertiesChanged on /org/mpris/MediaPlayer2,
 * reads the player's Player properties once (GetAll, which starts the flood), then decodes every
 * value of every signal (a recursive walk over all arguments, touching each string's bytes) in a
 * read_write_dispatch loop. Prints the number of signals received when it decodes the sentinel
 * title, and keeps running (the flood's Ping is answered by libdbus itself).
 *
 * usage: receiver --name NAME --player BUSNAME */
#include "common.h"
#include <getopt.h>

static unsigned long long checksum = 0;
static long received = 0;
static int sentinel = 0;

static void walk(DBusMessageIter *iter) {
    int type;
    while ((type = dbus_message_iter_get_arg_type(iter)) != DBUS_TYPE_INVALID) {
        if (dbus_type_is_container(type)) {
            DBusMessageIter sub;
            dbus_message_iter_recurse(iter, &sub);
            walk(&sub);
        } else if (type == DBUS_TYPE_STRING || type == DBUS_TYPE_OBJECT_PATH || type == DBUS_TYPE_SIGNATURE) {
            const char *s;
            dbus_message_iter_get_basic(iter, &s);
            size_t n = strlen(s);
            checksum += n + (unsigned char)s[0];
            if (n > 9 && strcmp(s + n - 9, " sentinel") == 0) sentinel = 1;
        } else {
            DBusBasicValue v;
            dbus_message_iter_get_basic(iter, &v);
            checksum += (unsigned long long)v.u64;
        }
        dbus_message_iter_next(iter);
    }
}

static DBusHandlerResult filter(DBusConnection *c, DBusMessage *m, void *data) {
    (void)c; (void)data;
    if (dbus_message_is_signal(m, "org.freedesktop.DBus.Properties", "PropertiesChanged")) {
        DBusMessageIter iter;
        received++;
        if (dbus_message_iter_init(m, &iter)) walk(&iter);
        if (sentinel) {
            printf("{\"received\":%ld}\n", received);
            fflush(stdout);
            sentinel = 0;
        }
        return DBUS_HANDLER_RESULT_HANDLED;
    }
    return DBUS_HANDLER_RESULT_NOT_YET_HANDLED;
}

int main(int argc, char **argv) {
    const char *name = "org.mediabroker.bench.Receiver", *player = "org.mpris.MediaPlayer2.flood";
    static struct option options[] = {{"name", required_argument, 0, 'n'}, {"player", required_argument, 0, 'p'}, {0, 0, 0, 0}};
    int opt;
    while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
        if (opt == 'n') name = optarg;
        else if (opt == 'p') player = optarg;
        else return 64;
    }
    DBusConnection *c = session_connection();
    DBusError error;
    dbus_error_init(&error);
    dbus_bus_add_match(c, "type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',"
                          "path='/org/mpris/MediaPlayer2'", &error);
    die_on(&error, "AddMatch");
    dbus_connection_add_filter(c, filter, NULL, NULL);
    own_name(c, name);
    /* Wait for the player, then read its properties once (as any follower does). */
    while (!dbus_bus_name_has_owner(c, player, &error)) {
        die_on(&error, "NameHasOwner");
        struct timespec nap = {0, 10 * 1000000};
        nanosleep(&nap, NULL);
    }
    DBusMessage *call = dbus_message_new_method_call(player, "/org/mpris/MediaPlayer2", "org.freedesktop.DBus.Properties", "GetAll");
    const char *interface = "org.mpris.MediaPlayer2.Player";
    dbus_message_append_args(call, DBUS_TYPE_STRING, &interface, DBUS_TYPE_INVALID);
    DBusMessage *reply = dbus_connection_send_with_reply_and_block(c, call, 10000, &error);
    die_on(&error, "GetAll");
    DBusMessageIter iter;
    if (dbus_message_iter_init(reply, &iter)) walk(&iter);
    dbus_message_unref(reply);
    dbus_message_unref(call);
    while (dbus_connection_read_write_dispatch(c, -1)) {}
    return checksum == 42;
}
