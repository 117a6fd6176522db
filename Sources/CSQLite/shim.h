#ifndef MEDIABROKER_CSQLITE_SHIM_H
#define MEDIABROKER_CSQLITE_SHIM_H
#include <sqlite3.h>

/* SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot import. */
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }

/* sqlite3_db_config is variadic, which Swift cannot import: this covers the on/off options
   (SQLITE_DBCONFIG_DEFENSIVE, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, ...). */
static inline int csqlite_db_config_flag(sqlite3 *db, int option, int enabled) {
    return sqlite3_db_config(db, option, enabled, (int *)0);
}
#endif
