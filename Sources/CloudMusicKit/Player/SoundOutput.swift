import Foundation

/// Whether what a player plays can be heard, as far as it knows.
public enum SoundOutput: Sendable, Equatable {
    /// Nothing has been played yet.
    case unknown
    /// The output opened the last time a song started.
    case working
    /// The output could not be opened (no sound card, no sound server, a device that is gone): no song can play
    /// until that changes, and trying the next song would only fail the same way.
    case failed(SoundOutputFailure)

    /// The sentence to show while the output has failed; nil otherwise.
    public var problem: String? {
        if case .failed(let failure) = self { failure.message } else { nil }
    }
}

/// Why the sound output could not be opened: libmpv's reason and what its audio outputs logged, turned into
/// one sentence a person can act on.
public struct SoundOutputFailure: Sendable, Equatable {
    /// libmpv's reason, such as "audio output initialization failed".
    public var reason: String
    /// What libmpv logged meanwhile, one line each as `[prefix] text`, such as
    /// `[ao/alsa] Playback open error: No such file or directory`.
    public var log: [String]
    /// The output device that was asked for (the config's `audio_device`), nil for the default one.
    public var device: String?

    public init(reason: String, log: [String] = [], device: String? = nil) {
        self.reason = reason
        self.log = log
        self.device = device.flatMap { $0.isEmpty || $0 == "auto" ? nil : $0 }
    }

    /// One sentence: what is wrong and which setting changes it, such as
    /// "No sound output: ALSA found no sound card. Set audio_output in the config."
    public var message: String {
        "No sound output: \(cause). Set \(device == nil ? "audio_output" : "audio_device") in the config."
    }

    /// What is wrong, in a few words: what ALSA or PulseAudio said when the log says it, else libmpv's reason.
    public var cause: String {
        // ALSA is the layer next to the hardware: when it speaks, it names the root cause. With the default
        // output libmpv tries every output in turn, and the others (JACK, SDL) fail only because ALSA did.
        let alsa = log.filter { line in
            line.hasPrefix("[ao/alsa]") || line.contains("ALSA") || line.contains("alsa-lib")
        }
        if alsa.contains(where: { $0.contains("cannot find card") || $0.contains("no soundcards") }) {
            return "ALSA found no sound card"
        }
        if alsa.contains(where: { $0.contains("Device or resource busy") }) {
            return "the sound card is busy (another program is using it)"
        }
        if alsa.contains(where: { $0.contains("Permission denied") }) {
            return "this user may not open the sound card (permission denied)"
        }
        if alsa.contains(where: { $0.contains("No such file or directory") || $0.contains("Unknown PCM") }) {
            return device.map { "there is no device \($0)" } ?? "ALSA found no sound card"
        }
        if let pulse = log.first(where: { $0.hasPrefix("[ao/pulse]") }) {
            if pulse.contains("Connection refused") || pulse.contains("No such file or directory") {
                return "no PulseAudio server is running"
            }
            return "PulseAudio failed (\(Self.text(of: pulse)))"
        }
        if let line = alsa.first(where: { $0.hasPrefix("[ao/alsa]") }) {
            return "ALSA failed (\(Self.text(of: line)))"
        }
        if let device { return "the device \(device) could not be opened" }
        return reason.isEmpty ? "the audio output could not be opened" : reason
    }

    /// A log line without its `[prefix]` and the "Init failed:" that PulseAudio's lines start with.
    private static func text(of line: String) -> String {
        var text = Substring(line)
        if text.hasPrefix("["), let end = text.firstIndex(of: "]") { text = text[text.index(after: end)...] }
        text = text.drop { $0 == " " }
        if text.hasPrefix("Init failed:") { text = text.dropFirst("Init failed:".count).drop { $0 == " " } }
        return text.trimmingCharacters(in: CharacterSet(charactersIn: " ."))
    }
}
