#ifndef CLOUDMUSIC_CSQLITE_SHIM_H
#define CLOUDMUSIC_CSQLITE_SHIM_H
#include <sqlite3.h>
// SQLITE_TRANSIENT is a macro cast Swift cannot import.
static inline sqlite3_destructor_type cm_sqlite_transient(void) { return SQLITE_TRANSIENT; }
#endif
