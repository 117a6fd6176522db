#ifndef MEDIABROKER_CINTL_SHIM_H
#define MEDIABROKER_CINTL_SHIM_H
/* gettext and the locale's formats are glibc's own (libc6-dev's headers): no library to link. */
#include <libintl.h>
#include <langinfo.h>
#include <locale.h>
#endif
