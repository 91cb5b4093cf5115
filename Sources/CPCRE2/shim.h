#ifndef SLUICE_CPCRE2_SHIM_H
#define SLUICE_CPCRE2_SHIM_H
// The 8-bit library: patterns and subjects are UTF-8, as Swift's strings are.
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#endif
