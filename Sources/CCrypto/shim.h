#ifndef ISOBAR_CCRYPTO_SHIM_H
#define ISOBAR_CCRYPTO_SHIM_H
// OpenSSL's libcrypto, which libcurl already loads: only SHA-256, for the payload hash an
// S3 upload is signed with (x-amz-content-sha256).
#include <openssl/evp.h>
#endif
