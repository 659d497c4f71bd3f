// In TagLib 1.13, taglib_file_new returns a TagLib::File * cast to TagLib_File * (tag_c.cpp),
// so the handle can be used with the C++ API here.
#include "CTagLibProperties.h"

#include <taglib/aifffile.h>
#include <taglib/apefile.h>
#include <taglib/flacfile.h>
#include <taglib/mp4file.h>
#include <taglib/wavpackfile.h>
#include <taglib/asffile.h>
#include <taglib/mpegfile.h>
#include <taglib/textidentificationframe.h>
#include <taglib/trueaudiofile.h>
#include <taglib/wavfile.h>
#include <taglib/audioproperties.h>
#include <taglib/opusfile.h>
#include <taglib/tfile.h>
#include <taglib/tpropertymap.h>

#include <cstdlib>
#include <cstring>
#include <set>

namespace {

char *copyString(const TagLib::String &s) {
  const std::string utf8 = s.to8Bit(true);
  char *out = static_cast<char *>(std::malloc(utf8.size() + 1));
  if (out != nullptr) std::memcpy(out, utf8.c_str(), utf8.size() + 1);
  return out;
}

char **copyList(const TagLib::StringList &list) {
  if (list.isEmpty()) return nullptr;
  char **out = static_cast<char **>(std::calloc(list.size() + 1, sizeof(char *)));
  if (out == nullptr) return nullptr;
  size_t i = 0;
  for (const auto &s : list) out[i++] = copyString(s);
  return out;
}

const TagLib::File *asFile(const void *file) { return static_cast<const TagLib::File *>(file); }

// TagLib 1.13's ASF property map has no COMPILATION key; the attribute Windows Media Player,
// MusicBrainz Picard and foobar2000 use is WM/IsCompilation, so it is mapped here by hand.
const char *const asfCompilation = "WM/IsCompilation";

bool asfAttributeIsTrue(const TagLib::ASF::Attribute &a) {
  switch (a.type()) {
    case TagLib::ASF::Attribute::BoolType: return a.toBool() != 0;
    case TagLib::ASF::Attribute::UnicodeType: {
      const TagLib::String s = a.toString().upper().stripWhiteSpace();
      return s == "1" || s == "TRUE" || s == "YES";
    }
    case TagLib::ASF::Attribute::DWordType: return a.toUInt() != 0;
    case TagLib::ASF::Attribute::QWordType: return a.toULongLong() != 0;
    case TagLib::ASF::Attribute::WordType: return a.toUShort() != 0;
    default: return false;
  }
}

// TagLib 1.13 does not translate ID3v2's TCMP frame (iTunes, Picard and ffmpeg write the
// compilation flag there): it shows up as key "TCMP", and setting COMPILATION writes a
// TXXX:COMPILATION frame that those programs ignore. Both directions are mapped here.
TagLib::ID3v2::Tag *id3v2TagOf(TagLib::File *f) {
  if (auto *mpeg = dynamic_cast<TagLib::MPEG::File *>(f)) return mpeg->ID3v2Tag(true);
  if (auto *wav = dynamic_cast<TagLib::RIFF::WAV::File *>(f)) return wav->ID3v2Tag();
  if (auto *aiff = dynamic_cast<TagLib::RIFF::AIFF::File *>(f)) return aiff->tag();
  if (auto *tta = dynamic_cast<TagLib::TrueAudio::File *>(f)) return tta->ID3v2Tag(true);
  return nullptr;
}

bool isID3v2File(const TagLib::File *f) {
  return dynamic_cast<const TagLib::MPEG::File *>(f) != nullptr ||
         dynamic_cast<const TagLib::RIFF::WAV::File *>(f) != nullptr ||
         dynamic_cast<const TagLib::RIFF::AIFF::File *>(f) != nullptr ||
         dynamic_cast<const TagLib::TrueAudio::File *>(f) != nullptr;
}

bool isTrue(const TagLib::StringList &values) {
  if (values.isEmpty()) return false;
  const TagLib::String v = values.front().upper().stripWhiteSpace();
  return v == "1" || v == "TRUE" || v == "YES";
}

/// The file's property map plus the keys TagLib 1.13 leaves out for some formats.
TagLib::PropertyMap propertiesOf(const TagLib::File *f) {
  TagLib::PropertyMap map = f->properties();
  if (map.contains("TCMP")) {
    if (!map.contains("COMPILATION")) map.insert("COMPILATION", map["TCMP"]);
    map.erase("TCMP");
  }
  if (const auto *asf = dynamic_cast<const TagLib::ASF::File *>(f)) {
    const TagLib::ASF::Tag *tag = asf->tag();
    if (tag != nullptr && tag->contains(asfCompilation)) {
      const TagLib::ASF::AttributeList list = tag->attribute(asfCompilation);
      if (!list.isEmpty()) {
        map.insert("COMPILATION", TagLib::StringList(asfAttributeIsTrue(list.front()) ? "1" : "0"));
      }
    }
  }
  return map;
}

}  // namespace

extern "C" char **cm_taglib_property_keys(const void *file) {
  if (file == nullptr) return nullptr;
  try {
    const TagLib::PropertyMap map = propertiesOf(asFile(file));
    TagLib::StringList keys;
    for (const auto &entry : map) keys.append(entry.first);
    return copyList(keys);
  } catch (...) {
    return nullptr;
  }
}

