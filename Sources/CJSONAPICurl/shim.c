#include "CJSONAPICurl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__linux__)
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

// libcurl's ABI (SONAME libcurl.so.4), declared here because distributions ship curl.h only in a
// development package. Values are those of curl.h, stable across libcurl 7.x and 8.x.
typedef void CURL;
typedef int CURLcode;
struct curl_slist;
typedef long long curl_off_t;

enum {
  OPT_LONG = 0,
  OPT_POINTER = 10000,
  OPT_FUNCTION = 20000,
  OPT_OFF_T = 30000,
};
enum {
  CURLOPT_WRITEDATA = OPT_POINTER + 1,
  CURLOPT_URL = OPT_POINTER + 2,
  CURLOPT_ERRORBUFFER = OPT_POINTER + 10,
  CURLOPT_WRITEFUNCTION = OPT_FUNCTION + 11,
  CURLOPT_POSTFIELDS = OPT_POINTER + 15,
  CURLOPT_HTTPHEADER = OPT_POINTER + 23,
  CURLOPT_HEADERDATA = OPT_POINTER + 29,
  CURLOPT_CUSTOMREQUEST = OPT_POINTER + 36,
  CURLOPT_NOPROGRESS = OPT_LONG + 43,
  CURLOPT_NOBODY = OPT_LONG + 44,
  CURLOPT_FOLLOWLOCATION = OPT_LONG + 52,
  CURLOPT_XFERINFODATA = OPT_POINTER + 57,
  CURLOPT_FRESH_CONNECT = OPT_LONG + 74,
  CURLOPT_FORBID_REUSE = OPT_LONG + 75,
  CURLOPT_HEADERFUNCTION = OPT_FUNCTION + 79,
  CURLOPT_NOSIGNAL = OPT_LONG + 99,
  CURLOPT_ACCEPT_ENCODING = OPT_POINTER + 102,
  CURLOPT_POSTFIELDSIZE_LARGE = OPT_OFF_T + 120,
  CURLOPT_TIMEOUT_MS = OPT_LONG + 155,
  CURLOPT_CONNECTTIMEOUT_MS = OPT_LONG + 156,
  CURLOPT_HTTP_CONTENT_DECODING = OPT_LONG + 158,
  CURLOPT_PROTOCOLS = OPT_LONG + 181,
  CURLOPT_REDIR_PROTOCOLS = OPT_LONG + 182,
  CURLOPT_PRIVATE = OPT_POINTER + 103,
  CURLOPT_COPYPOSTFIELDS = OPT_POINTER + 165,
  CURLOPT_XFERINFOFUNCTION = OPT_FUNCTION + 219,
  CURLOPT_PREREQFUNCTION = OPT_FUNCTION + 312,  // libcurl 7.80
  CURLOPT_PREREQDATA = OPT_POINTER + 313,
  CURLOPT_SOCKOPTFUNCTION = OPT_FUNCTION + 148,
  CURLOPT_SOCKOPTDATA = OPT_POINTER + 149,
};
enum {
  CURLINFO_RESPONSE_CODE = 0x200000 + 2,
  CURLINFO_PRIVATE = 0x100000 + 21,
  CURLINFO_PRIMARY_PORT = 0x200000 + 40,
  CURLINFO_LOCAL_PORT = 0x200000 + 42,
  CURLINFO_ACTIVESOCKET = 0x500000 + 44,
};
enum { CURL_PREREQFUNC_OK = 0, CURL_PREREQFUNC_ABORT = 1 };
// The multi interface (libcurl 7.68 or later for curl_multi_poll and curl_multi_wakeup).
typedef void CURLM;
typedef int CURLMcode;
typedef struct {
  int msg;  // CURLMSG_DONE when a transfer has ended
  CURL *easy_handle;
  union {
    void *whatever;
    CURLcode result;
  } data;
} CURLMsg;
enum { CURLMSG_DONE = 1 };
enum { CURLE_ABORTED_BY_CALLBACK = 42 };
enum { CURLPROTO_HTTP = 1 << 0, CURLPROTO_HTTPS = 1 << 1 };
enum { CURL_GLOBAL_ALL = 3 };
enum { CURL_ERROR_SIZE = 256 };

