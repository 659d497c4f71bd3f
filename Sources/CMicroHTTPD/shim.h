#ifndef CLOUDMUSIC_CMICROHTTPD_SHIM_H
#define CLOUDMUSIC_CMICROHTTPD_SHIM_H
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <microhttpd.h>

/* Variadic MHD calls wrapped so Swift can use them. */

/** MHD_OPTION_UNESCAPE_CALLBACK's function type (the header has no typedef for it). */
typedef size_t (*cm_unescape_callback)(void *cls, struct MHD_Connection *c, char *s);

/** MHD_OPTION_URI_LOG_CALLBACK's function type: called with the request target once the request line has
    arrived, before the query string is parsed; what it returns becomes the request's context. */
typedef void *(*cm_uri_log_callback)(void *cls, const char *uri, struct MHD_Connection *c);

/** Everything cm_start_daemon needs; zero values mean "MHD default" where noted. */
typedef struct cm_daemon_config {
    unsigned int flags;
    int listen_fd;
    unsigned int thread_pool_size;      /* <= 1: no pool */
    unsigned int connection_limit;      /* 0: default */
    unsigned int per_ip_limit;          /* 0: none */
    unsigned int connection_timeout;    /* seconds, 0: none */
    size_t memory_limit;                /* 0: default */
    size_t memory_increment;            /* 0: default */
    MHD_AccessHandlerCallback handler;
    void *handler_cls;
    MHD_RequestCompletedCallback completed;
    void *completed_cls;
    MHD_NotifyConnectionCallback notify;
    void *notify_cls;
    cm_unescape_callback unescape;
    void *unescape_cls;
    cm_uri_log_callback uri_log;
    void *uri_log_cls;
} cm_daemon_config;

static inline struct MHD_Daemon *cm_start_daemon(const cm_daemon_config *c) {
    struct MHD_OptionItem ops[16];
    int n = 0;
    ops[n++] = (struct MHD_OptionItem){MHD_OPTION_LISTEN_SOCKET, (intptr_t)c->listen_fd, NULL};
    if (c->thread_pool_size > 1)
        ops[n++] = (struct MHD_OptionItem){MHD_OPTION_THREAD_POOL_SIZE, (intptr_t)c->thread_pool_size, NULL};
    if (c->connection_limit > 0)
        ops[n++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_LIMIT, (intptr_t)c->connection_limit, NULL};
    if (c->per_ip_limit > 0)
        ops[n++] = (struct MHD_OptionItem){MHD_OPTION_PER_IP_CONNECTION_LIMIT, (intptr_t)c->per_ip_limit, NULL};
    ops[n++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_TIMEOUT, (intptr_t)c->connection_timeout, NULL};
    if (c->memory_limit > 0)
        ops[n++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)c->memory_limit, NULL};
    if (c->memory_increment > 0)
        ops[n++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_MEMORY_INCREMENT, (intptr_t)c->memory_increment, NULL};
    if (c->completed)
        ops[n++] = (struct MHD_OptionItem){MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)c->completed, c->completed_cls};
    if (c->notify)
        ops[n++] = (struct MHD_OptionItem){MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)c->notify, c->notify_cls};
    if (c->unescape)
        ops[n++] = (struct MHD_OptionItem){MHD_OPTION_UNESCAPE_CALLBACK, (intptr_t)c->unescape, c->unescape_cls};
    if (c->uri_log)
        ops[n++] = (struct MHD_OptionItem){MHD_OPTION_URI_LOG_CALLBACK, (intptr_t)c->uri_log, c->uri_log_cls};
    ops[n++] = (struct MHD_OptionItem){MHD_OPTION_END, 0, NULL};
    return MHD_start_daemon(c->flags, 0, NULL, NULL, c->handler, c->handler_cls,
                            MHD_OPTION_ARRAY, ops, MHD_OPTION_END);
}

static inline int cm_daemon_port(struct MHD_Daemon *d) {
    const union MHD_DaemonInfo *i = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    return i ? (int)i->port : -1;
}

static inline unsigned int cm_daemon_connection_count(struct MHD_Daemon *d) {
    const union MHD_DaemonInfo *i = MHD_get_daemon_info(d, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return i ? i->num_connections : 0;
}

static inline int cm_connection_fd(struct MHD_Connection *c) {
    const union MHD_ConnectionInfo *i = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
    return i ? (int)i->connect_fd : -1;
}

static inline void *cm_connection_socket_context(struct MHD_Connection *c) {
    const union MHD_ConnectionInfo *i = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return i ? i->socket_context : NULL;
}

static inline const struct sockaddr *cm_connection_client_address(struct MHD_Connection *c) {
    const union MHD_ConnectionInfo *i = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return i ? i->client_addr : NULL;
}

/** Milliseconds since the socket last received data (TCP_INFO), or -1 when the kernel does not say. */
static inline long cm_ms_since_last_receive(int fd) {
    struct tcp_info info;
    socklen_t len = sizeof(info);
    if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &len) != 0 || len < offsetof(struct tcp_info, tcpi_last_data_recv) + sizeof(info.tcpi_last_data_recv))
        return -1;
    return (long)info.tcpi_last_data_recv;
}

/* glibc's struct tcp_info stops where Linux 4.1 went on; these are the kernel's next fields, same alignment. */
struct cm_tcp_info {
    struct tcp_info base;
    uint64_t pacing_rate;
    uint64_t max_pacing_rate;
    uint64_t bytes_acked;
    uint64_t bytes_received;
};

/** Bytes the socket has received in all, or -1 when the kernel does not say. */
static inline long long cm_bytes_received(int fd) {
    struct cm_tcp_info info;
    socklen_t len = sizeof(info);
    if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &len) != 0 || len < offsetof(struct cm_tcp_info, bytes_received) + sizeof(info.bytes_received))
        return -1;
    return (long long)info.bytes_received;
}

#endif
