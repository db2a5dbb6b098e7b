#ifndef COURIER_CCURL_H
#define COURIER_CCURL_H

// libcurl, loaded at run time.
//
// Courier does not link libcurl: its 36 shared-library dependencies cost ~11 ms
// at every start-up, which `courier --version`, `validate` and `query` never
// need. The first HTTP client calls `courier_curl_load`, which dlopens
// libcurl.so.4 and resolves the functions below; every other function here
// may only be called after it succeeded.
//
// The wrappers are also typed: Swift cannot call C variadic functions
// (curl_easy_setopt, curl_easy_getinfo, curl_multi_setopt, curl_share_setopt)
// nor import macros that are expressions.

#include <curl/curl.h>
#include <stddef.h>

/// Loads libcurl once (thread-safe). Returns 0, or -1 with a message in `error`.
int courier_curl_load(char *error, size_t error_size);

CURLcode courier_global_init(void);
curl_version_info_data *courier_version_info(void);
const char *courier_easy_strerror(CURLcode code);

// MARK: - easy handles

CURL *courier_easy_init(void);
void courier_easy_cleanup(CURL *handle);
void courier_easy_reset(CURL *handle);
/// curl_easy_pause: CURLPAUSE_CONT resumes a transfer a callback paused.
CURLcode courier_easy_pause(CURL *handle, int bitmask);
/// CURL_WRITEFUNC_PAUSE and CURL_READFUNC_PAUSE (macros Swift does not import).
static const size_t courier_writefunc_pause = CURL_WRITEFUNC_PAUSE;
static const size_t courier_readfunc_pause = CURL_READFUNC_PAUSE;
static const size_t courier_readfunc_abort = CURL_READFUNC_ABORT;
static const int courier_pause_cont = CURLPAUSE_CONT;
/// CURLAUTH_DIGEST for CURLOPT_HTTPAUTH (a cast expression Swift does not import).
static const long courier_auth_digest = (long)CURLAUTH_DIGEST;

CURLcode courier_easy_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode courier_easy_setopt_off(CURL *handle, CURLoption option, curl_off_t value);
CURLcode courier_easy_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode courier_easy_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode courier_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value);
CURLcode courier_easy_setopt_mime(CURL *handle, curl_mime *value);
CURLcode courier_easy_setopt_share(CURL *handle, CURLSH *value);

typedef size_t (*courier_data_callback)(char *buffer, size_t size, size_t count, void *userdata);
CURLcode courier_easy_setopt_callback(CURL *handle, CURLoption option, courier_data_callback callback);

typedef int (*courier_debug_callback)(CURL *handle, curl_infotype type, char *data, size_t size, void *userdata);
/// CURLOPT_DEBUGFUNCTION (its callback has a signature of its own).
CURLcode courier_easy_setopt_debug(CURL *handle, courier_debug_callback callback);

typedef int (*courier_xferinfo_callback)(void *userdata, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow);
/// CURLOPT_XFERINFOFUNCTION (progress; needs CURLOPT_NOPROGRESS 0).
CURLcode courier_easy_setopt_xferinfo(CURL *handle, courier_xferinfo_callback callback);

CURLcode courier_easy_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode courier_easy_getinfo_off(CURL *handle, CURLINFO info, curl_off_t *value);
CURLcode courier_easy_getinfo_string(CURL *handle, CURLINFO info, char **value);
/// CURLINFO_COOKIELIST and the like; the caller frees the list with courier_slist_free_all.
CURLcode courier_easy_getinfo_slist(CURL *handle, CURLINFO info, struct curl_slist **value);

// MARK: - multi handles

CURLM *courier_multi_init(void);
CURLMcode courier_multi_cleanup(CURLM *multi);
CURLMcode courier_multi_add_handle(CURLM *multi, CURL *handle);
CURLMcode courier_multi_remove_handle(CURLM *multi, CURL *handle);
CURLMcode courier_multi_perform(CURLM *multi, int *running);
CURLMcode courier_multi_poll(CURLM *multi, struct curl_waitfd *extra, unsigned int count, int timeout_ms, int *ready);
CURLMcode courier_multi_wakeup(CURLM *multi);
const char *courier_multi_strerror(CURLMcode code);
CURLMsg *courier_multi_info_read(CURLM *multi, int *remaining);
/// The transfer result of a finished message (a union member in C).
CURLcode courier_msg_result(const CURLMsg *message);

// MARK: - lists, MIME, shares

struct curl_slist *courier_slist_append(struct curl_slist *list, const char *line);
void courier_slist_free_all(struct curl_slist *list);

curl_mime *courier_mime_init(CURL *handle);
void courier_mime_free(curl_mime *mime);
curl_mimepart *courier_mime_addpart(curl_mime *mime);
CURLcode courier_mime_name(curl_mimepart *part, const char *name);
CURLcode courier_mime_data(curl_mimepart *part, const char *data, size_t size);
CURLcode courier_mime_filedata(curl_mimepart *part, const char *path);
CURLcode courier_mime_filename(curl_mimepart *part, const char *name);
CURLcode courier_mime_type(curl_mimepart *part, const char *type);

CURLSH *courier_share_init(void);
CURLSHcode courier_share_cleanup(CURLSH *share);
CURLSHcode courier_share_setopt_long(CURLSH *share, CURLSHoption option, long value);

#endif
