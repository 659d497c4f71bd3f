/*
 * baseline.c: the C reference server for Benchmarks/http/run.sh.
 *
 * A tiny libmicrohttpd server that answers every GET (and HEAD) with status 200,
 * `Content-Type: application/json; charset=utf-8` and a fixed body given on the
 * command line, byte for byte. It starts the daemon with the same flags the Swift
 * server uses (epoll, internal polling thread, a thread pool of one thread per
 * core, keep-alive), so the ratio Swift / C measures what the Swift layers cost on
 * top of libmicrohttpd, not libmicrohttpd itself.
 *
 * Like a real handler it builds a fresh response object for every request (copying
 * the body) instead of reusing one shared response.
 *
 * Usage: baseline PORT BODY [--timeout SECONDS] [--limit N] [--per-ip N] [--early 0|1]
 *   PORT        TCP port on 127.0.0.1 (loopback only)
 *   BODY        the exact response body bytes
 *   --timeout   MHD_OPTION_CONNECTION_TIMEOUT (idle seconds; default 0 = none)
 *   --limit     MHD_OPTION_CONNECTION_LIMIT (default: libmicrohttpd's default)
 *   --per-ip    MHD_OPTION_PER_IP_CONNECTION_LIMIT (default 0 = none)
 *   --early 1   diagnostic: answer in the first access-handler call, before the request is
 *               complete (what HTTPServer's ServerCore.firstCall does for body-less requests);
 *               libmicrohttpd then adds "Connection: close" and drops keep-alive
 * Runs until SIGTERM or SIGINT, then stops the daemon and exits 0.
 *
 * Build: gcc -O2 baseline.c $(pkg-config --cflags --libs libmicrohttpd) -o baseline
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>

#include <microhttpd.h>

#if MHD_VERSION < 0x00097100
typedef int MHD_Result_t;
#else
typedef enum MHD_Result MHD_Result_t;
#endif

static const char *body;
static size_t body_len;
static int answer_early;

static MHD_Result_t handle(void *cls, struct MHD_Connection *connection, const char *url,
                           const char *method, const char *version, const char *upload_data,
                           size_t *upload_data_size, void **con_cls) {
  (void)cls;
  (void)url;
  (void)version;
  (void)upload_data;
  int is_get = strcmp(method, MHD_HTTP_METHOD_GET) == 0 || strcmp(method, MHD_HTTP_METHOD_HEAD) == 0;
  /* First call: headers only. Answering here (before the request is complete)
   * makes libmicrohttpd close the connection instead of keeping it alive, so wait
   * for the final call, as a real server does. */
  static int marker;
  if (*con_cls == NULL) {
    *con_cls = &marker;
    if (!answer_early) return MHD_YES;
  }
  if (*upload_data_size != 0) {
    *upload_data_size = 0; /* discard any request body, answer once it is read */
    return MHD_YES;
  }
  struct MHD_Response *response;
  unsigned int status;
  if (is_get) {
    response = MHD_create_response_from_buffer(body_len, (void *)body, MHD_RESPMEM_MUST_COPY);
    status = MHD_HTTP_OK;
  } else {
    response = MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
    status = MHD_HTTP_METHOD_NOT_ALLOWED;
  }
  if (response == NULL) return MHD_NO;
  if (is_get) MHD_add_response_header(response, MHD_HTTP_HEADER_CONTENT_TYPE, "application/json; charset=utf-8");
  else MHD_add_response_header(response, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
  MHD_Result_t ret = MHD_queue_response(connection, status, response);
  MHD_destroy_response(response);
  return ret;
}

static unsigned long parse_uint(const char *what, const char *s, unsigned long max) {
  char *end = NULL;
  errno = 0;
  unsigned long v = strtoul(s, &end, 10);
  if (errno != 0 || end == s || *end != '\0' || v > max) {
    fprintf(stderr, "baseline: invalid %s: '%s'\n", what, s);
    exit(2);
  }
  return v;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s PORT BODY [--timeout SECONDS] [--limit N] [--per-ip N] [--early 0|1]\n", argv[0]);
    return 2;
  }
  unsigned long port = parse_uint("port", argv[1], 65535);
  body = argv[2];
  body_len = strlen(argv[2]);
  unsigned long timeout = 0, limit = 0, per_ip = 0;
  for (int i = 3; i < argc; i += 2) {
    if (i + 1 >= argc) {
      fprintf(stderr, "baseline: %s needs a value\n", argv[i]);
      return 2;
    }
    if (strcmp(argv[i], "--timeout") == 0) timeout = parse_uint("timeout", argv[i + 1], 86400);
    else if (strcmp(argv[i], "--limit") == 0) limit = parse_uint("limit", argv[i + 1], 1000000);
    else if (strcmp(argv[i], "--per-ip") == 0) per_ip = parse_uint("per-ip", argv[i + 1], 1000000);
    else if (strcmp(argv[i], "--early") == 0) answer_early = (int)parse_uint("early", argv[i + 1], 1);
    else {
      fprintf(stderr, "baseline: unknown option %s\n", argv[i]);
      return 2;
    }
  }

  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  if (cores < 1) cores = 1;

  struct sockaddr_in addr;
  memset(&addr, 0, sizeof addr);
  addr.sin_family = AF_INET;
  addr.sin_port = htons((uint16_t)port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);

  /* Block the stop signals before the daemon starts so its threads inherit the
   * mask and only sigwait() below ever sees them. */
  sigset_t stop;
  sigemptyset(&stop);
  sigaddset(&stop, SIGTERM);
  sigaddset(&stop, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop, NULL);
  signal(SIGPIPE, SIG_IGN);

  struct MHD_OptionItem opts[8];
  int n = 0;
  opts[n++] = (struct MHD_OptionItem){MHD_OPTION_SOCK_ADDR, 0, &addr};
  opts[n++] = (struct MHD_OptionItem){MHD_OPTION_THREAD_POOL_SIZE, (intptr_t)cores, NULL};
  opts[n++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_TIMEOUT, (intptr_t)timeout, NULL};
  if (limit > 0) opts[n++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_LIMIT, (intptr_t)limit, NULL};
  if (per_ip > 0) opts[n++] = (struct MHD_OptionItem){MHD_OPTION_PER_IP_CONNECTION_LIMIT, (intptr_t)per_ip, NULL};
  opts[n++] = (struct MHD_OptionItem){MHD_OPTION_END, 0, NULL};

  struct MHD_Daemon *daemon =
      MHD_start_daemon(MHD_USE_EPOLL_INTERNAL_THREAD | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG,
                       (uint16_t)port, NULL, NULL, handle, NULL, MHD_OPTION_ARRAY, opts, MHD_OPTION_END);
  if (daemon == NULL) {
    fprintf(stderr, "baseline: MHD_start_daemon failed on 127.0.0.1:%lu\n", port);
    return 1;
  }
  fprintf(stderr, "baseline: listening on 127.0.0.1:%lu, %ld threads, body %zu bytes\n", port, cores, body_len);

  int sig = 0;
  while (sigwait(&stop, &sig) != 0) {
  }
  MHD_stop_daemon(daemon);
  return 0;
}
