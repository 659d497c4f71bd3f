// In TagLib 1.13, taglib_file_new returns a TagLib::File * cast to TagLib_File * (tag_c.cpp),
// so the handle can be used with the C++ API here.
#include "CTagLibProperties.h"

#include <taglib/asffile.h>
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

/// The file's property map plus the keys TagLib 1.13 leaves out for some formats.
TagLib::PropertyMap propertiesOf(const TagLib::File *f) {
  TagLib::PropertyMap map = f->properties();
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
    for (int i = 0; i < count; ++i) map.erase(TagLib::String(keys[i], TagLib::String::UTF8));
    auto *asf = dynamic_cast<TagLib::ASF::File *>(f);
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
    bool asfOK = true;
    if (asf != nullptr && map.contains("COMPILATION")) {
      const TagLib::StringList values = map["COMPILATION"];
      map.erase("COMPILATION");
      TagLib::ASF::Tag *tag = asf->tag();
      if (tag == nullptr) {
        asfOK = false;
      } else {
        const TagLib::String v = values.isEmpty() ? TagLib::String() : values.front().upper();
        tag->setAttribute(asfCompilation, TagLib::ASF::Attribute(v == "1" || v == "TRUE" || v == "YES"));
      }
    } else if (asf != nullptr && asf->tag() != nullptr) {
      for (int i = 0; i < count; ++i) {
        if (TagLib::String(keys[i], TagLib::String::UTF8) == "COMPILATION") asf->tag()->removeItem(asfCompilation);
      }
    }
    const TagLib::PropertyMap rejected = f->setProperties(map);
    return rejected.isEmpty() && asfOK ? 1 : 0;
  } catch (...) {
    return 0;
  }
}

extern "C" int cm_taglib_length_milliseconds(const void *file) {
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