// curl_easy_setopt and curl_easy_getinfo are variadic in curl.h, and are called as variadic
// functions: each value is passed as the type curl.h documents for its option (long, a pointer,
// curl_off_t, or the callback's own function pointer type), as the curl.h macros do.
typedef CURLcode (*setopt_function)(CURL *, int, ...);
typedef CURLcode (*getinfo_function)(CURL *, int, ...);
typedef size_t (*write_callback)(char *, size_t, size_t, void *);
typedef int (*xferinfo_callback)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t);
typedef int (*prereq_callback)(void *, char *, char *, int, int);
typedef int (*sockopt_callback)(void *, int, int);

static struct {
  CURLcode (*global_init)(long);
  CURL *(*easy_init)(void);
  setopt_function setopt;
  CURLcode (*perform)(CURL *);
  getinfo_function getinfo;
  void (*cleanup)(CURL *);
  struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
  void (*slist_free_all)(struct curl_slist *);
  const char *(*strerror)(CURLcode);
  CURLM *(*multi_init)(void);
  CURLMcode (*multi_add_handle)(CURLM *, CURL *);
  CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
  CURLMcode (*multi_perform)(CURLM *, int *);
  CURLMcode (*multi_poll)(CURLM *, void *, unsigned, int, int *);
  CURLMcode (*multi_wakeup)(CURLM *);
  CURLMsg *(*multi_info_read)(CURLM *, int *);
  int loaded;
} curl;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int start_driver(void);

// Why libcurl is not loaded, when it is not: set once, by load().
static char load_error[256] = "libcurl has not been loaded yet";

static void load(void) {
  void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) {
    const char *reason = dlerror();
    snprintf(load_error, sizeof load_error, "dlopen(\"libcurl.so.4\") failed: %s",
             reason ? reason : "no reason given");
    return;
  }
  *(void **)&curl.global_init = dlsym(library, "curl_global_init");
  *(void **)&curl.easy_init = dlsym(library, "curl_easy_init");
  *(void **)&curl.setopt = dlsym(library, "curl_easy_setopt");
  *(void **)&curl.perform = dlsym(library, "curl_easy_perform");
  *(void **)&curl.getinfo = dlsym(library, "curl_easy_getinfo");
  *(void **)&curl.cleanup = dlsym(library, "curl_easy_cleanup");
  *(void **)&curl.slist_append = dlsym(library, "curl_slist_append");
  *(void **)&curl.slist_free_all = dlsym(library, "curl_slist_free_all");
  *(void **)&curl.strerror = dlsym(library, "curl_easy_strerror");
  *(void **)&curl.multi_init = dlsym(library, "curl_multi_init");
  *(void **)&curl.multi_add_handle = dlsym(library, "curl_multi_add_handle");
  *(void **)&curl.multi_remove_handle = dlsym(library, "curl_multi_remove_handle");
  *(void **)&curl.multi_perform = dlsym(library, "curl_multi_perform");
  *(void **)&curl.multi_poll = dlsym(library, "curl_multi_poll");
  *(void **)&curl.multi_wakeup = dlsym(library, "curl_multi_wakeup");
  *(void **)&curl.multi_info_read = dlsym(library, "curl_multi_info_read");
  if (!curl.global_init || !curl.easy_init || !curl.setopt || !curl.perform || !curl.getinfo ||
      !curl.cleanup || !curl.slist_append || !curl.slist_free_all || !curl.strerror) {
    snprintf(load_error, sizeof load_error, "libcurl.so.4 lacks a function of libcurl's API");
    return;
  }
  if (!curl.multi_init || !curl.multi_add_handle || !curl.multi_remove_handle ||
      !curl.multi_perform || !curl.multi_poll || !curl.multi_wakeup || !curl.multi_info_read) {
    snprintf(load_error, sizeof load_error,
             "libcurl.so.4 is older than 7.68 (it lacks curl_multi_poll or curl_multi_wakeup)");
    return;
  }
  // Once per process, before any other call: curl_global_init is not thread-safe before 7.84.
  if (curl.global_init(CURL_GLOBAL_ALL) != 0) {
    snprintf(load_error, sizeof load_error, "curl_global_init failed");
    return;
  }
  curl.loaded = start_driver();
  if (!curl.loaded) snprintf(load_error, sizeof load_error, "the transfer thread could not start");
}

