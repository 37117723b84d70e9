// The few calls JSONAPINetworking's LibcurlTransport makes into the system's libcurl, which is
// loaded at run time (dlopen) on Linux, where swift-corelibs-foundation already requires it. On
// other platforms every call answers "not available".
#ifndef CJSONAPICURL_H
#define CJSONAPICURL_H

#include <stddef.h>
#include <stdint.h>

/// One request, as the transport hands it over.
typedef struct cjsonapi_curl_request {
  const char *_Nonnull url;
  const char *_Nonnull method;
  /// Header lines, `Name: value` each.
  const char *_Nullable const *_Nullable headers;
  size_t header_count;
  const void *_Nullable body;
  size_t body_length;
  /// Whole-request timeout in milliseconds; 0 for none.
  long timeout_ms;
  /// Connect timeout in milliseconds; 0 for libcurl's default.
  long connect_timeout_ms;
} cjsonapi_curl_request;

/// Called with each piece of the (decoded) body, at most 16 KiB; nonzero stops the transfer.
typedef int (*cjsonapi_curl_data_callback)(void *_Nullable context, const void *_Nonnull bytes,
                                           size_t count);
/// Called with each raw header line, the status line included; nonzero stops the transfer.
typedef int (*cjsonapi_curl_line_callback)(void *_Nullable context, const void *_Nonnull bytes,
                                           size_t count);
/// Called while the transfer runs, about once a second or more often, with the bytes moved so far
/// (sent and received, on the wire); nonzero stops it.
typedef int (*cjsonapi_curl_poll_callback)(void *_Nullable context, int64_t moved);

/// What a transfer ended with.
typedef struct cjsonapi_curl_result {
  /// libcurl's CURLcode: 0 on success; -1 when libcurl could not be loaded or set up.
  int code;
  /// The HTTP status of the last response head.
  long status;
  /// libcurl's message for a failure, NUL-terminated.
  char message[256];
} cjsonapi_curl_result;

/// Whether libcurl is loaded and initialised (loads it on the first call).
int cjsonapi_curl_available(void);

/// Why libcurl could not be loaded (loads it on the first call); empty when it is loaded.
const char *_Nonnull cjsonapi_curl_load_error(void);

/// Called once when a transfer has ended, with how it ended, on libcurl's thread.
typedef void (*cjsonapi_curl_done_callback)(void *_Nullable context,
                                            const cjsonapi_curl_result *_Nonnull result);

/// Starts one request on the process's transfer thread (started with libcurl), which runs every
/// transfer on one multi handle; a kept connection is used again only when nothing waits on it
/// (libcurl 7.80 or later; older ones open a connection per request). The callbacks run on
/// that thread; `on_done` runs exactly once (on the calling thread when the request cannot start).
/// The request's memory is copied: it may be freed when this returns.
void cjsonapi_curl_start(const cjsonapi_curl_request *_Nonnull request, void *_Nullable context,
                         cjsonapi_curl_data_callback _Nonnull on_data,
                         cjsonapi_curl_line_callback _Nonnull on_header,
                         cjsonapi_curl_poll_callback _Nonnull on_poll,
                         cjsonapi_curl_done_callback _Nonnull on_done);

/// Wakes the transfer thread so that it asks every transfer at once whether it may go on (after a
/// cancellation).
void cjsonapi_curl_wake(void);

#endif
