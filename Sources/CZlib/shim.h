#ifndef SLUICE_CZLIB_SHIM_H
#define SLUICE_CZLIB_SHIM_H
#include <zlib.h>
#endif
