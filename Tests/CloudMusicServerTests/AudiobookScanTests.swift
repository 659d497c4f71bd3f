import Foundation
import ServerTestSupport
import Testing

@testable import CloudMusicServer

/// The audiobook scanner without a server: natural part order, series in names, links out of the folder
/// refused, and stamps that change only when files do.
@Suite struct AudiobookScanTests {
    @Test func partsAreInNaturalOrder() {
        let names = ["Part 10.mp3", "part 2.mp3", "Part 1.mp3", "Part 1a.mp3", "第3章.mp3", "第12章.mp3"]
        #expect(
            names.sorted(by: AudiobookScanner.natural) == [
                "Part 1.mp3", "Part 1a.mp3", "part 2.mp3", "Part 10.mp3", "第3章.mp3", "第12章.mp3",
            ])
    }

    @Test func aSeriesAndItsPartAreReadFromTheName() {
        let named = AudiobookScanner.seriesInName("The Expanse 02 - Caliban's War")
        #expect(named.series == "The Expanse")
        #expect(named.part == 2)
        #expect(named.title == "Caliban's War")
        #expect(AudiobookScanner.seriesInName("三体 1.5 - 番外").part == 1.5)
        let plain = AudiobookScanner.seriesInName("Just A Title")
        #expect(plain.series == nil && plain.title == "Just A Title")
    }

    @Test func onlyFilesInsideTheFolderAreFoundAndStampsFollowChanges() throws {
        let folder = temporaryFolder()
        let outside = temporaryFolder()
        let book = folder + "/Book"
        try FileManager.default.createDirectory(atPath: book, withIntermediateDirectories: true)
        try Data("not audio, not read by find".utf8).write(to: URL(fileURLWithPath: book + "/Part 1.mp3"))
        try Data("x".utf8).write(to: URL(fileURLWithPath: outside + "/stolen.mp3"))
        // A part linking out of the folder, and a book that is a link out of it.
        try FileManager.default.createSymbolicLink(
            atPath: book + "/Part 2.mp3", withDestinationPath: outside + "/stolen.mp3")
        try FileManager.default.createSymbolicLink(
            atPath: folder + "/Away.m4b", withDestinationPath: outside + "/stolen.mp3")
        // A link inside the folder is followed.
        try FileManager.default.createSymbolicLink(
            atPath: book + "/Part 3.mp3", withDestinationPath: book + "/Part 1.mp3")
        let scanner = try #require(AudiobookScanner(folder: folder))
        let (books, failed) = scanner.find()
        #expect(books.map(\.key) == ["Book"])
        #expect(books.first?.parts == ["Book/Part 1.mp3", "Book/Part 1.mp3"])
        #expect(failed.count == 2, "\(failed)")
        #expect(failed.allSatisfy { $0.contains("outside the audiobooks folder") })
        let stamp = try #require(books.first?.stamp)
        #expect(scanner.find().books.first?.stamp == stamp)
        try Data("a longer file than before".utf8).write(to: URL(fileURLWithPath: book + "/Part 1.mp3"))
        #expect(scanner.find().books.first?.stamp != stamp)
    }
}
