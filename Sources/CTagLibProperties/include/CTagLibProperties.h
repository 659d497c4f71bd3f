#ifndef CLOUDMUSIC_CTAGLIBPROPERTIES_H
#define CLOUDMUSIC_CTAGLIBPROPERTIES_H
// The property-map part of TagLib's C API, which TagLib 1.13 lacks (TagLib 2.0 has
// taglib_property_keys/get/set). `file` is a `TagLib_File *` from taglib_file_new; it is
// passed as `void *` so that this header does not include <taglib/tag_c.h> a second time.
// Strings are UTF-8. Lists are NULL-terminated and freed with cm_taglib_property_free.
#ifdef __cplusplus
extern "C" {
#endif

/// The property keys present in the file (upper case, e.g. "ALBUMARTIST"), or NULL if none.
char **cm_taglib_property_keys(const void *file);

/// Every property at once, flattened: key, value, key, value, ... (a key repeats for each of its
/// values), or NULL if the file has none. Cheaper than keys + get, which rebuild the map each call.
char **cm_taglib_properties(const void *file);

/// The values of one property, or NULL if it is absent.
char **cm_taglib_property_get(const void *file, const char *key);

/// Frees a list returned above; NULL is allowed.
void cm_taglib_property_free(char **list);

/// Replaces properties: every key named in `keys` loses its old values and gets the non-NULL
/// `values` given with it (a key may appear several times for several values; a NULL value only
/// removes). Other properties are kept. Returns 1 if TagLib accepted every key, 0 otherwise.
/// Call taglib_file_save afterwards.
int cm_taglib_property_replace(void *file, const char *const *keys, const char *const *values,
                               int count);

/// Bits per sample of a lossless stream (FLAC, WAV, AIFF, ALAC, WavPack, APE, TrueAudio), or 0 when the
/// format has none (MP3, AAC, Vorbis, Opus) or the file has no audio properties.
int cm_taglib_bits_per_sample(const void *file);

/// Duration in milliseconds, or -1 if the file has no audio properties.
int cm_taglib_length_milliseconds(const void *file);

/// Opens `path` as Ogg Opus whatever its extension (TagLib 1.13's taglib_file_new opens every
/// .ogg as Vorbis, and its C API has no Opus type), or NULL if it is not valid Ogg Opus. The result
/// is a `TagLib_File *` for the taglib_file_* functions, freed with taglib_file_free.
void *cm_taglib_file_new_opus(const char *path);

#ifdef __cplusplus
}
#endif
#endif
