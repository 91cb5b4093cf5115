// glibc's malloc statistics (mallinfo2, malloc_trim), which the Glibc module does not export.
#include <malloc.h>
