#ifndef CLOUDMUSIC_COPENSSL_SHIM_H
#define CLOUDMUSIC_COPENSSL_SHIM_H
// libcrypto (OpenSSL 3) for what libsodium lacks: RSA signatures, X.509 certificates, AES-256-GCM.
// Only the Cryptography module imports this; every key and certificate crosses it as DER bytes.
#include <openssl/asn1.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>
#endif
