#ifndef ISOBAR_CCMARK_SHIM_H
#define ISOBAR_CCMARK_SHIM_H
#include <cmark.h>
#endif
