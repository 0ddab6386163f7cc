#ifndef ISOBAR_CCRYPTO_SHIM_H
#define ISOBAR_CCRYPTO_SHIM_H
// OpenSSL's libcrypto, which libcurl already loads: SHA-256, for the payload hash an S3
// upload is signed with (x-amz-content-sha256); and ECDSA P-256 (ES256), for the token
// WeatherKit's REST API asks for (a PEM private key read from memory, its signature turned
// from DER into the raw r||s that JWS wants).
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/bio.h>
#include <openssl/ecdsa.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#endif
