/* An experiment, not part of the server: an LD_PRELOAD shim that changes two libmicrohttpd sizes the
 * server chooses, to see what each costs per open event stream without rebuilding the server.
 *
 *   EVENTS_BENCH_BLOCK_SIZE=N  block size of responses of unknown length (the server's streams; it
 *                              passes 32 KiB to MHD_create_response_from_callback, which callocs it)
 *   EVENTS_BENCH_POOL_SIZE=N   MHD_OPTION_CONNECTION_MEMORY_LIMIT (the server uses max(8 KiB,
 *                              maxHeaderBytes + 4 KiB) = 20 KiB, malloc'd per connection)
 *
 * Build: cc -O2 -shared -fPIC -o mhd-sizes.so mhd-sizes.c -ldl   (run.sh --mhd-block/--mhd-pool does it)
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <microhttpd.h>

struct MHD_Response *MHD_create_response_from_callback(uint64_t size, size_t block_size,
                                                       MHD_ContentReaderCallback crc, void *crc_cls,
                                                       MHD_ContentReaderFreeCallback crfc) {
    static struct MHD_Response *(*real)(uint64_t, size_t, MHD_ContentReaderCallback, void *,
                                        MHD_ContentReaderFreeCallback);
    if (!real) real = dlsym(RTLD_NEXT, "MHD_create_response_from_callback");
    const char *env = getenv("EVENTS_BENCH_BLOCK_SIZE");
    if (env && size == MHD_SIZE_UNKNOWN) block_size = (size_t)atol(env);
    return real(size, block_size, crc, crc_cls, crfc);
}

/* The server calls MHD_start_daemon(flags, 0, NULL, NULL, handler, cls, MHD_OPTION_ARRAY, ops, MHD_OPTION_END). */
struct MHD_Daemon *MHD_start_daemon(unsigned int flags, uint16_t port, MHD_AcceptPolicyCallback apc,
                                    void *apc_cls, MHD_AccessHandlerCallback dh, void *dh_cls, ...) {
    static struct MHD_Daemon *(*real)(unsigned int, uint16_t, MHD_AcceptPolicyCallback, void *,
                                      MHD_AccessHandlerCallback, void *, ...);
    if (!real) real = dlsym(RTLD_NEXT, "MHD_start_daemon");
    va_list ap;
    va_start(ap, dh_cls);
    int option = va_arg(ap, int);
    struct MHD_OptionItem *ops = va_arg(ap, struct MHD_OptionItem *);
    va_end(ap);
    if (option != MHD_OPTION_ARRAY) abort(); /* not the call this shim knows */
    const char *env = getenv("EVENTS_BENCH_POOL_SIZE");
    for (struct MHD_OptionItem *o = ops; env && o->option != MHD_OPTION_END; o++)
        if (o->option == MHD_OPTION_CONNECTION_MEMORY_LIMIT) o->value = atol(env);
    return real(flags, port, apc, apc_cls, dh, dh_cls, MHD_OPTION_ARRAY, ops, MHD_OPTION_END);
}
