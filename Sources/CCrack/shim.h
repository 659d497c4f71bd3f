#ifndef CLOUDMUSIC_CCRACK_SHIM_H
#define CLOUDMUSIC_CCRACK_SHIM_H
#include <stddef.h> /* crack.h uses size_t without including it */
#include <crack.h>
#endif
