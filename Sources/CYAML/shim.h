#ifndef SLUICE_CYAML_SHIM_H
#define SLUICE_CYAML_SHIM_H
#include <yaml.h>
#endif
