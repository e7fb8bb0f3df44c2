// The system libcurl for the Linux transport (Dispatcher's CurlTransport). curl_easy_setopt is
// variadic, which Swift cannot call, so every option is set here, in one place.
#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H

#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>
#include <string.h>

/// A body or header callback: returning less than size * count aborts the transfer.
typedef size_t (*ccurl_data_function)(char *bytes, size_t size, size_t count, void *context);
/// A progress callback, called about once a second even while nothing moves: non-zero aborts.
typedef int (*ccurl_progress_function)(void *context, curl_off_t download_total, curl_off_t download_now,
                                       curl_off_t upload_total, curl_off_t upload_now);

/// curl_global_init with the default flags: once per process, before any handle.
static inline CURLcode ccurl_global_init(void) { return curl_global_init(CURL_GLOBAL_DEFAULT); }

/// Sets every option of one request on a handle just reset: http and https only, no signals,
/// no redirects followed, an overall timeout, a low-speed limit (under 1 byte a second for
/// low_speed_seconds aborts), the given headers and body, and the three callbacks with context.
static inline CURLcode ccurl_prepare(CURL *handle, const char *url, const char *method, const void *body,
                                     long long body_length, struct curl_slist *headers, long timeout_ms,
                                     long low_speed_seconds, ccurl_data_function on_body,
                                     ccurl_data_function on_header, ccurl_progress_function on_progress,
                                     void *context) {
    CURLcode code = CURLE_OK;
#define CCURL_SET(option, value) if (code == CURLE_OK) code = curl_easy_setopt(handle, option, value)
    CCURL_SET(CURLOPT_URL, url);
#if LIBCURL_VERSION_NUM >= 0x075500
    CCURL_SET(CURLOPT_PROTOCOLS_STR, "http,https");
#else
    CCURL_SET(CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
    CCURL_SET(CURLOPT_NOSIGNAL, 1L);
    CCURL_SET(CURLOPT_FOLLOWLOCATION, 0L);
    CCURL_SET(CURLOPT_TIMEOUT_MS, timeout_ms);
    CCURL_SET(CURLOPT_CONNECTTIMEOUT_MS, timeout_ms);
    CCURL_SET(CURLOPT_LOW_SPEED_LIMIT, 1L);
    CCURL_SET(CURLOPT_LOW_SPEED_TIME, low_speed_seconds);
    CCURL_SET(CURLOPT_HTTPHEADER, headers);
    CCURL_SET(CURLOPT_WRITEFUNCTION, on_body);
    CCURL_SET(CURLOPT_WRITEDATA, context);
    CCURL_SET(CURLOPT_HEADERFUNCTION, on_header);
    CCURL_SET(CURLOPT_HEADERDATA, context);
    CCURL_SET(CURLOPT_XFERINFOFUNCTION, on_progress);
    CCURL_SET(CURLOPT_XFERINFODATA, context);
    CCURL_SET(CURLOPT_NOPROGRESS, 0L);
    if (strcmp(method, "GET") == 0 && body_length == 0) {
        CCURL_SET(CURLOPT_HTTPGET, 1L);
    } else {
        CCURL_SET(CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)body_length);
        CCURL_SET(CURLOPT_POSTFIELDS, body ? body : "");
        if (strcmp(method, "POST") != 0) CCURL_SET(CURLOPT_CUSTOMREQUEST, method);
    }
#undef CCURL_SET
    return code;
}

/// The last response's status code (0 when none arrived).
static inline long ccurl_response_code(CURL *handle) {
    long status = 0;
    curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &status);
    return status;
}

#endif
