#ifndef SLUICE_CZSTD_SHIM_H
#define SLUICE_CZSTD_SHIM_H
#include <zstd.h>
#include <zstd_errors.h>
#endif
