#ifndef SLUICE_CCURL_SHIM_H
#define SLUICE_CCURL_SHIM_H

/*
 * Typed wrappers around libcurl's variadic entry points.
 *
 * curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt take a C variadic argument whose type
 * depends on the option. Swift cannot call C variadic functions, so each wrapper below fixes one
 * argument type. Every wrapper is a static inline function: the shim adds no library of its own.
 */

#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>

/* The I/O loop's timer, which curl_multi_poll waits on beside the sockets (the multi handle's
 * own timeout counts whole milliseconds). */
#include <sys/timerfd.h>

/* Composite macros Swift cannot import. */
enum {
    SLUICE_CURL_GLOBAL_ALL = CURL_GLOBAL_ALL,
    SLUICE_CURLPAUSE_ALL = CURLPAUSE_ALL,
    SLUICE_CURLPAUSE_CONT = CURLPAUSE_CONT,
    SLUICE_CURLPAUSE_RECV = CURLPAUSE_RECV,
    SLUICE_CURLPAUSE_SEND = CURLPAUSE_SEND,
    SLUICE_CURL_ERROR_SIZE = CURL_ERROR_SIZE,
};

/* Callback shapes. Write, header and read callbacks share one signature. */
typedef size_t (*sluice_data_callback)(char *buffer, size_t size, size_t count, void *userdata);
typedef int (*sluice_xferinfo_callback)(void *userdata, curl_off_t download_total, curl_off_t download_now,
                                        curl_off_t upload_total, curl_off_t upload_now);
typedef int (*sluice_prereq_callback)(void *userdata, char *primary_ip, char *local_ip, int primary_port,
                                      int local_port);
typedef int (*sluice_seek_callback)(void *userdata, curl_off_t offset, int origin);
typedef CURLcode (*sluice_ssl_context_callback)(CURL *handle, void *ssl_context, void *userdata);
typedef int (*sluice_debug_callback)(CURL *handle, curl_infotype type, char *data, size_t size, void *userdata);

static inline CURLcode sluice_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode sluice_easy_setopt_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode sluice_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode sluice_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

/* A share object that holds a connection cache of its own: easy handles attached to it reuse only
 * each other's connections. Used from one thread only, so no lock callbacks. */
static inline CURLSH *sluice_share_connections(void) {
    CURLSH *share = curl_share_init();
    if (share != NULL && curl_share_setopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_CONNECT) != CURLSHE_OK) {
        curl_share_cleanup(share);
        return NULL;
    }
    return share;
}

/* A blob option (CURLOPT_CAINFO_BLOB and the like); libcurl copies the bytes. */
static inline CURLcode sluice_easy_setopt_blob(CURL *handle, CURLoption option, void *data, size_t length) {
    struct curl_blob blob = { data, length, CURL_BLOB_COPY };
    return curl_easy_setopt(handle, option, &blob);
}

static inline CURLcode sluice_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode sluice_easy_setopt_data_callback(CURL *handle, CURLoption option,
                                                        sluice_data_callback value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode sluice_easy_setopt_debug_callback(CURL *handle, sluice_debug_callback value) {
    return curl_easy_setopt(handle, CURLOPT_DEBUGFUNCTION, value);
}

static inline CURLcode sluice_easy_setopt_xferinfo_callback(CURL *handle, sluice_xferinfo_callback value) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, value);
}

static inline CURLcode sluice_easy_setopt_prereq_callback(CURL *handle, sluice_prereq_callback value) {
    return curl_easy_setopt(handle, CURLOPT_PREREQFUNCTION, value);
}

static inline CURLcode sluice_easy_setopt_ssl_context_callback(CURL *handle, sluice_ssl_context_callback value) {
    return curl_easy_setopt(handle, CURLOPT_SSL_CTX_FUNCTION, value);
}

static inline CURLcode sluice_easy_setopt_seek_callback(CURL *handle, sluice_seek_callback value) {
    return curl_easy_setopt(handle, CURLOPT_SEEKFUNCTION, value);
}

static inline CURLcode sluice_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode sluice_easy_getinfo_offset(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode sluice_easy_getinfo_string(CURL *handle, CURLINFO info, char **value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode sluice_easy_getinfo_pointer(CURL *handle, CURLINFO info, void **value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLMcode sluice_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

/* The running libcurl's version information (CURLVERSION_NOW is a macro Swift cannot import). */
static inline curl_version_info_data *sluice_version_info(void) {
    return curl_version_info(CURLVERSION_NOW);
}

/* The CURLcode of a finished transfer; CURLMsg keeps it in a union. */
static inline CURLcode sluice_message_result(const CURLMsg *message) {
    return message->data.result;
}

#endif
