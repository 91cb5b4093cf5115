#ifndef SLUICE_CBROTLI_SHIM_H
#define SLUICE_CBROTLI_SHIM_H
#include <brotli/decode.h>
#endif
