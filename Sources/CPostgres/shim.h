#ifndef CLOUDMUSIC_CPOSTGRES_SHIM_H
#define CLOUDMUSIC_CPOSTGRES_SHIM_H
#include <libpq-fe.h>

// Notices (such as "relation already exists, skipping") are libpq's to print on standard error unless a
// receiver takes them; the server's log is the place for them, not ours.
static void cm_pq_ignore_notice(void *arg, const PGresult *result) {
    (void)arg;
    (void)result;
}
static inline void cm_pq_quiet(PGconn *connection) {
    PQsetNoticeReceiver(connection, cm_pq_ignore_notice, 0);
}
#endif
