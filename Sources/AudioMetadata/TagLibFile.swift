import CTagLib
import CTagLibProperties
import Foundation

/// The one place that talks to TagLib: an open file, its property map and audio properties.
///
/// One instance is used by one thread at a time; different files may be open on different threads.
final class TagLibFile {
    private let handle: UnsafeMutablePointer<TagLib_File>
    let path: String

    /// TagLib's C API keeps two process-wide settings; they are set once, before the first open.
    private static let configured: Bool = {
        taglib_set_strings_unicode(1)
        taglib_set_string_management_enabled(0)
        return true
    }()

    /// Opens `path`; throws if TagLib does not know the format or cannot parse the file.
    init(path: String) throws(AudioMetadataError) {
        _ = Self.configured
        self.path = path
        var opened: UnsafeMutablePointer<TagLib_File>?
        let ext = AudioFileReader.fileExtension(of: path)
        switch ext {
        case "alac": opened = taglib_file_new_type(path, TagLib_File_MP4)  // TagLib only knows .m4a etc.
        default: opened = taglib_file_new(path)
        }
        // TagLib 1.13 opens every .ogg/.oga as Vorbis (or FLAC), so Opus in .ogg looks invalid:
        // try Ogg Opus before giving up.
        if ext == "ogg" || ext == "oga", opened.map({ taglib_file_is_valid($0) == 0 }) ?? true,
            let opus = cm_taglib_file_new_opus(path)
        {
            if let opened { taglib_file_free(opened) }
            opened = opus.assumingMemoryBound(to: TagLib_File.self)
        }
        guard let handle = opened else {
            if ext == "aac" {
                // taglib_file_new has no type for .aac: TagLib 1.13 cannot read raw ADTS streams.
                throw AudioMetadataError(
                    path: path,
                    reason: "raw AAC (ADTS) files cannot be read; put the stream in an .m4a file "
                        + "(ffmpeg -i in.aac -c copy out.m4a)")
            }
            throw AudioMetadataError(path: path, reason: "not an audio file TagLib can read")
        }
        guard taglib_file_is_valid(handle) != 0 else {
            taglib_file_free(handle)
            throw AudioMetadataError(
                path: path, reason: "not an audio file TagLib can read (damaged or unknown format)")
        }
        self.handle = handle
    }

    deinit { taglib_file_free(handle) }

    /// The keys of the file's property map, upper case ("TITLE", "ALBUMARTIST", ...).
    var propertyKeys: [String] { Self.strings(cm_taglib_property_keys(handle)) }

    /// Every property with all its values, keys upper case.
    var allProperties: [String: [String]] {
        let flat = Self.strings(cm_taglib_properties(handle))
        var map: [String: [String]] = [:]
        var i = 0
        while i + 1 < flat.count {
            map[flat[i], default: []].append(flat[i + 1])
            i += 2
        }
        return map
    }

    /// All values of one property; empty if absent.
    func values(_ key: String) -> [String] { Self.strings(cm_taglib_property_get(handle, key)) }

    /// Replaces the given properties (each key with all its values; an empty list removes it).
    /// Returns false if the format could not store some key.
    @discardableResult
    func replace(_ properties: [(key: String, values: [String])]) -> Bool {
        var keys: [String] = []
        var values: [String?] = []
        for (key, list) in properties {
            if list.isEmpty {
                keys.append(key)
                values.append(nil)
            } else {
                for value in list {
                    keys.append(key)
                    values.append(value)
                }
            }
        }
        let cKeys = keys.map { strdup($0) }
        let cValues = values.map { $0.map { strdup($0) } ?? nil }
        defer {
            for key in cKeys { free(key) }
            for value in cValues { free(value) }
        }
        let keyPointers: [UnsafePointer<CChar>?] = cKeys.map { $0.map { UnsafePointer($0) } }
        let valuePointers: [UnsafePointer<CChar>?] = cValues.map { $0.map { UnsafePointer($0) } }
        return keyPointers.withUnsafeBufferPointer { k in
            valuePointers.withUnsafeBufferPointer { v in
                cm_taglib_property_replace(handle, k.baseAddress, v.baseAddress, Int32(k.count)) != 0
            }
        }
    }

    /// Writes changed tags to disk.
    func save() throws(AudioMetadataError) {
        guard taglib_file_save(handle) != 0 else {
            throw AudioMetadataError(
                path: path, reason: "TagLib could not save the tags (is the file writable?)")
        }
    }

    /// Audio stream properties, or nil if the file has none.
    var audioProperties: AudioProperties? {
        guard let p = taglib_file_audioproperties(handle) else { return nil }
        let milliseconds = Int(cm_taglib_length_milliseconds(handle))
        return AudioProperties(
            durationMilliseconds: max(0, milliseconds),
            bitRate: Int(taglib_audioproperties_bitrate(p)),
            sampleRate: Int(taglib_audioproperties_samplerate(p)),
            channels: Int(taglib_audioproperties_channels(p)),
            bitDepth: Int(cm_taglib_bits_per_sample(handle)))
    }

    private static func strings(_ list: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> [String] {
        guard let list else { return [] }
        defer { cm_taglib_property_free(list) }
        var out: [String] = []
        var i = 0
        while let s = list[i] {
            out.append(String(decoding: UnsafeRawBufferPointer(start: s, count: strlen(s)), as: UTF8.self))
            i += 1
        }
        return out
    }
}