int cjsonapi_curl_available(void) {
  pthread_once(&load_once, load);
  return curl.loaded;
}

const char *cjsonapi_curl_load_error(void) {
  return cjsonapi_curl_available() ? "" : load_error;
}

// One transfer: the Swift side's callbacks and context, and what libcurl needs kept until the
// transfer ends. Allocated by cjsonapi_curl_start, freed by finish() on the driver's thread.
typedef struct transfer {
  void *context;
  cjsonapi_curl_data_callback on_data;
  cjsonapi_curl_line_callback on_header;
  cjsonapi_curl_poll_callback on_poll;
  cjsonapi_curl_done_callback on_done;
  CURL *handle;
  struct curl_slist *headers;
  char message[CURL_ERROR_SIZE];
  /// Bytes moved so far, both ways (from libcurl's progress callback; driver thread only).
  int64_t moved;
  /// Whether the kept connection libcurl chose had bytes waiting, so that the transfer stopped
  /// before sending its request, to be sent again on a new connection (driver thread only).
  int stale;
  /// Whether libcurl opened a socket for it: its connection is new (driver thread only).
  int opened;
  /// Whether it was sent again so (once at most).
  int sent_again;
  /// The driver's list: waiting to be added, or running (driver thread only once added).
  struct transfer *previous, *next;
} transfer;

// The driver: one thread that runs every transfer of the process on one multi handle, so that
// threads do not grow with requests. `lock` guards
// `waiting`; `multi` and `running` belong to the driver's thread.
static struct {
  pthread_mutex_t lock;
  transfer *waiting;
  /// Whether a transfer was cancelled since the last round asked them all (guarded by `lock`).
  int ask_all;
  CURLM *multi;
  transfer *running;
} driver = {PTHREAD_MUTEX_INITIALIZER, NULL, 0, NULL, NULL};

// Milliseconds of a clock that never goes back.
static int64_t now_ms(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

// A count other than size * count makes libcurl stop with CURLE_WRITE_ERROR.
static size_t write_body(char *bytes, size_t size, size_t count, void *user) {
  transfer *t = user;
  size_t total = size * count;
  if (total == 0) return 0;
  return t->on_data(t->context, bytes, total) == 0 ? total : 0;
}

static size_t write_header(char *bytes, size_t size, size_t count, void *user) {
  transfer *t = user;
  size_t total = size * count;
  if (total == 0) return 0;
  return t->on_header(t->context, bytes, total) == 0 ? total : 0;
}

// The bytes moved so far, both ways, tell the transport when the connection last made progress.
static int progress(void *user, curl_off_t download_total, curl_off_t downloaded,
                    curl_off_t upload_total, curl_off_t uploaded) {
  (void)download_total, (void)upload_total;
  transfer *t = user;
  t->moved = (downloaded > 0 ? (int64_t)downloaded : 0) + (uploaded > 0 ? (int64_t)uploaded : 0);
  return t->on_poll(t->context, t->moved);
}

// The kept connections' sockets, so that a transfer libcurl gives a kept connection can look at
// it (libcurl tells a transfer its socket only once it has ended). Recorded when a transfer ends
// well on a connection libcurl keeps; an entry is trusted only while its socket still has the
// same ends (a closed socket's number is soon another's). Driver thread only.
enum { KEPT_CONNECTIONS = 512 };
static struct kept {
  int socket;  // -1: none
  int local_port, remote_port;
} kept[KEPT_CONNECTIONS];
static int kept_next;

// Whether `address` is `ip` and `port`, as libcurl writes an address.
static int same_end(const struct sockaddr_storage *address, const char *ip, int port) {
  char text[INET6_ADDRSTRLEN];
  int actual_port;
  if (address->ss_family == AF_INET) {
    const struct sockaddr_in *v4 = (const struct sockaddr_in *)(const void *)address;
    if (!inet_ntop(AF_INET, &v4->sin_addr, text, sizeof text)) return 0;
    actual_port = ntohs(v4->sin_port);
  } else if (address->ss_family == AF_INET6) {
    const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)(const void *)address;
    if (!inet_ntop(AF_INET6, &v6->sin6_addr, text, sizeof text)) return 0;
    actual_port = ntohs(v6->sin6_port);
  } else {
    return 0;
  }
  return actual_port == port && ip != NULL && strcmp(text, ip) == 0;
}

