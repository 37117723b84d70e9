#include "CJSONAPICurl.h"

#include <string.h>

#if defined(__linux__)
#include <dlfcn.h>
#include <pthread.h>

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
  CURLOPT_XFERINFOFUNCTION = OPT_FUNCTION + 219,
};
enum { CURLINFO_RESPONSE_CODE = 0x200000 + 2 };
enum { CURLPROTO_HTTP = 1 << 0, CURLPROTO_HTTPS = 1 << 1 };
enum { CURL_GLOBAL_ALL = 3 };
enum { CURL_ERROR_SIZE = 256 };

static struct {
  CURLcode (*global_init)(long);
  CURL *(*easy_init)(void);
  // curl_easy_setopt is variadic in curl.h; its three argument kinds are called through
  // prototypes of their own, which the System V and AAPCS64 ABIs pass as the variadic call would.
  CURLcode (*setopt_long)(CURL *, int, long);
  CURLcode (*setopt_pointer)(CURL *, int, const void *);
  CURLcode (*setopt_off_t)(CURL *, int, curl_off_t);
  CURLcode (*perform)(CURL *);
  CURLcode (*getinfo_long)(CURL *, int, long *);
  void (*cleanup)(CURL *);
  struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
  void (*slist_free_all)(struct curl_slist *);
  const char *(*strerror)(CURLcode);
  int loaded;
} curl;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void load(void) {
  void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) return;
  void *setopt = dlsym(library, "curl_easy_setopt");
  void *getinfo = dlsym(library, "curl_easy_getinfo");
  *(void **)&curl.global_init = dlsym(library, "curl_global_init");
  *(void **)&curl.easy_init = dlsym(library, "curl_easy_init");
  *(void **)&curl.setopt_long = setopt;
  *(void **)&curl.setopt_pointer = setopt;
  *(void **)&curl.setopt_off_t = setopt;
  *(void **)&curl.perform = dlsym(library, "curl_easy_perform");
  *(void **)&curl.getinfo_long = getinfo;
  *(void **)&curl.cleanup = dlsym(library, "curl_easy_cleanup");
  *(void **)&curl.slist_append = dlsym(library, "curl_slist_append");
  *(void **)&curl.slist_free_all = dlsym(library, "curl_slist_free_all");
  *(void **)&curl.strerror = dlsym(library, "curl_easy_strerror");
  if (!curl.global_init || !curl.easy_init || !setopt || !curl.perform || !getinfo ||
      !curl.cleanup || !curl.slist_append || !curl.slist_free_all || !curl.strerror) {
    return;
  }
  // Once per process, before any other call: curl_global_init is not thread-safe before 7.84.
  curl.loaded = curl.global_init(CURL_GLOBAL_ALL) == 0;
}

int cjsonapi_curl_available(void) {
  pthread_once(&load_once, load);
  return curl.loaded;
}

typedef struct transfer {
  void *context;
  cjsonapi_curl_data_callback on_data;
  cjsonapi_curl_line_callback on_header;
  cjsonapi_curl_poll_callback on_poll;
} transfer;

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

static int progress(void *user, curl_off_t a, curl_off_t b, curl_off_t c, curl_off_t d) {
  (void)a, (void)b, (void)c, (void)d;
  transfer *t = user;
  return t->on_poll(t->context);
}

static void fail(cjsonapi_curl_result *result, int code, const char *message) {
  result->code = code;
  strncpy(result->message, message, sizeof result->message - 1);
  result->message[sizeof result->message - 1] = '\0';
}

