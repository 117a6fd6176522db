#ifndef MEDIABROKER_CSQLITE_SHIM_H
#define MEDIABROKER_CSQLITE_SHIM_H
#include <sqlite3.h>

/* sqlite3_config is variadic, which Swift cannot import: this sets SQLITE_CONFIG_MEMSTATUS, which
   must come before SQLite initializes (SQLITE_MISUSE after). */
static inline int csqlite_config_memstatus(int enabled) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, enabled);
}

/* sqlite3_db_config is variadic, which Swift cannot import: this covers the on/off options
   (SQLITE_DBCONFIG_DEFENSIVE, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, ...). */
static inline int csqlite_db_config_flag(sqlite3 *db, int option, int enabled) {
    return sqlite3_db_config(db, option, enabled, (int *)0);
}
#endif
