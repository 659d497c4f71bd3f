#ifndef CLOUDMUSIC_CLIBXML2_SHIM_H
#define CLOUDMUSIC_CLIBXML2_SHIM_H
#include <libxml/xmlversion.h>
// Debian's libxml2 is built with ICU, whose headers clash with the copy of ICU inside Foundation. Nothing
// here touches the ICU fields (only the layout of xmlCharEncodingHandler, which we never look inside).
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/HTMLparser.h>
#include <libxml/xmlerror.h>
#endif