void cjsonapi_curl_perform(const cjsonapi_curl_request *request, void *context,
                           cjsonapi_curl_data_callback on_data,
                           cjsonapi_curl_line_callback on_header,
                           cjsonapi_curl_poll_callback on_poll, cjsonapi_curl_result *result) {
  memset(result, 0, sizeof *result);
  if (!cjsonapi_curl_available()) {
    fail(result, -1, "libcurl.so.4 could not be loaded");
    return;
  }
  CURL *handle = curl.easy_init();
  if (handle == NULL) {
    fail(result, -1, "curl_easy_init failed");
    return;
  }
  struct curl_slist *headers = NULL;
  int ok = 1;
  for (size_t i = 0; ok && i < request->header_count; i++) {
    const char *line = request->headers ? request->headers[i] : NULL;
    if (line == NULL) continue;
    struct curl_slist *appended = curl.slist_append(headers, line);
    if (appended == NULL) ok = 0; else headers = appended;
  }
  if (!ok) {
    if (headers) curl.slist_free_all(headers);
    curl.cleanup(handle);
    fail(result, -1, "out of memory for request headers");
    return;
  }
  transfer t = {context, on_data, on_header, on_poll};
  char message[CURL_ERROR_SIZE] = {0};
  int set = 0;
  set |= curl.setopt_pointer(handle, CURLOPT_URL, request->url);
  set |= curl.setopt_pointer(handle, CURLOPT_ERRORBUFFER, message);
  set |= curl.setopt_pointer(handle, CURLOPT_CUSTOMREQUEST, request->method);
  if (strcmp(request->method, "HEAD") == 0) set |= curl.setopt_long(handle, CURLOPT_NOBODY, 1);
  if (request->body != NULL) {
    // POSTFIELDS sends the body with any method; CUSTOMREQUEST keeps the method's name.
    set |= curl.setopt_off_t(handle, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)request->body_length);
    set |= curl.setopt_pointer(handle, CURLOPT_POSTFIELDS, request->body);
  }
  if (headers) set |= curl.setopt_pointer(handle, CURLOPT_HTTPHEADER, headers);
  // Redirects are the transport's to judge (same origin only); http and https only.
  set |= curl.setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0);
  set |= curl.setopt_long(handle, CURLOPT_PROTOCOLS, CURLPROTO_HTTP | CURLPROTO_HTTPS);
  set |= curl.setopt_long(handle, CURLOPT_REDIR_PROTOCOLS, CURLPROTO_HTTP | CURLPROTO_HTTPS);
  // A connection of its own, closed at the end: an answer can never reach another request.
  set |= curl.setopt_long(handle, CURLOPT_FRESH_CONNECT, 1);
  set |= curl.setopt_long(handle, CURLOPT_FORBID_REUSE, 1);
  // Decoded bytes are what the callbacks count, so a compressed body is bounded by its size after
  // decoding, 16 KiB at a time.
  set |= curl.setopt_pointer(handle, CURLOPT_ACCEPT_ENCODING, "");
  set |= curl.setopt_long(handle, CURLOPT_HTTP_CONTENT_DECODING, 1);
  set |= curl.setopt_long(handle, CURLOPT_NOSIGNAL, 1);
  if (request->timeout_ms > 0) set |= curl.setopt_long(handle, CURLOPT_TIMEOUT_MS, request->timeout_ms);
  if (request->connect_timeout_ms > 0) {
    set |= curl.setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, request->connect_timeout_ms);
  }
  set |= curl.setopt_pointer(handle, CURLOPT_WRITEFUNCTION, (const void *)write_body);
  set |= curl.setopt_pointer(handle, CURLOPT_WRITEDATA, &t);
  set |= curl.setopt_pointer(handle, CURLOPT_HEADERFUNCTION, (const void *)write_header);
  set |= curl.setopt_pointer(handle, CURLOPT_HEADERDATA, &t);
  set |= curl.setopt_pointer(handle, CURLOPT_XFERINFOFUNCTION, (const void *)progress);
  set |= curl.setopt_pointer(handle, CURLOPT_XFERINFODATA, &t);
  set |= curl.setopt_long(handle, CURLOPT_NOPROGRESS, 0);
  if (set != 0) {
    fail(result, -1, "libcurl refused an option");
  } else {
    CURLcode code = curl.perform(handle);
    result->code = code;
    long status = 0;
    if (curl.getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status) == 0) result->status = status;
    if (code != 0) fail(result, code, message[0] ? message : curl.strerror(code));
  }
  curl.cleanup(handle);
  if (headers) curl.slist_free_all(headers);
}

#else

int cjsonapi_curl_available(void) { return 0; }

void cjsonapi_curl_perform(const cjsonapi_curl_request *request, void *context,
                           cjsonapi_curl_data_callback on_data,
                           cjsonapi_curl_line_callback on_header,
                           cjsonapi_curl_poll_callback on_poll, cjsonapi_curl_result *result) {
  (void)request, (void)context, (void)on_data, (void)on_header, (void)on_poll;
  memset(result, 0, sizeof *result);
  result->code = -1;
  strncpy(result->message, "libcurl is used on Linux only", sizeof result->message - 1);
}

#endif