// The socket of the kept connection with these ends; -1 when none is known.
static int kept_socket(const char *local_ip, int local_port, const char *remote_ip,
                       int remote_port) {
  for (int i = 0; i < KEPT_CONNECTIONS; i++) {
    const struct kept *k = &kept[i];
    if (k->socket < 0 || k->local_port != local_port || k->remote_port != remote_port) continue;
    struct sockaddr_storage local, remote;
    socklen_t local_length = sizeof local, remote_length = sizeof remote;
    if (getsockname(k->socket, (struct sockaddr *)&local, &local_length) == 0 &&
        getpeername(k->socket, (struct sockaddr *)&remote, &remote_length) == 0 &&
        same_end(&local, local_ip, local_port) && same_end(&remote, remote_ip, remote_port)) {
      return k->socket;
    }
  }
  return -1;
}

// Records the connection a transfer that ended well leaves kept (before it leaves the multi
// handle: libcurl finds the connection through it).
static void record_kept(CURL *handle) {
  int socket = -1;  // curl_socket_t is an int on Linux
  long local_port = 0, remote_port = 0;
  if (curl.getinfo(handle, CURLINFO_ACTIVESOCKET, &socket) != 0 || socket < 0) return;
  if (curl.getinfo(handle, CURLINFO_LOCAL_PORT, &local_port) != 0 ||
      curl.getinfo(handle, CURLINFO_PRIMARY_PORT, &remote_port) != 0) {
    return;
  }
  struct kept *slot = NULL;
  for (int i = 0; i < KEPT_CONNECTIONS && slot == NULL; i++) {
    if (kept[i].socket == socket) slot = &kept[i];
  }
  if (slot == NULL) {
    // Past the table's size, the oldest entry goes: its connection is then not used again.
    slot = &kept[kept_next];
    kept_next = (kept_next + 1) % KEPT_CONNECTIONS;
  }
  slot->socket = socket;
  slot->local_port = (int)local_port;
  slot->remote_port = (int)remote_port;
}

// Called when libcurl opens a socket for a transfer: the transfer makes a new connection.
static int opened_socket(void *user, int socket, int purpose) {
  (void)socket, (void)purpose;
  ((transfer *)user)->opened = 1;
  return 0;  // CURL_SOCKOPT_OK
}

