#ifndef CLOUDMUSIC_CTAGLIB_SHIM_H
#define CLOUDMUSIC_CTAGLIB_SHIM_H
#include <taglib/tag_c.h>
#endif
