#ifndef SLUICE_CPSL_SHIM_H
#define SLUICE_CPSL_SHIM_H
/* libpsl: the Public Suffix List in its compiled form (a DAFSA), as libcurl checks cookie domains. */
#include <libpsl.h>
#endif