// Called once a connection is ready, before the request is sent on it. A kept connection is used
// again only when nothing is waiting on it: bytes there belong to no request this side sent (an
// unasked answer, the rest of a body longer than its Content-Length, a close), and reading them as
// this request's answer would give it another's. libcurl 7.88 reuses such a connection, so the
// check is ours: the transfer stops (the connection closes) and the driver sends the request
// again on a new one. So does a kept connection whose socket is not known. HTTP/2 frames waiting
// count too: a new connection then, never a wrong answer.
static int before_request(void *user, char *remote_ip, char *local_ip, int remote_port,
                          int local_port) {
  transfer *t = user;
  if (t->opened) return CURL_PREREQFUNC_OK;  // a new connection: nothing was asked on it before
  int socket = kept_socket(local_ip, local_port, remote_ip, remote_port);
  if (socket >= 0) {
    char byte;
    ssize_t waiting = recv(socket, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
    if (waiting < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return CURL_PREREQFUNC_OK;
  }
  t->stale = 1;
  return CURL_PREREQFUNC_ABORT;
}

static void fail(cjsonapi_curl_result *result, int code, const char *message) {
  result->code = code;
  strncpy(result->message, message, sizeof result->message - 1);
  result->message[sizeof result->message - 1] = '\0';
}

static void release(transfer *t) {
  if (t->handle) curl.cleanup(t->handle);
  if (t->headers) curl.slist_free_all(t->headers);
  free(t);
}

// Reports how `t` ended to the Swift side, then frees it. `t` is in no list any more.
static void finish(transfer *t, CURLcode code) {
  cjsonapi_curl_result result;
  memset(&result, 0, sizeof result);
  result.code = code;
  long status = 0;
  if (curl.getinfo(t->handle, CURLINFO_RESPONSE_CODE, &status) == 0) result.status = status;
  if (code != 0) fail(&result, code, t->message[0] ? t->message : curl.strerror(code));
  t->on_done(t->context, &result);
  release(t);
}

static void unlink_running(transfer *t) {
  if (t->previous) t->previous->next = t->next; else driver.running = t->next;
  if (t->next) t->next->previous = t->previous;
  t->previous = t->next = NULL;
}

// Sends a transfer that stopped before its request went out (a stale kept connection) again, on a
// new connection: once, so it cannot loop. Whether it is running again.
static int send_again(transfer *t) {
  if (t->sent_again) return 0;
  t->stale = 0;
  t->sent_again = 1;
  if (curl.setopt(t->handle, CURLOPT_FRESH_CONNECT, 1L) != 0) return 0;
  return curl.multi_add_handle(driver.multi, t->handle) == 0;
}

static void *drive(void *unused) {
  (void)unused;
  int64_t asked = now_ms();
  for (;;) {
    // Take the transfers that arrived, and add them.
    pthread_mutex_lock(&driver.lock);
    transfer *arrived = driver.waiting;
    driver.waiting = NULL;
    int ask_all = driver.ask_all;
    driver.ask_all = 0;
    pthread_mutex_unlock(&driver.lock);
    while (arrived) {
      transfer *t = arrived;
      arrived = t->next;
      t->previous = NULL;
      t->next = driver.running;
      if (driver.running) driver.running->previous = t;
      driver.running = t;
      if (curl.multi_add_handle(driver.multi, t->handle) != 0) {
        unlink_running(t);
        strncpy(t->message, "curl_multi_add_handle failed", sizeof t->message - 1);
        finish(t, -1);
      }
    }
    int still_running = 0;
    curl.multi_perform(driver.multi, &still_running);
    CURLMsg *message;
    int left = 0;
    while ((message = curl.multi_info_read(driver.multi, &left)) != NULL) {
      if (message->msg != CURLMSG_DONE) continue;
      CURL *handle = message->easy_handle;
      CURLcode code = message->data.result;
      char *private = NULL;  // CURLINFO_PRIVATE hands back the CURLOPT_PRIVATE pointer
      curl.getinfo(handle, CURLINFO_PRIVATE, &private);
      transfer *t = (transfer *)(void *)private;
      if (code == 0) record_kept(handle);
      curl.multi_remove_handle(driver.multi, handle);
      if (t == NULL) continue;
      if (t->stale && code == CURLE_ABORTED_BY_CALLBACK && send_again(t)) continue;
      unlink_running(t);
      finish(t, code);
    }
    // Ask every running transfer whether it may go on (cancelled, or silent too long): libcurl
    // calls the progress callback only for transfers it drives, and a silent one may not be.
    // Once a second, or at once after a cancellation: not on every event, which would make the
    // work grow with the square of the transfers.
    int64_t now = now_ms();
    if (ask_all || now - asked >= 1000) {
      asked = now;
      for (transfer *t = driver.running; t != NULL;) {
        transfer *next = t->next;
        if (t->on_poll(t->context, t->moved) != 0) {
          // Removed before its answer was complete: libcurl closes its connection.
          curl.multi_remove_handle(driver.multi, t->handle);
          unlink_running(t);
          finish(t, CURLE_ABORTED_BY_CALLBACK);
        }
        t = next;
      }
    }
    int events = 0;
    // At most a second between rounds: the bound on noticing a cancellation or a silence.
    curl.multi_poll(driver.multi, NULL, 0, 1000, &events);
  }
  return NULL;
}

static int start_driver(void) {
  for (int i = 0; i < KEPT_CONNECTIONS; i++) kept[i].socket = -1;
  driver.multi = curl.multi_init();
  if (driver.multi == NULL) return 0;
  pthread_t thread;
  pthread_attr_t attributes;
  if (pthread_attr_init(&attributes) != 0) return 0;
  pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
  int started = pthread_create(&thread, &attributes, drive, NULL) == 0;
  pthread_attr_destroy(&attributes);
  return started;
}

void cjsonapi_curl_wake(void) {
  if (!cjsonapi_curl_available()) return;
  pthread_mutex_lock(&driver.lock);
  driver.ask_all = 1;
  pthread_mutex_unlock(&driver.lock);
  curl.multi_wakeup(driver.multi);
}

// Sets `t` up for `request`; NULL when it succeeded, else what failed.
static const char *prepare(transfer *t, const cjsonapi_curl_request *request, CURLcode *code) {
  CURL *handle = t->handle;
  for (size_t i = 0; i < request->header_count; i++) {
    const char *line = request->headers ? request->headers[i] : NULL;
    if (line == NULL) continue;
    struct curl_slist *appended = curl.slist_append(t->headers, line);
    if (appended == NULL) return "out of memory for request headers";
    t->headers = appended;
  }
  // The first option libcurl refuses stops the set-up; the failure names it.
  const char *refused = NULL;
#define SET(option, value)                                 \
  do {                                                     \
    if (refused == NULL) {                                 \
      CURLcode code_ = curl.setopt(handle, option, value); \
      if (code_ != 0) refused = #option, *code = code_;    \
    }                                                      \
  } while (0)
  // libcurl copies the strings it is given, and COPYPOSTFIELDS the body: the request's memory
  // is not needed once this returns.
  SET(CURLOPT_URL, (char *)request->url);
  SET(CURLOPT_ERRORBUFFER, t->message);
  SET(CURLOPT_PRIVATE, (void *)t);
  SET(CURLOPT_CUSTOMREQUEST, (char *)request->method);
  if (strcmp(request->method, "HEAD") == 0) SET(CURLOPT_NOBODY, 1L);
  if (request->body != NULL) {
    // POSTFIELDS sends the body with any method; CUSTOMREQUEST keeps the method's name.
    SET(CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)request->body_length);
    SET(CURLOPT_COPYPOSTFIELDS, (char *)request->body);
  }
  if (t->headers) SET(CURLOPT_HTTPHEADER, t->headers);
  // Redirects are the transport's to judge (same origin only); http and https only.
  SET(CURLOPT_FOLLOWLOCATION, 0L);
  SET(CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
  SET(CURLOPT_REDIR_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
  // Connections are kept and used again only with the check before each request (libcurl closes
  // one whose answer was cut short or refused). A libcurl older than 7.80 has no such hook: a
  // connection of its own for each request there, closed at the end.
  if (refused == NULL) {
    if (curl.setopt(handle, CURLOPT_PREREQFUNCTION, (prereq_callback)before_request) == 0) {
      SET(CURLOPT_PREREQDATA, (void *)t);
      SET(CURLOPT_SOCKOPTFUNCTION, (sockopt_callback)opened_socket);
      SET(CURLOPT_SOCKOPTDATA, (void *)t);
    } else {
      SET(CURLOPT_FRESH_CONNECT, 1L);
      SET(CURLOPT_FORBID_REUSE, 1L);
    }
  }
  // Decoded bytes are what the callbacks count, so a compressed body is bounded by its size after
  // decoding, 16 KiB at a time.
  SET(CURLOPT_ACCEPT_ENCODING, (char *)"");
  SET(CURLOPT_HTTP_CONTENT_DECODING, 1L);
  SET(CURLOPT_NOSIGNAL, 1L);
  if (request->timeout_ms > 0) SET(CURLOPT_TIMEOUT_MS, request->timeout_ms);
  if (request->connect_timeout_ms > 0) SET(CURLOPT_CONNECTTIMEOUT_MS, request->connect_timeout_ms);
  SET(CURLOPT_WRITEFUNCTION, (write_callback)write_body);
  SET(CURLOPT_WRITEDATA, (void *)t);
  SET(CURLOPT_HEADERFUNCTION, (write_callback)write_header);
  SET(CURLOPT_HEADERDATA, (void *)t);
  SET(CURLOPT_XFERINFOFUNCTION, (xferinfo_callback)progress);
  SET(CURLOPT_XFERINFODATA, (void *)t);
  SET(CURLOPT_NOPROGRESS, 0L);
#undef SET
  return refused;
}

void cjsonapi_curl_start(const cjsonapi_curl_request *request, void *context,
                         cjsonapi_curl_data_callback on_data,
                         cjsonapi_curl_line_callback on_header, cjsonapi_curl_poll_callback on_poll,
                         cjsonapi_curl_done_callback on_done) {
  cjsonapi_curl_result result;
  memset(&result, 0, sizeof result);
  if (!cjsonapi_curl_available()) {
    fail(&result, -1, load_error);
    on_done(context, &result);
    return;
  }
  transfer *t = calloc(1, sizeof *t);
  if (t == NULL) {
    fail(&result, -1, "out of memory for a transfer");
    on_done(context, &result);
    return;
  }
  t->context = context;
  t->on_data = on_data;
  t->on_header = on_header;
  t->on_poll = on_poll;
  t->on_done = on_done;
  t->handle = curl.easy_init();
  CURLcode code = -1;
  const char *problem = t->handle ? prepare(t, request, &code) : "curl_easy_init failed";
  if (problem != NULL) {
    char text[sizeof result.message];
    if (code != -1) {
      snprintf(text, sizeof text, "libcurl refused %s: %s", problem, curl.strerror(code));
    } else {
      snprintf(text, sizeof text, "%s", problem);
    }
    fail(&result, code, text);
    release(t);
    on_done(context, &result);
    return;
  }
  pthread_mutex_lock(&driver.lock);
  t->next = driver.waiting;
  driver.waiting = t;
  pthread_mutex_unlock(&driver.lock);
  curl.multi_wakeup(driver.multi);
}

#else

int cjsonapi_curl_available(void) { return 0; }

const char *cjsonapi_curl_load_error(void) { return "libcurl is used on Linux only"; }

void cjsonapi_curl_start(const cjsonapi_curl_request *request, void *context,
                         cjsonapi_curl_data_callback on_data,
                         cjsonapi_curl_line_callback on_header, cjsonapi_curl_poll_callback on_poll,
                         cjsonapi_curl_done_callback on_done) {
  (void)request, (void)on_data, (void)on_header, (void)on_poll;
  cjsonapi_curl_result result;
  memset(&result, 0, sizeof result);
  result.code = -1;
  strncpy(result.message, "libcurl is used on Linux only", sizeof result.message - 1);
  on_done(context, &result);
}

void cjsonapi_curl_wake(void) {}

#endif
