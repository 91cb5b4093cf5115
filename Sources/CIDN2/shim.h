#ifndef SLUICE_CIDN2_SHIM_H
#define SLUICE_CIDN2_SHIM_H
/* libidn2: host names to IDNA A-labels (UTS #46), as libcurl converts the names it connects to. */
#include <idn2.h>
#endif