extern "C" char **cm_taglib_properties(const void *file) {
  if (file == nullptr) return nullptr;
  try {
    const TagLib::PropertyMap map = propertiesOf(asFile(file));
    TagLib::StringList flat;
    for (const auto &entry : map) {
      for (const auto &value : entry.second) {
        flat.append(entry.first);
        flat.append(value);
      }
    }
    return copyList(flat);
  } catch (...) {
    return nullptr;
  }
}

extern "C" char **cm_taglib_property_get(const void *file, const char *key) {
  if (file == nullptr || key == nullptr) return nullptr;
  try {
    const TagLib::PropertyMap map = propertiesOf(asFile(file));
    const TagLib::String k(key, TagLib::String::UTF8);
    if (!map.contains(k)) return nullptr;
    return copyList(map[k]);
  } catch (...) {
    return nullptr;
  }
}

extern "C" void cm_taglib_property_free(char **list) {
  if (list == nullptr) return;
  for (char **p = list; *p != nullptr; ++p) std::free(*p);
  std::free(list);
}

extern "C" int cm_taglib_property_replace(void *file, const char *const *keys,
                                          const char *const *values, int count) {
  if (file == nullptr) return 0;
  try {
    auto *f = static_cast<TagLib::File *>(file);
    TagLib::PropertyMap map = f->properties();
    bool compilationNamed = false;
    for (int i = 0; i < count; ++i) {
      const TagLib::String k(keys[i], TagLib::String::UTF8);
      map.erase(k);
      if (k == "COMPILATION") compilationNamed = true;
    }
    for (int i = 0; i < count; ++i) {
      if (values[i] == nullptr) continue;
      const TagLib::String k(keys[i], TagLib::String::UTF8);
      const TagLib::String v(values[i], TagLib::String::UTF8);
      if (map.contains(k)) {
        map[k].append(v);
      } else {
        map.insert(k, TagLib::StringList(v));
      }
    }
    // COMPILATION is stored by hand where TagLib 1.13's property map cannot (see above).
    auto *asf = dynamic_cast<TagLib::ASF::File *>(f);
    const bool byHand = compilationNamed && (asf != nullptr || isID3v2File(f));
    const bool compilation = byHand && isTrue(map["COMPILATION"]);
    if (byHand) {
      map.erase("COMPILATION");
      map.erase("TCMP");
    }
    const TagLib::PropertyMap rejected = f->setProperties(map);
    bool storedByHand = true;
    if (byHand && asf != nullptr) {
      TagLib::ASF::Tag *tag = asf->tag();
      if (tag == nullptr) {
        storedByHand = !compilation;
      } else if (compilation) {
        tag->setAttribute(asfCompilation, TagLib::ASF::Attribute(true));
      } else {
        tag->removeItem(asfCompilation);
      }
    } else if (byHand) {
      TagLib::ID3v2::Tag *tag = id3v2TagOf(f);
      if (tag == nullptr) {
        storedByHand = !compilation;
      } else {
        tag->removeFrames("TCMP");
        if (compilation) {
          auto *frame = new TagLib::ID3v2::TextIdentificationFrame("TCMP", TagLib::String::Latin1);
          frame->setText("1");
          tag->addFrame(frame);
        }
      }
    }
    return rejected.isEmpty() && storedByHand ? 1 : 0;
  } catch (...) {
    return 0;
  }
}

extern "C" extern "C" int cm_taglib_bits_per_sample(const void *file) {
  const TagLib::AudioProperties *p = asFile(file)->audioProperties();
  if (p == nullptr) return 0;
  if (auto *x = dynamic_cast<const TagLib::FLAC::Properties *>(p)) return x->bitsPerSample();
  if (auto *x = dynamic_cast<const TagLib::RIFF::WAV::Properties *>(p)) return x->bitsPerSample();
  if (auto *x = dynamic_cast<const TagLib::RIFF::AIFF::Properties *>(p)) return x->bitsPerSample();
  if (auto *x = dynamic_cast<const TagLib::WavPack::Properties *>(p)) return x->bitsPerSample();
  if (auto *x = dynamic_cast<const TagLib::APE::Properties *>(p)) return x->bitsPerSample();
  if (auto *x = dynamic_cast<const TagLib::TrueAudio::Properties *>(p)) return x->bitsPerSample();
  if (auto *x = dynamic_cast<const TagLib::MP4::Properties *>(p)) {
    return x->codec() == TagLib::MP4::Properties::ALAC ? x->bitsPerSample() : 0;
  }
  return 0;
}

int cm_taglib_length_milliseconds(const void *file) {
  if (file == nullptr) return -1;
  try {
    const TagLib::AudioProperties *p = asFile(file)->audioProperties();
    return p == nullptr ? -1 : p->lengthInMilliseconds();
  } catch (...) {
    return -1;
  }
}

extern "C" void *cm_taglib_file_new_opus(const char *path) {
  if (path == nullptr) return nullptr;
  try {
    auto *file = new TagLib::Ogg::Opus::File(path);
    if (file->isValid()) return file;
    delete file;
  } catch (...) {
  }
  return nullptr;
}
