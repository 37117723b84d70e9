#include "CJSONAPICurl.h"

#include <stdio.h>
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

// curl_easy_setopt and curl_easy_getinfo are variadic in curl.h, and are called as variadic
// functions: each value is passed as the type curl.h documents for its option (long, a pointer,
// curl_off_t, or the callback's own function pointer type), as the curl.h macros do.
typedef CURLcode (*setopt_function)(CURL *, int, ...);
typedef CURLcode (*getinfo_function)(CURL *, int, ...);
typedef size_t (*write_callback)(char *, size_t, size_t, void *);
typedef int (*xferinfo_callback)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t);

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
  int loaded;
} curl;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;

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
  if (!curl.global_init || !curl.easy_init || !curl.setopt || !curl.perform || !curl.getinfo ||
      !curl.cleanup || !curl.slist_append || !curl.slist_free_all || !curl.strerror) {
    snprintf(load_error, sizeof load_error, "libcurl.so.4 lacks a function of libcurl's API");
    return;
  }
  // Once per process, before any other call: curl_global_init is not thread-safe before 7.84.
  curl.loaded = curl.global_init(CURL_GLOBAL_ALL) == 0;
  if (!curl.loaded) snprintf(load_error, sizeof load_error, "curl_global_init failed");
}

int cjsonapi_curl_available(void) {
  pthread_once(&load_once, load);
  return curl.loaded;
}

const char *cjsonapi_curl_load_error(void) {
  return cjsonapi_curl_available() ? "" : load_error;
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

// The bytes moved so far, both ways, tell the transport when the connection last made progress.
static int progress(void *user, curl_off_t download_total, curl_off_t downloaded,
                    curl_off_t upload_total, curl_off_t uploaded) {
  (void)download_total, (void)upload_total;
  transfer *t = user;
  int64_t moved = (downloaded > 0 ? (int64_t)downloaded : 0) + (uploaded > 0 ? (int64_t)uploaded : 0);
  return t->on_poll(t->context, moved);
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
  // The first option libcurl refuses stops the set-up; the failure names it.
  const char *refused = NULL;
  CURLcode refusal = 0;
#define SET(option, value)                                    \
  do {                                                        \
    if (refused == NULL) {                                    \
      CURLcode code_ = curl.setopt(handle, option, value);    \
      if (code_ != 0) refused = #option, refusal = code_;     \
    }                                                         \
  } while (0)
  SET(CURLOPT_URL, request->url);
  SET(CURLOPT_ERRORBUFFER, message);
  SET(CURLOPT_CUSTOMREQUEST, request->method);
  if (strcmp(request->method, "HEAD") == 0) SET(CURLOPT_NOBODY, 1L);
  if (request->body != NULL) {
    // POSTFIELDS sends the body with any method; CUSTOMREQUEST keeps the method's name.
    SET(CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)request->body_length);
    SET(CURLOPT_POSTFIELDS, request->body);
  }
  if (headers) SET(CURLOPT_HTTPHEADER, headers);
  // Redirects are the transport's to judge (same origin only); http and https only.
  SET(CURLOPT_FOLLOWLOCATION, 0L);
  SET(CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
  SET(CURLOPT_REDIR_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
  // A connection of its own, closed at the end: an answer can never reach another request.
  SET(CURLOPT_FRESH_CONNECT, 1L);
  SET(CURLOPT_FORBID_REUSE, 1L);
  // Decoded bytes are what the callbacks count, so a compressed body is bounded by its size after
  // decoding, 16 KiB at a time.
  SET(CURLOPT_ACCEPT_ENCODING, "");
  SET(CURLOPT_HTTP_CONTENT_DECODING, 1L);
  SET(CURLOPT_NOSIGNAL, 1L);
  if (request->timeout_ms > 0) SET(CURLOPT_TIMEOUT_MS, request->timeout_ms);
  if (request->connect_timeout_ms > 0) SET(CURLOPT_CONNECTTIMEOUT_MS, request->connect_timeout_ms);
  SET(CURLOPT_WRITEFUNCTION, (write_callback)write_body);
  SET(CURLOPT_WRITEDATA, (void *)&t);
  SET(CURLOPT_HEADERFUNCTION, (write_callback)write_header);
  SET(CURLOPT_HEADERDATA, (void *)&t);
  SET(CURLOPT_XFERINFOFUNCTION, (xferinfo_callback)progress);
  SET(CURLOPT_XFERINFODATA, (void *)&t);
  SET(CURLOPT_NOPROGRESS, 0L);
#undef SET
  if (refused != NULL) {
    char text[sizeof result->message];
    snprintf(text, sizeof text, "libcurl refused %s: %s", refused, curl.strerror(refusal));
    fail(result, refusal, text);
  } else {
    CURLcode code = curl.perform(handle);
    result->code = code;
    long status = 0;
    if (curl.getinfo(handle, CURLINFO_RESPONSE_CODE, &status) == 0) result->status = status;
    if (code != 0) fail(result, code, message[0] ? message : curl.strerror(code));
  }
  curl.cleanup(handle);
  if (headers) curl.slist_free_all(headers);
}

#else

int cjsonapi_curl_available(void) { return 0; }

const char *cjsonapi_curl_load_error(void) { return "libcurl is used on Linux only"; }

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
