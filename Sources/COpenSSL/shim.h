#ifndef SLUICE_COPENSSL_SHIM_H
#define SLUICE_COPENSSL_SHIM_H

/*
 * The few OpenSSL calls trust evaluation needs, as static inline functions with plain C types.
 *
 * OpenSSL's stack accessors (sk_X509_num, sk_X509_value) are macros Swift cannot import, and its
 * DER encoders write through a pointer-to-pointer; these wrappers give Swift simple signatures.
 * The SSL pointer is the one libcurl reports through CURLINFO_TLS_SSL_PTR.
 */

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/pkcs12.h>
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

/* 1 when the bytes are exactly one DER SubjectPublicKeyInfo of a key OpenSSL knows, else 0. */
static inline int sluice_spki_is_valid(const unsigned char *der, long length) {
    const unsigned char *cursor = der;
    EVP_PKEY *key = d2i_PUBKEY(NULL, &cursor, length);
    if (key == NULL) return 0;
    EVP_PKEY_free(key);
    return cursor == der + length;
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

/* The subject (is_issuer 0) or issuer (1) as X509_NAME_print_ex writes it with `flags`, into out
 * (NUL-terminated); returns the length, or -1. */
static inline int sluice_certificate_name_printed(X509 *certificate, int is_issuer, unsigned long flags, char *out, int capacity) {
    BIO *bio = BIO_new(BIO_s_mem());
    if (bio == NULL) return -1;
    X509_NAME *name = is_issuer ? X509_get_issuer_name(certificate) : X509_get_subject_name(certificate);
    int length = -1;
    if (X509_NAME_print_ex(bio, name, 0, flags) >= 0) {
        length = BIO_read(bio, out, capacity - 1);
        if (length < 0) length = 0;
        out[length] = 0;
    }
    BIO_free(bio);
    return length;
}

/* The subject (is_issuer 0) or issuer (1) as RFC 2253 text ("CN=localhost,O=Example") into out
 * (capacity bytes, NUL-terminated); returns its length, or -1. */
static inline int sluice_certificate_name_rfc2253(X509 *certificate, int is_issuer, char *out, int capacity) {
    return sluice_certificate_name_printed(certificate, is_issuer, XN_FLAG_RFC2253 & ~ASN1_STRFLGS_ESC_MSB, out, capacity);
}

/* The subject (is_issuer 0) or issuer (1) in OpenSSL's one-line form, as curl's certinfo gives
 * it: "C = US, ST = Denial, CN = localhost"; returns the length, or -1. */
static inline int sluice_certificate_name_oneline(X509 *certificate, int is_issuer, char *out, int capacity) {
    return sluice_certificate_name_printed(certificate, is_issuer, XN_FLAG_ONELINE & ~ASN1_STRFLGS_ESC_MSB, out, capacity);
}

/* The serial number's octets as written in the certificate, in lower-case hex separated by
 * colons ("0f:4e:1d"), as curl and Hurl show it; returns the length, or -1. */
static inline int sluice_certificate_serial_octets(X509 *certificate, char *out, int capacity) {
    const ASN1_INTEGER *serial = X509_get0_serialNumber(certificate);
    const unsigned char *octets = ASN1_STRING_get0_data(serial);
    int count = ASN1_STRING_length(serial);
    int length = 0;
    if (serial->type == V_ASN1_NEG_INTEGER && length + 1 < capacity) out[length++] = '-';
    for (int index = 0; index < count; index++) {
        if (length + 3 >= capacity) return -1;
        length += snprintf(out + length, (size_t)(capacity - length), index == 0 ? "%02x" : ":%02x", octets[index]);
    }
    out[length] = 0;
    return length;
}

/* The serial number as upper-case hex into out (NUL-terminated); returns its length, or -1. */
static inline int sluice_certificate_serial_hex(X509 *certificate, char *out, int capacity) {
    BIGNUM *number = ASN1_INTEGER_to_BN(X509_get0_serialNumber(certificate), NULL);
    if (number == NULL) return -1;
    char *hex = BN_bn2hex(number);
    BN_free(number);
    if (hex == NULL) return -1;
    int length = (int)strlen(hex);
    if (length >= capacity) length = capacity - 1;
    memcpy(out, hex, (size_t)length);
    out[length] = 0;
    OPENSSL_free(hex);
    return length;
}

/* The subject alternative names as "DNS:name" and "IP:address" lines, separated by '\n', into out
 * (NUL-terminated); returns the length (0 when there are none), or -1. */
static inline int sluice_certificate_alt_names(X509 *certificate, char *out, int capacity) {
    GENERAL_NAMES *names = X509_get_ext_d2i(certificate, NID_subject_alt_name, NULL, NULL);
    int length = 0;
    out[0] = 0;
    if (names == NULL) return 0;
    for (int index = 0; index < sk_GENERAL_NAME_num(names); index++) {
        GENERAL_NAME *name = sk_GENERAL_NAME_value(names, index);
        char line[300];
        line[0] = 0;
        if (name->type == GEN_DNS) {
            snprintf(line, sizeof line, "DNS:%.*s", ASN1_STRING_length(name->d.dNSName), (const char *)ASN1_STRING_get0_data(name->d.dNSName));
        } else if (name->type == GEN_IPADD) {
            const unsigned char *bytes = ASN1_STRING_get0_data(name->d.iPAddress);
            int count = ASN1_STRING_length(name->d.iPAddress);
            if (count == 4) {
                snprintf(line, sizeof line, "IP:%d.%d.%d.%d", bytes[0], bytes[1], bytes[2], bytes[3]);
            } else if (count == 16) {
                int written = snprintf(line, sizeof line, "IP:");
                for (int part = 0; part < 8; part++) {
                    written += snprintf(line + written, sizeof line - (size_t)written, part ? ":%x" : "%x", (bytes[2 * part] << 8) | bytes[2 * part + 1]);
                }
            }
        }
        int size = (int)strlen(line);
        if (size == 0) continue;
        if (length + size + 2 > capacity) break;
        if (length > 0) out[length++] = '\n';
        memcpy(out + length, line, (size_t)size);
        length += size;
        out[length] = 0;
    }
    GENERAL_NAMES_free(names);
    return length;
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

/* What sluice_check_identity found wrong with a client identity. */
enum sluice_identity_problem {
    SLUICE_IDENTITY_OK = 0,
    SLUICE_IDENTITY_NO_CERTIFICATE = 1, /* no certificate could be read */
    SLUICE_IDENTITY_NO_KEY = 2,         /* no private key could be read */
    SLUICE_IDENTITY_BAD_PASSWORD = 3,   /* the key or PKCS#12 file did not decrypt with the password */
    SLUICE_IDENTITY_MISMATCH = 4,       /* the key is not the certificate's */
};

/* Checks a client identity the way the TLS library will use it: a PEM certificate and a PEM key
 * (key NULL: the key follows the certificate in its file), or a PKCS#12 file (is_pkcs12 1; key
 * ignored). password may be NULL. On success *leaf holds the certificate (free it). */
static inline int sluice_check_identity(const unsigned char *certificate, long certificate_length,
                                        const unsigned char *key, long key_length, int is_pkcs12,
                                        const char *password, X509 **leaf) {
    *leaf = NULL;
    X509 *cert = NULL;
    EVP_PKEY *pkey = NULL;
    int problem = SLUICE_IDENTITY_OK;
    ERR_clear_error();
    if (is_pkcs12) {
        BIO *bio = BIO_new_mem_buf(certificate, (int)certificate_length);
        PKCS12 *p12 = bio ? d2i_PKCS12_bio(bio, NULL) : NULL;
        BIO_free(bio);
        if (p12 == NULL) return SLUICE_IDENTITY_NO_CERTIFICATE;
        if (!PKCS12_verify_mac(p12, password, -1) && !(password == NULL && PKCS12_verify_mac(p12, "", 0))) {
            PKCS12_free(p12);
            return SLUICE_IDENTITY_BAD_PASSWORD;
        }
        STACK_OF(X509) *extra = NULL;
        if (!PKCS12_parse(p12, password ? password : "", &pkey, &cert, &extra)) problem = SLUICE_IDENTITY_BAD_PASSWORD;
        sk_X509_pop_free(extra, X509_free);
        PKCS12_free(p12);
        if (problem == SLUICE_IDENTITY_OK && cert == NULL) problem = SLUICE_IDENTITY_NO_CERTIFICATE;
        if (problem == SLUICE_IDENTITY_OK && pkey == NULL) problem = SLUICE_IDENTITY_NO_KEY;
    } else {
        BIO *bio = BIO_new_mem_buf(certificate, (int)certificate_length);
        cert = bio ? PEM_read_bio_X509(bio, NULL, NULL, NULL) : NULL;
        BIO_free(bio);
        if (cert == NULL) return SLUICE_IDENTITY_NO_CERTIFICATE;
        const unsigned char *key_bytes = key ? key : certificate;
        long key_size = key ? key_length : certificate_length;
        bio = BIO_new_mem_buf(key_bytes, (int)key_size);
        /* With no callback, OpenSSL takes u as the passphrase; "" fails an encrypted key cleanly. */
        pkey = bio ? PEM_read_bio_PrivateKey(bio, NULL, NULL, (void *)(password ? password : "")) : NULL;
        BIO_free(bio);
        if (pkey == NULL) {
            unsigned long error = ERR_peek_last_error();
            int reason = ERR_GET_REASON(error);
            problem = (reason == EVP_R_BAD_DECRYPT || reason == PEM_R_BAD_DECRYPT || reason == PEM_R_BAD_PASSWORD_READ)
                ? SLUICE_IDENTITY_BAD_PASSWORD : SLUICE_IDENTITY_NO_KEY;
        }
    }
    if (problem == SLUICE_IDENTITY_OK && X509_check_private_key(cert, pkey) != 1) problem = SLUICE_IDENTITY_MISMATCH;
    EVP_PKEY_free(pkey);
    if (problem == SLUICE_IDENTITY_OK) {
        *leaf = cert;
    } else {
        X509_free(cert);
    }
    ERR_clear_error();
    return problem;
}

/* SHA-256 of bytes into out (32 bytes); returns 1 on success. */
static inline int sluice_sha256(const void *bytes, size_t count, unsigned char *out) {
    unsigned int length = 0;
    return EVP_Digest(bytes, count, out, &length, EVP_sha256(), NULL);
}

/* The digest of bytes with the algorithm OpenSSL knows by name ("MD5", "SHA256", "SHA512-256")
 * into out (at least EVP_MAX_MD_SIZE bytes); returns the digest's length, or 0 when the name is
 * unknown or the provider refuses it. */
static inline unsigned int sluice_message_digest(const char *name, const void *bytes, size_t count, unsigned char *out) {
    EVP_MD *md = EVP_MD_fetch(NULL, name, NULL);
    if (md == NULL) { ERR_clear_error(); return 0; }
    unsigned int length = 0;
    int ok = EVP_Digest(bytes, count, out, &length, md, NULL);
    EVP_MD_free(md);
    if (!ok) { ERR_clear_error(); return 0; }
    return length;
}

#endif
