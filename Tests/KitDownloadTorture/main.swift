import CloudMusicKit
import Foundation

// Starts one slow download with the DownloadManager and waits to be killed (the resume-after-kill test).
// Arguments: <store.sqlite> <download folder> <url> <song id> <bytes per second>
let arguments = CommandLine.arguments
guard arguments.count == 6, let url = URL(string: arguments[3]), let rate = Int(arguments[5]) else {
    FileHandle.standardError.write(
        Data("usage: kit-download-torture store folder url songID bytesPerSecond\n".utf8))
    exit(2)
}
var options = DownloadManager.Options()
options.maxBytesPerSecond = rate
let store = try LocalStore(path: arguments[1])
let manager = try DownloadManager(store: store, folder: URL(fileURLWithPath: arguments[2]), options: options)
try await manager.enqueue(songID: arguments[4], url: url, fileExtension: "audio")
print("started")
_ = await manager.waitUntilSettled(songID: arguments[4])
print("finished")  // should not happen: the test kills us first
