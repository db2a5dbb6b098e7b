#ifndef COURIER_CCURL_SHIM_H
#define COURIER_CCURL_SHIM_H

// Swift cannot call C variadic functions (curl_easy_setopt, curl_easy_getinfo,
// curl_multi_setopt, curl_share_setopt) and does not import macros that are
// expressions. These typed wrappers are inlined in release builds.

#include <curl/curl.h>

static inline CURLcode courier_global_init(void) { return curl_global_init(CURL_GLOBAL_ALL); }
static inline curl_version_info_data *courier_version_info(void) { return curl_version_info(CURLVERSION_NOW); }

// MARK: - easy options

static inline CURLcode courier_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode courier_easy_setopt_off(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode courier_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode courier_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode courier_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode courier_easy_setopt_mime(CURL *handle, curl_mime *value) {
    return curl_easy_setopt(handle, CURLOPT_MIMEPOST, value);
}
static inline CURLcode courier_easy_setopt_share(CURL *handle, CURLSH *value) {
    return curl_easy_setopt(handle, CURLOPT_SHARE, value);
}

typedef size_t (*courier_data_callback)(char *buffer, size_t size, size_t count, void *userdata);

static inline CURLcode courier_easy_setopt_callback(CURL *handle, CURLoption option, courier_data_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

// MARK: - easy info

static inline CURLcode courier_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}
static inline CURLcode courier_easy_getinfo_off(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}
static inline CURLcode courier_easy_getinfo_string(CURL *handle, CURLINFO info, char **value) {
    return curl_easy_getinfo(handle, info, value);
}
static inline CURLcode courier_easy_getinfo_pointer(CURL *handle, CURLINFO info, void **value) {
    return curl_easy_getinfo(handle, info, value);
}

// MARK: - multi and share

static inline CURLMcode courier_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}
static inline CURLSHcode courier_share_setopt_long(CURLSH *share, CURLSHoption option, long value) {
    return curl_share_setopt(share, option, value);
}
/// The transfer a finished message is about, and its result (a union in C).
static inline CURLcode courier_msg_result(const CURLMsg *message) { return message->data.result; }

#endif
