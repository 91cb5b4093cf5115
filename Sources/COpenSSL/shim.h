#ifndef SLUICE_COPENSSL_SHIM_H
#define SLUICE_COPENSSL_SHIM_H

/*
 * The few OpenSSL calls trust evaluation needs, as static inline functions with plain C types.
 *
 * OpenSSL's stack accessors (sk_X509_num, sk_X509_value) are macros Swift cannot import, and its
 * DER encoders write through a pointer-to-pointer; these wrappers give Swift simple signatures.
 * The SSL pointer is the one libcurl reports through CURLINFO_TLS_SSL_PTR.
 */

#include <time.h>
#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

/* The certificates the peer sent (on a client: its own certificate first), or NULL. */
static inline STACK_OF(X509) *sluice_peer_chain(const SSL *ssl) {
    return SSL_get_peer_cert_chain(ssl);
}

/* The chain OpenSSL verified, up to the trust anchor it used, or NULL when it verified none. */
static inline STACK_OF(X509) *sluice_verified_chain(const SSL *ssl) {
    return SSL_get0_verified_chain(ssl);
}

static inline int sluice_chain_count(const STACK_OF(X509) *chain) {
    return chain ? sk_X509_num(chain) : 0;
}

static inline X509 *sluice_chain_certificate(const STACK_OF(X509) *chain, int index) {
    return sk_X509_value(chain, index);
}

/* DER of a certificate into out (capacity bytes); returns its length, or -1. With out NULL,
 * returns the length only. */
static inline int sluice_certificate_der(X509 *certificate, unsigned char *out, int capacity) {
    int length = i2d_X509(certificate, NULL);
    if (length <= 0 || out == NULL) return length;
    if (length > capacity) return -1;
    unsigned char *cursor = out;
    return i2d_X509(certificate, &cursor);
}

/* DER of a certificate's SubjectPublicKeyInfo, as sluice_certificate_der. */
static inline int sluice_spki_der(X509 *certificate, unsigned char *out, int capacity) {
    X509_PUBKEY *key = X509_get_X509_PUBKEY(certificate);
    int length = i2d_X509_PUBKEY(key, NULL);
    if (length <= 0 || out == NULL) return length;
    if (length > capacity) return -1;
    unsigned char *cursor = out;
    return i2d_X509_PUBKEY(key, &cursor);
}

/* Parses a DER certificate; NULL when it is not one. Free with sluice_certificate_free. */
static inline X509 *sluice_certificate_from_der(const unsigned char *der, long length) {
    const unsigned char *cursor = der;
    X509 *certificate = d2i_X509(NULL, &cursor, length);
    if (certificate != NULL && cursor != der + length) {
        X509_free(certificate);
        return NULL;
    }
    return certificate;
}

static inline void sluice_certificate_free(X509 *certificate) {
    X509_free(certificate);
}

/* The subject as one line (/CN=...), into out; returns out. */
static inline const char *sluice_certificate_subject(X509 *certificate, char *out, int capacity) {
    return X509_NAME_oneline(X509_get_subject_name(certificate), out, capacity);
}

/* 1 when the certificate is valid for the host name or IP address, 0 when not, below 0 on error. */
static inline int sluice_certificate_matches_host(X509 *certificate, const char *host, int is_ip_address) {
    if (is_ip_address) return X509_check_ip_asc(certificate, host, 0);
    return X509_check_host(certificate, host, 0, 0, NULL);
}

/* 1 when `issuer` issued `subject`: OpenSSL's issuer check passes (the issuer's subject names the
 * subject's issuer; key identifiers and key usage, where present, agree) and the issuer's public key
 * verifies the subject's signature. 0 otherwise. */
static inline int sluice_certificate_issued_by(X509 *subject, X509 *issuer) {
    if (X509_check_issued(issuer, subject) != X509_V_OK) return 0;
    EVP_PKEY *key = X509_get0_pubkey(issuer);
    return key != NULL && X509_verify(subject, key) == 1;
}

/* The issuer as one line (/CN=...), into out; returns out. */
static inline const char *sluice_certificate_issuer(X509 *certificate, char *out, int capacity) {
    return X509_NAME_oneline(X509_get_issuer_name(certificate), out, capacity);
}

/* The validity period in seconds since 1970 (UTC); returns 1 when both dates could be read. */
static inline int sluice_certificate_validity(X509 *certificate, long long *not_before, long long *not_after) {
    struct tm before, after;
    if (ASN1_TIME_to_tm(X509_get0_notBefore(certificate), &before) != 1) return 0;
    if (ASN1_TIME_to_tm(X509_get0_notAfter(certificate), &after) != 1) return 0;
    *not_before = (long long)timegm(&before);
    *not_after = (long long)timegm(&after);
    return 1;
}

/* A certificate-verification callback (SSL_CTX_set_cert_verify_callback's signature). */
typedef int (*sluice_verify_callback)(X509_STORE_CTX *store, void *argument);

/* Replaces OpenSSL's call of X509_verify_cert during the handshake with `callback`, which must
 * call sluice_verify_store itself and return its result. */
static inline void sluice_set_verify_callback(SSL_CTX *context, sluice_verify_callback callback, void *argument) {
    SSL_CTX_set_cert_verify_callback(context, callback, argument);
}

/* OpenSSL's own verification of the chain in `store`: 1 when it verified. */
static inline int sluice_verify_store(X509_STORE_CTX *store) {
    return X509_verify_cert(store);
}

/* The certificates the peer sent, as the store being verified holds them (leaf first). */
static inline STACK_OF(X509) *sluice_store_presented(X509_STORE_CTX *store) {
    return X509_STORE_CTX_get0_untrusted(store);
}

/* Why verification failed, in OpenSSL's words ("certificate has expired"). */
static inline const char *sluice_store_error_text(X509_STORE_CTX *store) {
    return X509_verify_cert_error_string(X509_STORE_CTX_get_error(store));
}

/* SHA-256 of bytes into out (32 bytes); returns 1 on success. */
static inline int sluice_sha256(const void *bytes, size_t count, unsigned char *out) {
    unsigned int length = 0;
    return EVP_Digest(bytes, count, out, &length, EVP_sha256(), NULL);
}

#endif
