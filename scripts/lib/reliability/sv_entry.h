/* One `{sv}` dictionary entry holding a basic value, for the C programs that build MPRIS values
 * with libdbus: mbload (scripts/reliability's load generator), Fuzz/wireseeds.c and bench/src (through
 * common.h's dict_entry). */
#ifndef MB_SV_ENTRY_H
#define MB_SV_ENTRY_H
#include <dbus/dbus.h>

/* One `{sv}` entry holding a basic value of TYPE (signature SIG) at VALUE; FALSE when libdbus ran
 * out of memory (the message is then unusable). */
static inline dbus_bool_t entry_basic(DBusMessageIter *dict, const char *key, int type, const char *sig, const void *value) {
    DBusMessageIter e, v;
    return dbus_message_iter_open_container(dict, DBUS_TYPE_DICT_ENTRY, NULL, &e)
        && dbus_message_iter_append_basic(&e, DBUS_TYPE_STRING, &key)
        && dbus_message_iter_open_container(&e, DBUS_TYPE_VARIANT, sig, &v)
        && dbus_message_iter_append_basic(&v, type, value)
        && dbus_message_iter_close_container(&e, &v)
        && dbus_message_iter_close_container(dict, &e);
}
#endif
