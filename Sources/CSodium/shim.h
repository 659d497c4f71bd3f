#ifndef CLOUDMUSIC_CSODIUM_SHIM_H
#define CLOUDMUSIC_CSODIUM_SHIM_H
#include <sodium.h>
#endif
