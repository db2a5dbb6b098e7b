#include "CCurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

// Function pointers resolved from libcurl by courier_curl_load.
static struct {
    CURLcode (*global_init)(long);
    curl_version_info_data *(*version_info)(CURLversion);
    const char *(*easy_strerror)(CURLcode);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    void (*easy_reset)(CURL *);
    CURLcode (*easy_pause)(CURL *, int);
    const char *(*multi_strerror)(CURLMcode);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_cleanup)(CURLM *);
    CURLMcode (*multi_add_handle)(CURLM *, CURL *);
    CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
    CURLMcode (*multi_perform)(CURLM *, int *);
    CURLMcode (*multi_poll)(CURLM *, struct curl_waitfd *, unsigned int, int, int *);
    CURLMcode (*multi_wakeup)(CURLM *);
    CURLMsg *(*multi_info_read)(CURLM *, int *);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    curl_mime *(*mime_init)(CURL *);
    void (*mime_free)(curl_mime *);
    curl_mimepart *(*mime_addpart)(curl_mime *);
    CURLcode (*mime_name)(curl_mimepart *, const char *);
    CURLcode (*mime_data)(curl_mimepart *, const char *, size_t);
    CURLcode (*mime_filedata)(curl_mimepart *, const char *);
    CURLcode (*mime_filename)(curl_mimepart *, const char *);
    CURLcode (*mime_type)(curl_mimepart *, const char *);
    CURLSH *(*share_init)(void);
    CURLSHcode (*share_cleanup)(CURLSH *);
    CURLSHcode (*share_setopt)(CURLSH *, CURLSHoption, ...);
} curl;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_error[512];
static int load_status = -1;

#define RESOLVE(field, symbol)                                                              \
    do {                                                                                    \
        *(void **)(&curl.field) = dlsym(library, #symbol);                                  \
        if (curl.field == NULL) {                                                           \
            snprintf(load_error, sizeof load_error, "%s has no symbol %s", name, #symbol);  \
            return;                                                                         \
        }                                                                                   \
    } while (0)

static void load(void) {
    // libcurl.so.4 is the ABI Courier was built against; libcurl.so only exists
    // where the -dev package is installed.
    const char *names[] = {"libcurl.so.4", "libcurl.so"};
    void *library = NULL;
    const char *name = NULL;
    // RTLD_LAZY: the functions Courier calls are looked up below with dlsym either way, and
    // binding every symbol of libcurl's dozen libraries up front (RTLD_NOW) is work that a
    // run of one request pays in full (the figures are in docs/performance.md).
    for (size_t i = 0; i < sizeof names / sizeof names[0] && library == NULL; i++) {
        name = names[i];
        library = dlopen(name, RTLD_LAZY | RTLD_LOCAL);
    }
    if (library == NULL) {
        snprintf(load_error, sizeof load_error,
                 "cannot load libcurl (%s); install it, e.g. 'apt-get install libcurl4'", dlerror());
        return;
    }
    RESOLVE(global_init, curl_global_init);
    RESOLVE(version_info, curl_version_info);
    RESOLVE(easy_strerror, curl_easy_strerror);
    RESOLVE(easy_init, curl_easy_init);
    RESOLVE(easy_cleanup, curl_easy_cleanup);
    RESOLVE(easy_reset, curl_easy_reset);
    RESOLVE(easy_pause, curl_easy_pause);
    RESOLVE(multi_strerror, curl_multi_strerror);
    RESOLVE(easy_setopt, curl_easy_setopt);
    RESOLVE(easy_getinfo, curl_easy_getinfo);
    RESOLVE(multi_init, curl_multi_init);
    RESOLVE(multi_cleanup, curl_multi_cleanup);
    RESOLVE(multi_add_handle, curl_multi_add_handle);
    RESOLVE(multi_remove_handle, curl_multi_remove_handle);
    RESOLVE(multi_perform, curl_multi_perform);
    RESOLVE(multi_poll, curl_multi_poll);
    RESOLVE(multi_wakeup, curl_multi_wakeup);
    RESOLVE(multi_info_read, curl_multi_info_read);
    RESOLVE(slist_append, curl_slist_append);
    RESOLVE(slist_free_all, curl_slist_free_all);
    RESOLVE(mime_init, curl_mime_init);
    RESOLVE(mime_free, curl_mime_free);
    RESOLVE(mime_addpart, curl_mime_addpart);
    RESOLVE(mime_name, curl_mime_name);
    RESOLVE(mime_data, curl_mime_data);
    RESOLVE(mime_filedata, curl_mime_filedata);
    RESOLVE(mime_filename, curl_mime_filename);
    RESOLVE(mime_type, curl_mime_type);
    RESOLVE(share_init, curl_share_init);
    RESOLVE(share_cleanup, curl_share_cleanup);
    RESOLVE(share_setopt, curl_share_setopt);
    load_status = 0;
}

int courier_curl_load(char *error, size_t error_size) {
    pthread_once(&load_once, load);
    if (load_status != 0 && error != NULL && error_size > 0) {
        snprintf(error, error_size, "%s", load_error);
    }
    return load_status;
}

CURLcode courier_global_init(void) { return curl.global_init(CURL_GLOBAL_ALL); }
curl_version_info_data *courier_version_info(void) { return curl.version_info(CURLVERSION_NOW); }
// Messages may be asked for before libcurl is loaded (an option check in a unit test): no call
// through a null pointer then.
const char *courier_easy_strerror(CURLcode code) {
    return curl.easy_strerror != NULL ? curl.easy_strerror(code) : "(libcurl is not loaded)";
}

CURL *courier_easy_init(void) { return curl.easy_init(); }
void courier_easy_cleanup(CURL *handle) { curl.easy_cleanup(handle); }
void courier_easy_reset(CURL *handle) { curl.easy_reset(handle); }
CURLcode courier_easy_pause(CURL *handle, int bitmask) { return curl.easy_pause(handle, bitmask); }
const char *courier_multi_strerror(CURLMcode code) { return curl.multi_strerror(code); }
CURLcode courier_easy_setopt_xferinfo(CURL *handle, courier_xferinfo_callback callback) {
    return curl.easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

CURLcode courier_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl.easy_setopt(handle, option, value);
}
CURLcode courier_easy_setopt_off(CURL *handle, CURLoption option, curl_off_t value) {
    return curl.easy_setopt(handle, option, value);
}
CURLcode courier_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl.easy_setopt(handle, option, value);
}
CURLcode courier_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl.easy_setopt(handle, option, value);
}
CURLcode courier_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl.easy_setopt(handle, option, value);
}
CURLcode courier_easy_setopt_mime(CURL *handle, curl_mime *value) {
    return curl.easy_setopt(handle, CURLOPT_MIMEPOST, value);
}
CURLcode courier_easy_setopt_share(CURL *handle, CURLSH *value) {
    return curl.easy_setopt(handle, CURLOPT_SHARE, value);
}
CURLcode courier_easy_setopt_callback(CURL *handle, CURLoption option, courier_data_callback callback) {
    return curl.easy_setopt(handle, option, callback);
}
CURLcode courier_easy_setopt_debug(CURL *handle, courier_debug_callback callback) {
    return curl.easy_setopt(handle, CURLOPT_DEBUGFUNCTION, callback);
}

