#ifndef SLUICE_CLIBXML2_SHIM_H
#define SLUICE_CLIBXML2_SHIM_H
#include <libxml/xmlversion.h>
/* libxml2's headers would include the system's ICU headers, which clash with the copy Foundation
   brings. Sluice uses no ICU-dependent declaration (only the charset handler's layout changes,
   and Sluice never reads that structure), so they are left out. */
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/HTMLparser.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>
#include <libxml/tree.h>

/* xmlFree is a global function pointer, which Swift 6 refuses to read as shared mutable state. */
static inline void sluice_xml_free(void *pointer) { xmlFree(pointer); }
#endif