CURLcode courier_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl.easy_getinfo(handle, info, value);
}
CURLcode courier_easy_getinfo_off(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl.easy_getinfo(handle, info, value);
}
CURLcode courier_easy_getinfo_string(CURL *handle, CURLINFO info, char **value) {
    return curl.easy_getinfo(handle, info, value);
}
CURLcode courier_easy_getinfo_slist(CURL *handle, CURLINFO info, struct curl_slist **value) {
    return curl.easy_getinfo(handle, info, value);
}

CURLM *courier_multi_init(void) { return curl.multi_init(); }
CURLMcode courier_multi_cleanup(CURLM *multi) { return curl.multi_cleanup(multi); }
CURLMcode courier_multi_add_handle(CURLM *multi, CURL *handle) { return curl.multi_add_handle(multi, handle); }
CURLMcode courier_multi_remove_handle(CURLM *multi, CURL *handle) { return curl.multi_remove_handle(multi, handle); }
CURLMcode courier_multi_perform(CURLM *multi, int *running) { return curl.multi_perform(multi, running); }
CURLMcode courier_multi_poll(CURLM *multi, struct curl_waitfd *extra, unsigned int count, int timeout_ms, int *ready) {
    return curl.multi_poll(multi, extra, count, timeout_ms, ready);
}
CURLMcode courier_multi_wakeup(CURLM *multi) { return curl.multi_wakeup(multi); }
CURLMsg *courier_multi_info_read(CURLM *multi, int *remaining) { return curl.multi_info_read(multi, remaining); }
CURLcode courier_msg_result(const CURLMsg *message) { return message->data.result; }

struct curl_slist *courier_slist_append(struct curl_slist *list, const char *line) { return curl.slist_append(list, line); }
void courier_slist_free_all(struct curl_slist *list) { curl.slist_free_all(list); }

curl_mime *courier_mime_init(CURL *handle) { return curl.mime_init(handle); }
void courier_mime_free(curl_mime *mime) { curl.mime_free(mime); }
curl_mimepart *courier_mime_addpart(curl_mime *mime) { return curl.mime_addpart(mime); }
CURLcode courier_mime_name(curl_mimepart *part, const char *name) { return curl.mime_name(part, name); }
CURLcode courier_mime_data(curl_mimepart *part, const char *data, size_t size) { return curl.mime_data(part, data, size); }
CURLcode courier_mime_filedata(curl_mimepart *part, const char *path) { return curl.mime_filedata(part, path); }
CURLcode courier_mime_filename(curl_mimepart *part, const char *name) { return curl.mime_filename(part, name); }
CURLcode courier_mime_type(curl_mimepart *part, const char *type) { return curl.mime_type(part, type); }

CURLSH *courier_share_init(void) { return curl.share_init(); }
CURLSHcode courier_share_cleanup(CURLSH *share) { return curl.share_cleanup(share); }
CURLSHcode courier_share_setopt_long(CURLSH *share, CURLSHoption option, long value) {
    return curl.share_setopt(share, option, value);
}
